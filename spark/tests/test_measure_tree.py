"""scripts/measure-tree.py, the bench's meter: the CPU of a whole process tree.

    .tally/spark-venv/bin/python -m unittest discover -s spark/tests
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEASURE = os.path.join(ROOT, "scripts", "measure-tree.py")
BURN = [sys.executable, "-c", "sum(range(3 * 10**7))"]

#: A parent that ignores SIGCHLD, as PySpark's daemon does: the kernel reaps
#: its children, and their rusage goes with them.
IGNORING_PARENT = ("import signal, subprocess, sys; signal.signal(signal.SIGCHLD, signal.SIG_IGN); "
                   f"subprocess.run({BURN!r})")


class MeasureTreeTests(unittest.TestCase):
    def measure(self, command):
        """measure-tree's result for `command`; measure-tree exits with the command's status."""
        with tempfile.TemporaryDirectory() as scratch:
            result = os.path.join(scratch, "m.json")
            done = subprocess.run([sys.executable, MEASURE, result, "--", *command])
            with open(result) as f:
                measured = json.load(f)
            self.assertEqual(done.returncode, measured["status"])
            return measured

    def test_the_cpu_of_a_child_nobody_waits_for_counts(self):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(BURN, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        burn = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

        measured = self.measure([sys.executable, "-c", IGNORING_PARENT])
        if measured["cpu_from"] != "cgroup":
            self.skipTest("no cgroup can be made here: measure-tree counts reaped processes' rusage, "
                          "which misses this case (docs in scripts/measure-tree.py)")
        self.assertGreater(measured["user"] + measured["sys"], 0.7 * burn, measured)

    def test_it_reports_the_command_status_and_where_the_cpu_came_from(self):
        measured = self.measure([sys.executable, "-c", "import sys; sys.exit(3)"])
        self.assertEqual(measured["status"], 3)
        self.assertIn(measured["cpu_from"], ("cgroup", "rusage"))


if __name__ == "__main__":
    unittest.main()
