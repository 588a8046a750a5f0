"""The arrow wiring on Spark Connect (a local Connect server), against the fake tally.

test_connect.py runs these cases in a process of their own: a Connect
session and a classic one in one Python process share a JVM whose Python
workers keep the Connect session's isolated file folder.

Spark Connect (Databricks serverless and standard access, Connect servers in
general) has no SparkContext and no RDDs: the driver ships the plan and the
binary with `addArtifacts` and runs the workers through `mapInArrow`.

    (cd spark/tests && ../../.tally/spark-venv/bin/python -m unittest connect_cases)
"""

import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import tally_spark  # noqa: E402
from tally_spark import Job, JobFailed  # noqa: E402
from test_driver import FAKE, HOSTILE, make_data, read, reference  # noqa: E402

spark = None


def setUpModule():
    global spark
    # PySpark's test mode gives the local Connect server an ephemeral port,
    # so two test runs on one machine do not fight over port 15002.
    os.environ["SPARK_TESTING"] = "1"
    spark = tally_spark.session(remote="local[2]", shuffle_partitions=3)


def tearDownModule():
    spark.stop()
    del os.environ["SPARK_TESTING"]


class ConnectTests(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="tally-connect-test-")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def job(self, tasks, name, fault=None, wiring="arrow"):
        data = make_data(tasks, self.scratch, name, fault)
        return Job(tally=FAKE, data=data, out=os.path.join(self.scratch, name + "-out"), period="2026-10",
                   partitions=3, wiring=wiring, reproducible=True)

    def test_the_session_is_a_connect_one(self):
        self.assertTrue(tally_spark.is_connect(spark))

    def test_hostile_lines_come_back_byte_for_byte(self):
        tasks = HOSTILE + ["d1\tq r q"]
        job = self.job(tasks, "hostile")
        tally_spark.run_job(spark, job)
        self.assertEqual(read(job.out), reference(tasks, self.scratch))

    def test_a_failing_worker_fails_the_job_naming_stage_and_partition(self):
        job = self.job(["d1\tboom"], "fail", {"stage": "count", "key": "boom", "kind": "exit"})
        with self.assertRaises(JobFailed) as caught:
            tally_spark.run_job(spark, job)
        self.assertRegex(str(caught.exception), r"stage 'count', partition \d: the worker exited with status 3: "
                                                r"fake worker: boom at key boom")

    def test_the_transform_wiring_is_refused_with_a_clear_message(self):
        with self.assertRaises(JobFailed) as caught:
            tally_spark.run_job(spark, self.job(["d1\tx"], "transform", wiring="transform"))
        self.assertIn("use --wiring arrow", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
