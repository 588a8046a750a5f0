"""Runs connect_cases.py (the arrow wiring on a local Spark Connect server) in
a process of its own, so its Connect session shares no JVM with the classic
sessions of the other tests.

    .tally/spark-venv/bin/python -m unittest discover -s spark/tests
"""

import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class ConnectTests(unittest.TestCase):
    def test_the_arrow_wiring_on_spark_connect(self):
        done = subprocess.run([sys.executable, "-m", "unittest", "-v", "connect_cases"], cwd=HERE,
                              capture_output=True, text=True)
        report = done.stderr[-6000:]
        self.assertEqual(done.returncode, 0, report)
        self.assertRegex(report, r"Ran 4 tests")


if __name__ == "__main__":
    unittest.main()
