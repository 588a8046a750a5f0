"""Tests of the Spark driver (spark/tally_spark.py) against a fake tally.

The fake (fake_tally.py) obeys the worker protocol and checks that its stdin
is sorted by key bytes, so these tests prove the driver's transport, grouping,
sorting and failure handling without tally. One local[2] session serves all.

    .tally/spark-venv/bin/python -m unittest discover spark/tests
"""

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import shared_session  # noqa: E402
import tally_spark  # noqa: E402
from tally_spark import Job, JobFailed  # noqa: E402

FAKE = os.path.join(HERE, "fake_tally.py")
WIRINGS = ("transform", "arrow")

#: Lines whose REST holds every byte sequence a careless transport mangles:
#: TABs (empty fields, trailing), backslashes, the two characters `\N`,
#: non-ASCII, a combining mark, a control byte and an emoji.
HOSTILE = [
    "echo-1\t\t\\N\t\\\\t\tä\ta\u0308\t\t",
    "echo-\\N\t\\N",
    "echo-ä\tx\ty",
    "echo-a\u0308\tz",
    "echo-only-key",
    "echo-tabs\t\t\t\t",
    "echo-misc\t\x01\x1f\t😀 \\\\N \\t\t end",
    "echo-1\tsecond line of key echo-1",
]

WORDS = [
    "d1\tthe cat sat on the mat",
    "d2\tthe dog ate the cat",
    "d3\tä a\u0308 ä Ä",
    "d4\t",
    "d5\tzebra apple mango apple the",
] + [f"n{i}\tw{i % 13} w{i % 7} w{i % 5} common" for i in range(60)]

spark = None


def setUpModule():
    global spark
    spark = shared_session.get()


def reference(tasks, scratch):
    """The fake's single-process result for these tasks (its `run`)."""
    data = make_data(tasks, scratch, "ref-data")
    out = os.path.join(scratch, "ref-out")
    subprocess.run([sys.executable, FAKE, "run", "--data", data, "--out", out, "--period", "2026-10"], check=True)
    return read(out)


def make_data(tasks, scratch, name="data", fault=None):
    data = os.path.join(scratch, name)
    os.makedirs(data)
    with open(os.path.join(data, "tasks.txt"), "wb") as f:
        f.write("".join(t + "\n" for t in tasks).encode("utf-8"))
    if fault:
        with open(os.path.join(data, "fault.json"), "w") as f:
            json.dump(fault, f)
    return data


def read(out):
    with open(os.path.join(out, "merged.txt"), "rb") as f:
        return f.read()


def partition_of(key, partitions):
    """The partition Spark's hash partitioning gives a key."""
    from pyspark.sql import functions as F
    return spark.range(1).select(F.pmod(F.hash(F.lit(key)), F.lit(partitions))).first()[0]


class DriverTestCase(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="tally-spark-test-")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def run_fake(self, tasks, partitions=3, wiring="transform", fault=None, name="data", **job):
        data = make_data(tasks, self.scratch, name, fault)
        out = os.path.join(self.scratch, name + "-out")
        tally_spark.run_job(spark, Job(tally=FAKE, data=data, out=out, period="2026-10",
                                       partitions=partitions, wiring=wiring, reproducible=True, **job))
        return out


class TransportTests(DriverTestCase):
    def test_hostile_lines_come_back_byte_for_byte_through_two_shuffles(self):
        expected = reference(HOSTILE, self.scratch)
        self.assertIn(b"echo-1\t\t\\N\t\\\\t\t\xc3\xa4\ta\xcc\x88\t\t\n", expected)
        for wiring, partitions in (("transform", 1), ("transform", 3), ("transform", 7), ("arrow", 1), ("arrow", 3),
                                   ("arrow", 7)):
            with self.subTest(wiring=wiring, partitions=partitions):
                out = self.run_fake(HOSTILE, partitions, wiring, name=f"h-{wiring}-{partitions}")
                self.assertEqual(read(out), expected)

    def test_every_key_is_grouped_in_one_sorted_partition(self):
        # The fake exits 4 on unsorted input, and `count` prints one line per
        # key per call: a key split over two partitions would print two.
        expected = reference(WORDS, self.scratch)
        for wiring in WIRINGS:
            with self.subTest(wiring=wiring):
                lines = read(self.run_fake(WORDS, 7, wiring, name=f"g-{wiring}")).split(b"\n")
                self.assertEqual(b"\n".join(lines), expected)
                words = [line.split(b"\t")[0] for line in lines if line and not line.startswith(b"doc:")]
                self.assertEqual(len(words), len(set(words)))
                self.assertIn(b"common\t60", lines)
                self.assertIn("ä\t2".encode(), lines)
                self.assertIn("a\u0308\t1".encode(), lines)

    def test_workers_get_exactly_the_explicit_environment(self):
        for wiring in WIRINGS:
            with self.subTest(wiring=wiring):
                out = self.run_fake(["env\tx"], 3, wiring, name=f"env-{wiring}", extra_env=("TALLY_TEST=1",))
                line = [l for l in read(out).split(b"\n") if l.startswith(b"env\t")][0].decode()
                self.assertEqual(line, "env\tLANG=C.UTF-8 LC_ALL=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin "
                                       "TALLY_TEST=1")

    def test_an_archive_with_the_binary_and_its_libraries_is_shipped(self):
        staging = os.path.join(self.scratch, "staging")
        os.makedirs(os.path.join(staging, "bin"))
        os.makedirs(os.path.join(staging, "lib"))
        shutil.copy2(FAKE, os.path.join(staging, "bin", "tally"))
        with open(os.path.join(staging, "lib", "libmarker.so"), "w") as f:
            f.write("not a library; the worker only sees the folder\n")
        archive = os.path.join(self.scratch, "tally.tar.gz")
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(os.path.join(staging, "bin"), arcname="bin")
            tar.add(os.path.join(staging, "lib"), arcname="lib")
        for wiring in WIRINGS:
            with self.subTest(wiring=wiring):
                out = self.run_fake(["env\tx", "d1\ta b a"], 3, wiring, name=f"arch-{wiring}", tally_archive=archive)
                merged = read(out).decode()
                self.assertIn("a\t2\n", merged)
                lib = [f for f in merged.split() if f.startswith("LD_LIBRARY_PATH=")][0].split("=", 1)[1]
                self.assertTrue(os.path.isfile(os.path.join(lib, "libmarker.so")), lib)

    def test_without_shipping_the_binary_is_run_where_it_is(self):
        # As with a container image holding tally: only the plan is shipped.
        tasks = ["d1\ta b a", "echo-1\t\\N\t"]
        expected = reference(tasks, self.scratch)
        for wiring in WIRINGS:
            with self.subTest(wiring=wiring):
                self.assertEqual(read(self.run_fake(tasks, 3, wiring, name=f"noship-{wiring}", ship=False)), expected)

    def test_a_stage_nobody_routes_to_still_lets_the_job_finish(self):
        out = self.run_fake(["d1\tonly words here"], 3, "transform", name="empty-keep")
        self.assertEqual(read(out), reference(["d1\tonly words here"], self.scratch))


class StorageTests(DriverTestCase):
    def test_file_uris_and_paths_with_spaces_give_the_same_lines(self):
        tasks = ["d1\ta b a", "echo-1\t\\N\t"]
        expected = reference(tasks, self.scratch)
        data = make_data(tasks, self.scratch, "data with spaces")
        for name, as_uri in (("out encoded", lambda p: "file://" + p.replace(" ", "%20")),
                             ("out plain", lambda p: "file://" + p), ("out short", lambda p: "file:" + p)):
            with self.subTest(name=name):
                out = os.path.join(self.scratch, name)
                tally_spark.run_job(spark, Job(tally=FAKE, data=as_uri(data), out=as_uri(out), period="2026-10",
                                               partitions=3, reproducible=True))
                self.assertEqual(read(out), expected)
                self.assertEqual(os.listdir(out), ["merged.txt"], "checkpoints and staging are removed")

    def test_local_paths_of_uris(self):
        local = tally_spark.local_path
        self.assertEqual(local("file:///srv/a%20b", "--out"), "/srv/a b")
        self.assertEqual(local("file:///srv/a b", "--out"), "/srv/a b")
        self.assertEqual(local("file:/srv/x", "--out"), "/srv/x")
        self.assertEqual(local("file://localhost/srv/x", "--out"), "/srv/x")
        self.assertEqual(local("rel/x", "--out"), os.path.join(os.getcwd(), "rel/x"))
        with self.assertRaises(JobFailed) as caught:
            local("file://otherhost/srv/x", "--data")
        self.assertIn("--data file://otherhost/srv/x: a file: URI names no host", str(caught.exception))
        for uri in ("s3a://bucket/exports", "hdfs://nn:8020/exports", "abfss://c@acct.dfs.core.windows.net/x"):
            with self.assertRaises(JobFailed) as caught:
                local(uri, "--data")
            self.assertIn(f"--data {uri}: tally reads and writes", str(caught.exception))
            self.assertIn("file system mount", str(caught.exception))


class FailureTests(DriverTestCase):
    def assertFails(self, tasks, fault, partitions, wiring, *fragments):
        out = os.path.join(self.scratch, f"f-{wiring}-{partitions}-{fault['kind']}-out")
        with self.assertRaises(JobFailed) as caught:
            self.run_fake(tasks, partitions, wiring, fault, name=f"f-{wiring}-{partitions}-{fault['kind']}")
        message = str(caught.exception)
        for fragment in fragments:
            self.assertIn(fragment, message)
        self.assertFalse(os.path.exists(out), "merge must not run after a failed stage")
        return message

    def test_a_worker_exiting_3_fails_the_job_naming_stage_and_partition(self):
        tasks = ["d1\tboom a b", "d2\tc d e"]
        for wiring, partitions in (("transform", 3), ("transform", 7), ("arrow", 7)):
            with self.subTest(wiring=wiring, partitions=partitions):
                self.assertFails(tasks, {"stage": "count", "key": "boom", "kind": "exit"}, partitions, wiring,
                                 f"stage 'count', partition {partition_of('boom', partitions)}",
                                 "exited with status 3", "fake worker: boom at key boom")

    def test_a_worker_exiting_before_reading_a_large_input_reports_its_status(self):
        tasks = [f"d{i}\t" + " ".join(f"w{j}" for j in range(40)) for i in range(3000)]
        for wiring in WIRINGS:
            with self.subTest(wiring=wiring):
                self.assertFails(tasks, {"stage": "count", "kind": "early"}, 1, wiring,
                                 "stage 'count', partition 0", "exited with status 3", "gave up before reading")

    def test_a_line_without_a_tab_fails_the_job(self):
        for wiring in WIRINGS:
            with self.subTest(wiring=wiring):
                self.assertFails(["d1\tboom"], {"stage": "count", "key": "boom", "kind": "notab"}, 3, wiring,
                                 f"stage 'count', partition {partition_of('boom', 3)}",
                                 "without a TAB: a line without any tab")

    def test_an_unknown_destination_fails_the_job(self):
        for wiring in WIRINGS:
            with self.subTest(wiring=wiring):
                self.assertFails(["d1\tboom"], {"stage": "count", "key": "boom", "kind": "baddest"}, 3, wiring,
                                 f"stage 'count', partition {partition_of('boom', 3)}",
                                 "routed a line to 'nowhere'", "keep, merge")

    def test_routing_back_to_an_earlier_stage_fails_the_job(self):
        for wiring in WIRINGS:
            with self.subTest(wiring=wiring):
                self.assertFails(["d1\tboom"], {"stage": "count", "key": "boom", "kind": "backdest"}, 3, wiring,
                                 "stage 'count'", "routed a line to 'split'")

    def test_a_failed_job_leaves_the_previous_out_folder_as_it_was(self):
        # A first job publishes; a second one into the same out folder fails
        # in its last stage, after every earlier pass was checkpointed there.
        out = self.run_fake(["d1\ta b a"], 3, "transform", name="kept")
        def files():
            return {name: open(os.path.join(out, name), "rb").read() for name in os.listdir(out)}

        before = files()
        data = make_data(["d1\tboom a"], self.scratch, "kept-again", {"stage": "count", "key": "boom", "kind": "exit"})
        with self.assertRaises(JobFailed):
            tally_spark.run_job(spark, Job(tally=FAKE, data=data, out=out, period="2026-10", partitions=3,
                                           reproducible=True))
        self.assertEqual(files(), before)
        self.assertNotIn(tally_spark.STAGING, os.listdir(out))

    def test_a_failing_plan_fails_before_any_stage(self):
        with self.assertRaises(JobFailed) as caught:
            tally_spark.run_job(spark, Job(tally=FAKE, data=os.path.join(self.scratch, "missing"),
                                           out=os.path.join(self.scratch, "o"), period="2026-10"))
        self.assertIn("tally plan exited with status 1", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
