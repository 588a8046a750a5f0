"""Tests of the no-engine chain (scripts/stage-chain.sh) and of the driver's
command line, against the fake tally (fake_tally.py). The chain needs no Spark.

    .tally/spark-venv/bin/python -m unittest discover -s spark/tests
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHAIN = os.path.join(ROOT, "scripts", "stage-chain.sh")
DRIVER = os.path.join(ROOT, "spark", "tally_spark.py")
FAKE = os.path.join(HERE, "fake_tally.py")

sys.path.insert(0, HERE)
from test_driver import HOSTILE, WORDS  # noqa: E402


class ChainTests(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="tally-chain-test-")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def data(self, tasks, fault=None):
        data = os.path.join(self.scratch, "data")
        os.makedirs(data)
        with open(os.path.join(data, "tasks.txt"), "wb") as f:
            f.write("".join(t + "\n" for t in tasks).encode("utf-8"))
        if fault:
            with open(os.path.join(data, "fault.json"), "w") as f:
                json.dump(fault, f)
        return data

    def chain(self, data):
        out = os.path.join(self.scratch, "chain")
        done = subprocess.run([CHAIN, FAKE, data, out, "2026-10"], capture_output=True)
        return done, out

    def test_the_chain_writes_what_the_single_process_run_writes(self):
        data = self.data(HOSTILE + WORDS)
        done, out = self.chain(data)
        self.assertEqual(done.returncode, 0, done.stderr)
        ref = os.path.join(self.scratch, "run")
        subprocess.run([sys.executable, FAKE, "run", "--data", data, "--out", ref], check=True)
        with open(os.path.join(out, "merged.txt"), "rb") as a, open(os.path.join(ref, "merged.txt"), "rb") as b:
            produced, expected = a.read(), b.read()
        self.assertEqual(produced, expected)
        self.assertIn(b"echo-1\t\t\\N\t\\\\t\t\xc3\xa4\ta\xcc\x88\t\t\n", produced)

    def test_a_failing_worker_stops_the_chain_naming_the_stage(self):
        done, out = self.chain(self.data(["d1\tboom"], {"stage": "count", "key": "boom", "kind": "exit"}))
        self.assertNotEqual(done.returncode, 0)
        self.assertIn(b"stage 'count', partition 0: the worker exited with status 3", done.stderr)
        self.assertIn(b"fake worker: boom at key boom", done.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "merged.txt")))

    def test_garbage_stops_the_chain(self):
        for kind, message in (("notab", b"printed a line without a TAB"),
                              ("baddest", b"routed a line to 'nowhere'"),
                              ("backdest", b"routed a line to 'split'")):
            with self.subTest(kind=kind):
                shutil.rmtree(self.scratch)
                os.makedirs(self.scratch)
                done, out = self.chain(self.data(["d1\tboom"], {"stage": "count", "key": "boom", "kind": kind}))
                self.assertNotEqual(done.returncode, 0)
                self.assertIn(b"stage 'count'", done.stderr)
                self.assertIn(message, done.stderr)
                self.assertFalse(os.path.exists(os.path.join(out, "merged.txt")))


class CommandLineTests(unittest.TestCase):
    def test_several_partition_counts_in_one_session_write_one_folder_each(self):
        scratch = tempfile.mkdtemp(prefix="tally-cli-test-")
        try:
            data = os.path.join(scratch, "data")
            os.makedirs(data)
            with open(os.path.join(data, "tasks.txt"), "w", encoding="utf-8") as f:
                f.write("d1\tx y x\necho-1\t\\N\t\n")
            out = os.path.join(scratch, "out")
            done = subprocess.run([sys.executable, DRIVER, "--tally", FAKE, "--data", data, "--out", out,
                                   "--period", "2026-10", "--partitions", "1,2", "--wiring", "arrow",
                                   "--master", "local[2]", "--reproducible",
                                   # The JVM as a long job runs it (what make bench-spark gives).
                                   "--conf", "spark.driver.extraJavaOptions=", "--conf", "spark.driver.memory=1500m"],
                                  capture_output=True)
            self.assertEqual(done.returncode, 0, done.stderr[-3000:])
            self.assertEqual(done.stderr.count(b"session started"), 1)
            for n in (1, 2):
                with open(os.path.join(out, f"p{n}", "merged.txt"), "rb") as f:
                    self.assertEqual(f.read(), b"doc:d1\t3\necho-1\t\\N\t\nx\t2\ny\t1\n")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
