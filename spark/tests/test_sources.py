"""Tests of how the Spark driver reads a Parquet table (tally_spark.source_lines).

The driver turns each Parquet value into text and nothing more: the lines
it writes are checked here character by character, for every column type a
data platform uses; that tally reads those lines as it reads an NDJSON export
is Swift's test (ParquetSourceTests), and that a Parquet copy of
sample-data/ gives the same reports is scripts/spark-test.sh's.

    .tally/spark-venv/bin/python -m unittest spark/tests/test_sources.py
"""

import datetime
import decimal
import json
import os
import shutil
import sys
import tempfile
import unittest

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import shared_session  # noqa: E402
import tally_spark  # noqa: E402
from tally_spark import Job, JobFailed  # noqa: E402

spark = None


def setUpModule():
    global spark
    spark = shared_session.get()


UTC = datetime.timezone.utc
SOURCE = {"path": "expenses/expenses/part-00000.parquet", "format": "parquet", "broadcast": False,
          "columnsLine": "KEYPREFIfile\\t1\tflow.v2\tsource-columns\t",
          "rowLine": "KEYPREFIfile\\t1\tflow.v2\tsource-row\t"}


class SourceLinesTests(unittest.TestCase):
    def setUp(self):
        self.data = tempfile.mkdtemp(prefix="tally-sources-test-")
        os.makedirs(os.path.join(self.data, "expenses", "expenses"))
        self.job = Job(tally="tally", data=self.data, out=os.path.join(self.data, "out"), period="2026-10")

    def tearDown(self):
        shutil.rmtree(self.data, ignore_errors=True)

    def lines(self, table, row_group_size=None):
        pq.write_table(table, os.path.join(self.data, SOURCE["path"]), row_group_size=row_group_size)
        frames = tally_spark.source_lines(spark, self.job, [SOURCE])
        return sorted(row.line for frame in frames for row in frame.collect())

    def test_each_type_becomes_the_text_an_export_would_hold(self):
        table = pa.table({
            "id": pa.array(['E1 "quoted" \\ back\tslash\nline ä 😀', "E2", None], pa.string()),
            "amount": pa.array([decimal.Decimal("3500.00"), decimal.Decimal("12.50"), decimal.Decimal("-0.10")],
                               pa.decimal128(18, 2)),
            "rate": pa.array([decimal.Decimal("5.4173980"), decimal.Decimal("0.0000001"), None], pa.decimal128(12, 7)),
            "whole": pa.array([decimal.Decimal("3500"), None, None], pa.decimal128(10, 0)),
            "minutes": pa.array([37, None, -1], pa.int64()),
            "score": pa.array([12.5, 1e7, None], pa.float64()),
            "paid": pa.array([True, False, None], pa.bool_()),
            "created_at": pa.array([datetime.datetime(2026, 10, 3, 21, 15, tzinfo=UTC),
                                    datetime.datetime(2026, 10, 3, 21, 15, 0, 123456, tzinfo=UTC), None],
                                   pa.timestamp("us", tz="UTC")),
            "local_time": pa.array([datetime.datetime(2026, 10, 3, 21, 15), None, None], pa.timestamp("us")),
            "date": pa.array([datetime.date(2026, 10, 3), None, None], pa.date32()),
            "tags": pa.array([["a", "b"], [], None], pa.list_(pa.string())),
            "we\tird\\name": pa.array(["x", None, None], pa.string()),
        })
        lines = self.lines(table)
        self.assertEqual(lines[0], SOURCE["columnsLine"] + "12\tid\tamount\trate\twhole\tminutes\tscore\tpaid\t"
                         "created_at\tlocal_time\tdate\ttags\twe\\tird\\\\name")
        rows = lines[1:]
        self.assertEqual([r[len(SOURCE["rowLine"]):].split("\t", 1)[0] for r in rows],
                         ["0000000000000000000", "0000000000000000001", "0000000000000000002"])
        # Each row's JSON, with the wire's `\` doubled: undo it to read the JSON.
        objects = [json.loads(r[len(SOURCE["rowLine"]) + 20:].replace("\\\\", "\\")) for r in rows]
        self.assertEqual(objects[0], {
            "id": 'E1 "quoted" \\ back\tslash\nline ä 😀', "amount": "3500", "rate": "5.417398", "whole": "3500",
            "minutes": 37, "score": 12.5, "paid": True, "created_at": "2026-10-03T21:15:00.000000Z",
            "local_time": "2026-10-03T21:15:00.000000", "date": "2026-10-03", "tags": ["a", "b"], "we\tird\\name": "x"})
        self.assertEqual(objects[1], {"id": "E2", "amount": "12.5", "rate": "0.0000001", "score": 1e7, "paid": False,
                                      "created_at": "2026-10-03T21:15:00.123456Z", "tags": []})
        self.assertEqual(objects[2], {"amount": "-0.1", "minutes": -1})
        # The text as it travels: no raw TAB or line break in a row, the float as Java prints it.
        self.assertTrue(all(r.count("\t") == SOURCE["rowLine"].count("\t") + 1 for r in rows), rows)
        self.assertIn('"score":1.0E7', rows[1])

    def test_rows_keep_the_file_order_across_row_groups(self):
        table = pa.table({"id": [f"E{i}" for i in range(2500)]})
        rows = self.lines(table, row_group_size=100)[1:]
        self.assertEqual(len(rows), 2500)
        self.assertEqual([json.loads(r.split("\t")[-1])["id"] for r in rows], [f"E{i}" for i in range(2500)])

    def test_a_file_that_is_not_parquet_fails_naming_it(self):
        with open(os.path.join(self.data, SOURCE["path"]), "wb") as f:
            f.write(b"id,amount\nE1,12.50\n")
        with self.assertRaises(JobFailed) as failed:
            tally_spark.source_lines(spark, self.job, [SOURCE])
        self.assertIn("expenses/expenses/part-00000.parquet cannot be read as Parquet: ", str(failed.exception))
        self.assertIn("is not a Parquet file", str(failed.exception), "the cause, not Py4J's wrapper")

    def test_broadcast_sources_travel_in_the_plan(self):
        pq.write_table(pa.table({"id": ["P1", "P2"]}), os.path.join(self.data, SOURCE["path"]))
        plan = json.dumps({"format": "tally-plan", "sources": [dict(SOURCE, broadcast=True)]})
        shipped = json.loads(tally_spark.with_broadcast_lines(spark, self.job, plan, [dict(SOURCE, broadcast=True)]))
        self.assertEqual(shipped["sourceLines"], {SOURCE["path"]: [
            SOURCE["columnsLine"] + "1\tid",
            SOURCE["rowLine"] + "0000000000000000000\t" + '{"id":"P1"}',
            SOURCE["rowLine"] + "0000000000000000001\t" + '{"id":"P2"}']})
        self.assertEqual(tally_spark.with_broadcast_lines(spark, self.job, plan, [SOURCE]), plan,
                         "a plan without broadcast sources is shipped as printed")


if __name__ == "__main__":
    unittest.main()
