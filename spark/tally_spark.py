#!/usr/bin/env python3
"""Runs tally on Apache Spark: Spark moves lines, tally computes.

The driver holds no business rule. It asks `tally plan` for the ordered stage
names and the first stage's input lines, then for each stage it partitions the
stage's input lines by key, sorts each partition's lines as bytes (which keeps
each key's lines together), pipes every partition through `tally worker STAGE
--plan PLAN.json`, and routes each output
line `DEST<TAB>KEY<TAB>REST` to the later stage DEST (or to `merge`) as
`KEY<TAB>REST`. After the last stage, every line routed to `merge` goes to one
`tally merge --plan PLAN.json --out OUT` on the driver machine, which writes the
out folder exactly as `tally run` would. docs/scale-out.md describes the design
and the protocol.

Locally (what `make spark` runs):

    python spark/tally_spark.py --tally .build/release/tally --data sample-data \\
        --out /tmp/out --period 2026-10 --partitions 3 --master 'local[2]' --reproducible

On a cluster, spark-submit gives the master:

    spark-submit spark/tally_spark.py --tally /opt/tally/bin/tally --data /shared/data ...

Two wirings, with the same results and about the same CPU:
  transform  Spark SQL `SELECT TRANSFORM(line) USING 'tally worker …'` (default):
             needs only bash and coreutils on the executors.
  arrow      `DataFrame.mapInArrow` starting the worker from Python per partition,
             lines crossing as Arrow batches; the one that works on Spark Connect
             (no RDDs, no TRANSFORM there). Needs pyarrow on the executors.
"""

from __future__ import annotations

import argparse
import atexit
import dataclasses
import functools
import hashlib
import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
import warnings
from typing import Iterator, Optional, Sequence

#: The pseudo-stage every line bound for `tally merge` is routed to.
MERGE = "merge"

#: Prefix of every message the driver itself raises, so it can find its own
#: message inside Spark's wrapped exceptions.
MARK = "tally-spark:"

#: Bytes of a worker's output the arrow wiring reads, checks and hands back to Spark at a time.
ARROW_READ_BYTES = 4 << 20


class JobFailed(Exception):
    """The job failed; the message names the stage and, for a worker, the partition.

    `status` is the exit status the driver ends with: `tally merge`'s own when
    it fails (3 and 65 mean reports were written, as with `tally run`), else 1.
    """

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


@dataclasses.dataclass(frozen=True)
class Job:
    """One run of the pipeline: what to run it on and how to wire it."""

    tally: str
    data: str
    out: str
    period: str
    partitions: int = 3
    wiring: str = "transform"
    timezone: Optional[str] = None
    config: Optional[str] = None
    reproducible: bool = False
    tally_archive: Optional[str] = None
    ship: bool = True
    extra_env: tuple = ()
    checkpoint_dir: Optional[str] = None


# --------------------------------------------------------------------------
# Environment, plan and shipping
# --------------------------------------------------------------------------


def worker_env(job: Job, lib_dir: Optional[str] = None) -> dict:
    """The whole environment of every tally process (plan, workers, merge).

    TRANSFORM and RDD.pipe start children with whatever the executor has (or
    nothing at all), so the driver passes a fixed, small environment instead
    of inheriting one. Example: `{"PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}`.
    """
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    if lib_dir:
        env["LD_LIBRARY_PATH"] = lib_dir
    for item in job.extra_env:
        name, _, value = item.partition("=")
        env[name] = value
    return env


def local_path(value: str, what: str) -> str:
    """The absolute path of `value`, a path or a `file:` URI (`file:///srv/data`, `file:/srv/data`).

    `tally plan` and `tally merge` run on the driver machine and open the
    data folder and the out folder as files, and so do the workers on the
    executors: a store without a file system mount (`s3a://`, `hdfs://`, …)
    is refused here with a message, before anything starts.
    """
    parts = urllib.parse.urlsplit(value)
    if parts.scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise JobFailed(f"{MARK} {what} {value}: a file: URI names no host (file:///path)")
        return os.path.abspath(urllib.parse.unquote(parts.path))
    if len(parts.scheme) > 1:
        raise JobFailed(f"{MARK} {what} {value}: tally reads and writes {parts.scheme}: storage only through a "
                        f"file system mount on the driver and every executor; give its path there, or a file:// URI "
                        f"(docs/scale-out.md, \"Storage\")")
    return os.path.abspath(value)


def on_driver(job: Job) -> Job:
    """`job` with its data folder, out folder and configuration as absolute local paths (`local_path`)."""
    return dataclasses.replace(job, data=local_path(job.data, "--data"), out=local_path(job.out, "--out"),
                               config=job.config and local_path(job.config, "--config"))


def plan_command(job: Job, tally: str) -> list:
    """`tally plan …` with the job's options.

    The plan names the out folder too: workers may write the per-couple and
    per-challenge files there (a staging folder `tally merge` publishes), so
    on a cluster it is on storage every executor reaches.
    """
    cmd = [tally, "plan", "--data", job.data, "--period", job.period, "--out", job.out]
    for flag, value in (("--timezone", job.timezone), ("--config", job.config)):
        if value:
            cmd += [flag, value]
    return cmd


def read_plan(job: Job, tally: str, env: dict) -> tuple:
    """Runs `tally plan` on the driver; returns (plan text, waves, tasks, key prefix bytes, sources).

    Only `stages`, `waves`, `tasks`, `keyPrefixBytes` and `sources` are
    read; every other field is the workers'. A wave is a list of stages that
    take input only from earlier waves: one pass of the engine runs them all
    (`tally worker a,b,c`). A plan without `waves` runs one stage per pass;
    one without `keyPrefixBytes` is partitioned by whole keys. `sources` are
    the files Spark reads itself (`source_lines`).
    """
    done = subprocess.run(plan_command(job, tally), env=env, capture_output=True)
    if done.returncode != 0:
        raise JobFailed(f"{MARK} tally plan exited with status {done.returncode}: "
                        f"{done.stderr.decode('utf-8', 'replace').strip()}")
    text = done.stdout.decode("utf-8")
    plan = json.loads(text)
    stages, tasks = plan.get("stages"), plan.get("tasks")
    if (plan.get("format") != "tally-plan" or not isinstance(stages, list) or not stages
            or not all(isinstance(s, str) and s and s.isprintable() and "\t" not in s for s in stages)
            or len(set(stages)) != len(stages) or MERGE in stages
            or not isinstance(tasks, list) or not all(isinstance(t, str) for t in tasks)):
        raise JobFailed(f"{MARK} tally plan printed no usable plan (format, stages or tasks)")
    if any("\n" in t or "\r" in t for t in tasks):
        raise JobFailed(f"{MARK} tally plan printed a task with a line break")
    waves = plan.get("waves") or [[stage] for stage in stages]
    if (not isinstance(waves, list) or not all(isinstance(w, list) and w for w in waves)
            or [s for w in waves for s in w] != stages):
        raise JobFailed(f"{MARK} tally plan printed waves that are not its stages in order")
    prefix = plan.get("keyPrefixBytes")
    if prefix is not None and (not isinstance(prefix, int) or isinstance(prefix, bool) or prefix < 1):
        raise JobFailed(f"{MARK} tally plan printed a keyPrefixBytes that is not a positive number")
    if prefix and not all(t[:prefix].isascii() and len(t.split("\t", 1)[0]) >= prefix for t in tasks):
        raise JobFailed(f"{MARK} tally plan printed a task whose key is not {prefix} ASCII bytes or longer")
    sources = plan.get("sources") or []
    fields = ("path", "format", "columnsLine", "rowLine")
    if (not isinstance(sources, list)
            or not all(isinstance(s, dict) and all(isinstance(s.get(f), str) and s.get(f) for f in fields)
                       and s["format"] == "parquet" and not os.path.isabs(s["path"])
                       and ".." not in s["path"].split("/")
                       and not any(c in s[line] for c in "\n\r" for line in ("columnsLine", "rowLine"))
                       and s["columnsLine"].endswith("\t") and s["rowLine"].endswith("\t")
                       and isinstance(s.get("broadcast", False), bool)
                       and (not prefix or all(len(s[line].split("\t", 1)[0]) >= prefix and s[line][:prefix].isascii()
                                               for line in ("columnsLine", "rowLine")))
                       for s in sources)):
        raise JobFailed(f"{MARK} tally plan printed sources that are not Parquet files of the data folder "
                        f"with the starts of their lines")
    return text, waves, tasks, prefix, sources


#: How a Parquet row's values become JSON text: instants in UTC with a `Z`
#: and microseconds, local date-times without an offset (which the rows'
#: rules then refuse as they refuse such text in an export), dates as
#: `yyyy-MM-dd`, a null value absent.
SOURCE_JSON_OPTIONS = {
    "timestampFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX",
    "timestampNTZFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSSSS",
    "dateFormat": "yyyy-MM-dd",
    "timeZone": "UTC",
    "ignoreNullFields": "true",
}


def wire_escape(text: str) -> str:
    """`text` as a wire field: `\\` doubled, TAB, LF and CR as `\\t`, `\\n`, `\\r`."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def with_broadcast_lines(spark, job: Job, plan_text: str, sources: Sequence[dict]) -> str:
    """The plan to ship: `plan_text` with the lines of its `broadcast` sources in `sourceLines`.

    Every stage instance reads those files whole (small reference tables:
    fx rates, products); a worker cannot read Parquet, so the lines it
    would read them from travel in the plan, collected on the driver.
    A plan without such sources is shipped as `tally plan` printed it.
    """
    broadcast = [source for source in sources if source.get("broadcast") is True]
    if not broadcast:
        return plan_text
    plan = json.loads(plan_text)
    plan["sourceLines"] = {source["path"]: sorted(row.line for frame in source_lines(spark, job, [source])
                                                  for row in frame.collect())
                           for source in broadcast}
    return json.dumps(plan, ensure_ascii=False)


def source_lines(spark, job: Job, sources: Sequence[dict]) -> list:
    """The decode stage's lines of the files Spark reads itself (the plan's `sources`: Parquet parts).

    Per file: one line listing its columns (the plan's `columnsLine`, then
    the number of columns and each name, each after a TAB, escaped as wire
    fields), and one line per row (`rowLine`, then the row's index in the
    file, zero-padded to 19 digits, a TAB, and the row as one JSON object).
    Those lines carry the file's key, so they reach the worker that runs
    its task, in the file's row order. The driver only turns values into
    text: every rule runs in the worker, which reads the rows as it reads
    an NDJSON export. A decimal is written without the zeros its column's
    scale adds (a `decimal(18,2)` 3500.00 yen is `3500`, which the amount's
    rule reads as it reads an export's `3500`); a floating-point value as
    Java prints it (`1.0E7`); other values as `SOURCE_JSON_OPTIONS` says.

    Example line (file 6, row 0): `Yfp-4Hq5file\\t6<TAB>flow.v2<TAB>source-row<TAB>0000000000000000000<TAB>{"id":"E1",…}`.
    """
    from pyspark.sql import functions as F
    from pyspark.sql.types import DecimalType

    if not sources:
        return []
    frames = []
    columns = []
    for source in sources:
        uri = file_uri(os.path.join(job.data, source["path"]))
        try:
            rows = spark.read.parquet(uri)
            names = rows.columns
        except Exception as error:  # Spark raises its analysis and IO errors in several types
            raise JobFailed(f"{MARK} {source['path']} cannot be read as Parquet: {root_cause(error)}") from None
        columns.append((source["columnsLine"] + "\t".join([str(len(names))] + [wire_escape(n) for n in names]),))

        def text(field):
            column = rows[field.name]
            if isinstance(field.dataType, DecimalType):
                return F.regexp_replace(column.cast("string"), r"(\.[0-9]*[1-9])0+$|\.0+$", "$1").alias(field.name)
            return column

        row = F.to_json(F.struct(*[text(field) for field in rows.schema.fields]), SOURCE_JSON_OPTIONS)
        frames.append(rows.select(F.concat(
            F.lit(source["rowLine"]), F.lpad(F.col("_metadata.row_index").cast("string"), 19, "0"), F.lit("\t"),
            F.replace(row, F.lit("\\"), F.lit("\\\\"))).alias("line")))
    return [spark.createDataFrame(columns, "line string")] + frames


@dataclasses.dataclass(frozen=True)
class Shipped:
    """Where the worker binary, its libraries and the plan are on the executors.

    `tally`, `plan` and `lib` are names of shipped files (under `root`, or
    `SparkFiles.getRootDirectory()` in the arrow wiring's Python);
    `root` is the directory TRANSFORM's shell finds them in: the driver's
    SparkFiles directory in local mode, the executor's working directory
    (`$PWD`, where Spark fetches added files) on a cluster. When nothing is
    shipped (a container image holding tally), the paths are used as given.
    """

    tally: str
    plan: str
    lib: Optional[str]
    shipped: bool
    root: str

    def path(self, name: str, root: Optional[str] = None) -> str:
        return os.path.join(root or self.root, name) if self.shipped else name


_added: set = set()


def _content_name(path: str, prefix: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return f"{prefix}-{digest.hexdigest()[:16]}{''.join(_suffixes(path))}"


def _suffixes(path: str) -> list:
    name = os.path.basename(path)
    for ext in (".tar.gz", ".tgz", ".zip", ".tar", ".json"):
        if name.endswith(ext):
            return [ext]
    return []


def is_connect(spark) -> bool:
    """Whether `spark` is a Spark Connect session (no SparkContext, no RDDs)."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def ship(spark, job: Job, plan_path: str) -> Shipped:
    """Sends the plan and the binary (or an archive of it) to every executor.

    A classic session ships with `sparkContext.addFile`/`addArchive`; a Spark
    Connect session with `addArtifacts` (found with `SparkFiles.get` in the
    arrow wiring's Python). Files go under content-addressed names, so one
    session can run several plans or binaries.
    """
    from pyspark import SparkFiles

    if is_connect(spark):
        if job.wiring != "arrow":
            raise JobFailed(f"{MARK} Spark Connect has no SparkContext to ship files for TRANSFORM's script: "
                            f"use --wiring arrow")
        root = ""
    else:
        root = SparkFiles.getRootDirectory() if spark.sparkContext.master.startswith("local") else "$PWD"
    plan_name = _add(spark, plan_path, "tally-plan")
    if not job.ship:
        return Shipped(tally=os.path.abspath(job.tally) if os.sep in job.tally else job.tally,
                       plan=plan_name, lib=None, shipped=False, root=root)
    if job.tally_archive:
        archive = _add(spark, job.tally_archive, "tally-archive", archive=True)
        return Shipped(tally=os.path.join(archive, "bin", "tally"), plan=plan_name,
                       lib=os.path.join(archive, "lib"), shipped=True, root=root)
    return Shipped(tally=_add(spark, job.tally, "tally"), plan=plan_name, lib=None, shipped=True, root=root)


def _add(spark, path: str, prefix: str, archive: bool = False) -> str:
    """Ships a copy of `path` once per session; returns its name on the executors.

    The copies live as long as this process: Spark serves added files from
    the driver's path whenever an executor (a new one too) fetches them.
    """
    name = _content_name(path, prefix)
    session_key = spark.session_id if is_connect(spark) else spark.sparkContext.applicationId
    if (session_key, name) not in _added:
        copy = os.path.join(_shipping_dir(), name)
        shutil.copy2(path, copy)
        if is_connect(spark):
            spark.addArtifacts(copy, archive=archive, file=not archive)
        else:
            (spark.sparkContext.addArchive if archive else spark.sparkContext.addFile)(copy)
        _added.add((session_key, name))
    return name


@functools.lru_cache(maxsize=None)
def _shipping_dir() -> str:
    path = tempfile.mkdtemp(prefix="tally-spark-ship-")
    atexit.register(shutil.rmtree, path, True)
    return path


# --------------------------------------------------------------------------
# Partitioning and the two wirings
# --------------------------------------------------------------------------


def partitioned(lines_df, partitions: int, prefix_bytes: Optional[int] = None):
    """Hash-partitions lines by key and sorts each partition's lines as bytes.

    The key is the line up to its first TAB (the whole line when it has
    none). A plan that gives `keyPrefixBytes` N promises that lines of one
    key share their first N bytes and that those bytes spread the keys: the
    lines are partitioned by them, a fixed-width substring, instead of by
    the key found by searching for the TAB. Sorting whole lines keeps each
    key's lines together (a key's lines share the key and the TAB after it).
    The UTF8_BINARY collation orders strings by their UTF-8 bytes, unsigned,
    whatever the session's default collation, and compares them in place.
    """
    from pyspark.sql import functions as F

    line = F.col("line")
    if prefix_bytes:
        # The prefix is ASCII (the plan says so): N characters are N bytes.
        key = F.substring(line, 1, prefix_bytes)
    else:
        key = F.substring_index(line, "\t", 1)
    return (lines_df.repartition(partitions, key)
            .sortWithinPartitions(F.collate(line, "UTF8_BINARY")))


#: The DEST of the one line TRANSFORM's script prints when the worker fails:
#: `\x01exit<TAB>STATUS<TAB>STDERR`, so the failure is reported with the
#: partition it happened in (a control byte no stage name may hold).
FAILED = "\x01exit"


def _transform_script(stage: str, shipped: Shipped, env: dict) -> str:
    """The bash script TRANSFORM runs per partition.

    The worker gets exactly `env`. When it exits non-zero, the script drains
    its stdin and prints one `FAILED` line carrying the status and the end of
    the worker's stderr, which `validated` turns into an error naming the
    stage and the partition (Spark's own error for a non-zero exit names
    neither). The worker's stderr also goes to the executor's log.
    """
    root = shipped.root
    quoted_root = '"$PWD"' if root == "$PWD" else shlex.quote(root)

    def at(name: str) -> str:
        if not shipped.shipped:
            return shlex.quote(name)
        return f"{quoted_root}/{shlex.quote(name)}"

    assignments = [shlex.quote(f"{k}={v}") for k, v in sorted(env.items()) if k != "LD_LIBRARY_PATH"]
    if shipped.lib:
        assignments.append(f"LD_LIBRARY_PATH={at(shipped.lib)}")
    plan = f"{quoted_root}/{shlex.quote(shipped.plan)}"
    worker = f"env -i {' '.join(assignments)} {at(shipped.tally)} worker {shlex.quote(stage)} --plan {plan}"
    return ('err=$(mktemp "${TMPDIR:-/tmp}/tally-worker.XXXXXX") || exit 70; '
            + worker + ' 2>"$err"; rc=$?; cat "$err" >&2; '
            + 'if [ $rc -ne 0 ]; then cat >/dev/null; printf \'\\001exit\\t%d\\t\' "$rc"; '
            + 'tail -c 4000 "$err" | tr \'\\t\\n\\r\' \'   \'; printf \'\\n\'; fi; rm -f "$err"; exit 0')


def _sql_string(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def run_transform(spark, lines_df, stage: str, shipped: Shipped, env: dict, view: str):
    """Pipes each partition through the worker with Spark SQL TRANSFORM.

    Both row formats use LF as the field delimiter: an input line is written
    as it is, and an output line comes back as one column, whole, whatever
    TABs or `\\N` it holds (the default format would split it on TABs).
    """
    lines_df.createOrReplaceTempView(view)
    fmt = "ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\n' LINES TERMINATED BY '\\n'"
    script = _sql_string(_transform_script(stage, shipped, env))
    return spark.sql(f"SELECT TRANSFORM(line) {fmt} USING {script} AS (out STRING) {fmt} FROM {view}")


def validated(out_df, stage: str, allowed: Sequence[str]):
    """Splits worker output into (dest, line), failing the job on garbage.

    A line without a TAB, or whose DEST is neither a later stage nor `merge`,
    raises an error naming the stage and the partition, and so does the
    `FAILED` line of a worker that exited non-zero.
    """
    from pyspark.sql import functions as F

    out = F.col("out")
    tab = F.instr(out, "\t")
    dest = F.substring_index(out, "\t", 1)
    where = F.concat(F.lit(f"{MARK} stage '{stage}', partition "), F.spark_partition_id().cast("string"))
    shown = F.substring(F.coalesce(out, F.lit("\\N")), 1, 200)
    failed = F.split(out, "\t", 3)
    checked = (F.when(dest == FAILED,
                      F.raise_error(F.concat(where, F.lit(": the worker exited with status "), failed[1],
                                             F.lit(": "), F.trim(failed[2]))))
               .when(out.isNull() | (tab == 0),
                      F.raise_error(F.concat(where, F.lit(": the worker printed a line without a TAB: "), shown)))
               .when(~dest.isin(list(allowed)),
                     F.raise_error(F.concat(where, F.lit(": the worker routed a line to '"), dest,
                                            F.lit(f"', which is not one of {', '.join(allowed)}: "), shown)))
               .otherwise(dest))
    return out_df.select(checked.alias("dest"), F.expr("substr(out, instr(out, '\t') + 1)").alias("line"))


def arrow_worker(stage: str, allowed: Sequence[str], shipped: Shipped, env: dict):
    """The mapInArrow function: one worker process per non-empty partition.

    The partition's lines are spooled to a local file, the worker reads it on
    stdin, and its stdout is checked and turned into (dest, line) batches.
    An empty partition starts no worker, as TRANSFORM does. Lines never pass
    through Python one by one: a batch's lines are joined into one buffer,
    and the worker's output is split into lines and fields by Arrow's
    compute kernels, a few MiB at a time.
    """
    allowed_list = list(allowed)

    def run(batches: Iterator) -> Iterator:
        import pyarrow as pa
        import pyarrow.compute as pc
        from pyspark import SparkFiles, TaskContext

        partition = TaskContext.get().partitionId()
        where = f"{MARK} stage '{stage}', partition {partition}"
        root = SparkFiles.getRootDirectory()
        allowed_set = pa.array(allowed_list, pa.string())

        def checked(block: bytes):
            """The (dest, line) batch of `block`, whole lines each ending in LF."""
            try:
                text = pa.array([block], pa.large_binary()).cast(pa.large_string())
            except pa.ArrowInvalid:
                bad = next(line for line in block.split(b"\n") if not _is_utf8(line))
                raise JobFailed(f"{where}: the worker printed a line that is not UTF-8: {bad[:200]!r}") from None
            lines = pc.split_pattern(text, "\n").flatten()
            lines = lines.slice(0, len(lines) - 1)   # not the empty string after the last LF
            fields = pc.split_pattern(lines, "\t", max_splits=1)
            untabbed = pc.less(pc.list_value_length(fields), 2)
            if pc.any(untabbed).as_py():
                shown = lines.filter(untabbed)[0].as_py()
                raise JobFailed(f"{where}: the worker printed a line without a TAB: {shown[:200]}")
            dests = pc.list_element(fields, 0)
            unknown = pc.invert(pc.is_in(dests, value_set=allowed_set))
            if pc.any(unknown).as_py():
                dest, shown = dests.filter(unknown)[0].as_py(), lines.filter(unknown)[0].as_py()
                raise JobFailed(f"{where}: the worker routed a line to '{dest}', which is not one of "
                                f"{', '.join(allowed_list)}: {shown[:200]}")
            return pa.RecordBatch.from_arrays([dests.cast(pa.string()), pc.list_element(fields, 1).cast(pa.string())],
                                              names=["dest", "line"])

        with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stderr:
            count = 0
            for batch in batches:
                lines = batch.column(0)
                if len(lines):
                    joined = pc.binary_join(pa.ListArray.from_arrays(pa.array([0, len(lines)], pa.int32()), lines), "\n")
                    stdin.write(joined[0].as_buffer())
                    stdin.write(b"\n")
                    count += len(lines)
            if count == 0:
                return
            stdin.seek(0)
            proc_env = dict(env)
            if shipped.lib:
                proc_env["LD_LIBRARY_PATH"] = shipped.path(shipped.lib, root)
            cmd = [shipped.path(shipped.tally, root), "worker", stage,
                   "--plan", os.path.join(root, shipped.plan)]
            proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=stderr, env=proc_env)
            try:
                pending = b""
                while True:
                    chunk = proc.stdout.read(ARROW_READ_BYTES)
                    if not chunk:
                        break
                    end = chunk.rfind(b"\n")
                    if end < 0:
                        pending += chunk
                        continue
                    block, pending = pending + chunk[:end + 1], chunk[end + 1:]
                    yield checked(block)
                if pending:
                    yield checked(pending + b"\n")
                status = proc.wait()
            except BaseException:
                # A check failed, or Spark stopped reading (a cancelled task): the worker goes too.
                proc.kill()
                proc.wait()
                raise
            finally:
                proc.stdout.close()
            if status != 0:
                stderr.seek(0)
                reason = stderr.read()[-4096:].decode("utf-8", "replace").strip()
                raise JobFailed(f"{where}: the worker exited with status {status}: {reason}")

    return run


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


# --------------------------------------------------------------------------
# Failures
# --------------------------------------------------------------------------

_LOST_TASK = re.compile(r"Lost task (\d+)\.\d+ in stage")
_EXITED = re.compile(r"Subprocess exited with status (-?\d+)\. Error: (.*?)(?:\n\s+at |\Z)", re.S)
_OWN = re.compile(re.escape(MARK) + r"[^\n]*")


def root_cause(error: BaseException) -> str:
    """The innermost cause's message in a (Java) error's text, without its exception class.

    `root_cause(error)` → `file:/srv/x.parquet is not a Parquet file. Expected magic number at tail, …`
    """
    text = str(error)
    causes = re.findall(r"^\s*Caused by: [\w.$]+: (.+)$", text, re.MULTILINE)
    if causes:
        return causes[-1].strip()
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("at ")]
    return next((line for line in lines if "Exception:" in line or "Error:" in line), lines[0] if lines else
                type(error).__name__)


def explain(error: BaseException, stage: str) -> str:
    """Turns a Spark failure of one stage into one message naming the partition.

    The driver's own checks carry their message (stage and partition in it);
    a TRANSFORM worker's non-zero exit is reported by Spark as a lost task,
    whose index is the partition number of the stage's shuffle.
    """
    text = str(error)
    own = _OWN.search(text)
    if own:
        return own.group(0).strip()
    exited = _EXITED.search(text)
    if exited:
        task = _LOST_TASK.search(text)
        partition = task.group(1) if task else "?"
        reason = exited.group(2).strip().rstrip(".").strip()
        return (f"{MARK} stage '{stage}', partition {partition}: the worker exited with status "
                f"{exited.group(1)}{': ' + reason if reason else ''}")
    return f"{MARK} stage '{stage}' failed: {root_cause(error)}"


# --------------------------------------------------------------------------
# The job
# --------------------------------------------------------------------------


def session(master: Optional[str] = None, shuffle_partitions: int = 8, remote: Optional[str] = None,
            conf: Sequence[str] = ()):
    """A Spark session with the settings tally's driver relies on.

    Local masters bind to 127.0.0.1 (Spark otherwise picks a non-loopback
    address), the UI is off, adaptive execution is off (so a stage has exactly
    the partitions asked for), and a worker lingering after closing its stdout
    is waited for before its exit status is read. With `remote` (a Spark
    Connect URL, `sc://host:15002`, or `local[2]` for a local Connect server)
    the session is a Spark Connect one, where only the arrow wiring runs.
    `conf` (`KEY=VALUE` items, as spark-submit's `--conf`) comes last and
    overrides any of these, the local JVM's options too.
    """
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder_master = master
    if (master or remote or "").startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    builder = (SparkSession.builder.appName("tally")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.adaptive.enabled", "false")
               .config("spark.sql.shuffle.partitions", str(shuffle_partitions))
               .config("spark.sql.scriptTransformation.exitTimeoutInSeconds", "3600")
               .config("spark.sql.warehouse.dir", os.path.join(tempfile.gettempdir(), "tally-spark-warehouse")))
    if remote:
        builder = builder.remote(remote)
    elif builder_master:
        builder = builder.master(builder_master)
    if (builder_master or remote or "").startswith("local"):
        # Local runs are short: the JIT's quick tier and the serial collector
        # start faster and spend less CPU than the server defaults.
        builder = (builder.config("spark.driver.bindAddress", "127.0.0.1")
                   .config("spark.driver.host", "127.0.0.1")
                   .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"))
    for item in conf:
        key, _, value = item.partition("=")
        builder = builder.config(key, value)
    with warnings.catch_warnings():
        # A Connect client also tries to set the static options the local
        # server already started with, and warns that it cannot.
        warnings.filterwarnings("ignore", message="Failed to set spark", category=UserWarning)
        spark = builder.getOrCreate()
    if not is_connect(spark):
        spark.sparkContext.setLogLevel("ERROR")
    return spark


def run_job(spark, job: Job, log=None) -> dict:
    """Runs the whole pipeline once; returns per-stage line counts and seconds.

    Raises JobFailed naming the stage (and the partition, for a worker) on any
    failure; the out folder is written by `tally merge` only when every stage
    succeeded.
    """
    from pyspark.sql import functions as F

    if job.wiring not in ("transform", "arrow"):
        raise ValueError(f"unknown wiring {job.wiring!r}")
    job = on_driver(job)
    log = log or (lambda message: None)
    # Stages repartition by key to job.partitions themselves; the only other
    # shuffle is the per-DEST count on Spark Connect, for which one partition
    # is plenty.
    spark.conf.set("spark.sql.shuffle.partitions", "1")
    # A pass is written as one Parquet folder per DEST: with a writer open per
    # DEST (a pass has a dozen at most), Spark writes the lines as they come
    # instead of sorting them by DEST first.
    spark.conf.set("spark.sql.maxConcurrentOutputFileWriters", "64")
    # A line may be a batch of one key's records (up to 64 KiB): Parquet's
    # vectorized reader holds a whole batch of rows in one buffer, and Arrow
    # a whole record batch, so both take 512 lines at a time (32 MiB at
    # most) instead of 4,096 or 10,000.
    spark.conf.set("spark.sql.parquet.columnarReaderBatchSize", "512")
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "512")
    scratch = tempfile.mkdtemp(prefix="tally-spark-")
    store = None
    try:
        _ship_module(spark)
        env = worker_env(job)
        plan_text, waves, tasks, prefix_bytes, sources = read_plan(job, job.tally, env)
        plan_text = with_broadcast_lines(spark, job, plan_text, sources)
        store = StageStore.open(spark, job, log)
        stages = [stage for wave in waves for stage in wave]
        plan_path = os.path.join(scratch, "plan.json")
        with open(plan_path, "w", encoding="utf-8") as f:
            f.write(plan_text)
        shipped = ship(spark, job, plan_path)
        # Each wave's input: per earlier pass, one filter of that pass's kept
        # lines for all of the wave's stages (one scan of it, not one per stage).
        inputs = [[] for _ in waves]
        inputs[0].append(spark.createDataFrame([(t,) for t in tasks], "line string"))
        inputs[0] += source_lines(spark, job, sources)
        merged = []
        report = {"stages": []}
        for index, wave in enumerate(waves):
            started = time.monotonic()
            stage = ",".join(wave)
            later_stages = [later for w in waves[index + 1:] for later in w]
            allowed = later_stages + [MERGE]
            wave_inputs = inputs[index]
            if not wave_inputs:
                continue
            stage_input = partitioned(functools.reduce(lambda a, b: a.unionByName(b), wave_inputs), job.partitions,
                                      prefix_bytes)
            if job.wiring == "transform":
                view = f"tally_{stage_id(stage)}_{os.getpid()}_{next(_views)}"
                out = validated(run_transform(spark, stage_input, stage, shipped, env, view), stage, allowed)
            else:
                out = stage_input.mapInArrow(arrow_worker(stage, allowed, shipped, env), "dest string, line string")
            try:
                kept, counts = store.keep(out, allowed)
            except Exception as error:  # Spark wraps worker failures in several exception types
                raise JobFailed(explain(error, stage)) from None
            for later_index in range(index + 1, len(waves)):
                dests = [later for later in waves[later_index] if counts.get(later)]
                if dests:
                    inputs[later_index].append(kept(dests))
            if counts.get(MERGE):
                merged.append(kept([MERGE]))
            seconds = time.monotonic() - started
            report["stages"].append({"stage": stage, "out": counts, "seconds": seconds})
            log(f"stage {stage}: {sum(counts.values())} lines out {dict(sorted(counts.items()))} in {seconds:.2f} s")
        started = time.monotonic()
        # toLocalIterator runs one job per partition and holds one partition
        # (two, prefetching the next) at a time on the driver: as many
        # partitions as the stages had.
        merge_lines = functools.reduce(lambda a, b: a.unionByName(b), merged or [spark.createDataFrame([], "line string")])
        merge_lines = merge_lines.coalesce(job.partitions)
        merge(job, merge_lines, plan_path, env)
        report["merge_seconds"] = time.monotonic() - started
        log(f"merge: {report['merge_seconds']:.2f} s")
        store.published = True
        return report
    finally:
        if store:
            store.close()
        shutil.rmtree(scratch, ignore_errors=True)


_views = itertools.count()

#: The out folder's staging area: workers stage each couple's and challenge's
#: files there, `tally plan` clears it and `tally merge` removes it once the
#: reports are published.
STAGING = ".tally-parts"


class StageStore:
    """Where a pass's output lines are kept until the passes after it have read them.

    A pass runs at once (so its failures carry its name) and its output is
    kept under a fresh plan: later passes read it without re-planning (a DAG
    spelt as a tree of unions grows exponentially with the passes) and
    without running it again.

    In a classic session each pass's lines are written as Parquet, one
    folder per DEST (`pass-3/dest=swipePairs/…`), under `--checkpoint-dir`
    (by default `OUT/.tally-parts/spark-checkpoints`), on storage every
    executor and the driver reach: an executor lost later takes nothing
    with it, and a later pass reads only its own stages' folders, not every
    line of the pass. A Spark Connect session, which has no file system API
    to remove them with, keeps the lines as checkpoints: reliable ones in
    the server's `spark.checkpoint.dir`, or, when it has none, local ones in
    the executors' block managers, where losing an executor fails the job.

    `close()` removes the job's kept passes and the out folder's staging
    area, and, unless the reports were published (`published`), the out
    folder itself when the job made it: a failed job leaves the out folder
    as it found it.
    """

    def __init__(self, spark, job: "Job", where: Optional[str], reliable: bool, out_existed: bool):
        self.spark, self.job, self.where, self.reliable = spark, job, where, reliable
        self.out_existed = out_existed
        self.published = False
        self.passes = 0

    @classmethod
    def open(cls, spark, job: "Job", log) -> "StageStore":
        out_existed = os.path.isdir(job.out)
        if is_connect(spark):
            reliable = bool(spark.conf.get("spark.checkpoint.dir", None))
            if not reliable:
                log("the Connect server has no spark.checkpoint.dir: passes are kept as local "
                    "checkpoints, and a lost executor fails the job")
            return cls(spark, job, where=None, reliable=reliable, out_existed=out_existed)
        base = job.checkpoint_dir or join_uri(file_uri(job.out), STAGING, "spark-checkpoints")
        # A folder of this job's own under `base`.
        return cls(spark, job, where=join_uri(base, f"tally-{uuid.uuid4()}"), reliable=True, out_existed=out_existed)

    def keep(self, df, dests: Sequence[str]) -> tuple:
        """Runs a pass's output `df` (columns `dest`, `line`) and keeps it.

        Returns (lines, counts): `lines(dests)` is a DataFrame of the kept
        lines (column `line`) routed to any of `dests`; `counts` the lines
        per DEST (those with none left out). The counts are observed metrics
        of the job that writes the pass, so counting costs no job of its own
        (a Spark Connect session counts its checkpoints with one more job).
        """
        from pyspark.sql import Observation
        from pyspark.sql import functions as F

        self.passes += 1
        observation = None
        if not is_connect(self.spark):
            observation = Observation(f"tally-pass-{next(_views)}")
            df = df.observe(observation, *[F.count_if(F.col("dest") == d).alias(d) for d in dests])
        if self.where is None:
            kept = df.checkpoint(eager=True) if self.reliable else df.localCheckpoint(eager=True)
            counts = {row["dest"]: row["n"] for row in kept.groupBy("dest").agg(F.count("*").alias("n")).collect()}

            def lines(wanted):
                return kept.where(F.col("dest").isin(list(wanted))).select("line")
        else:
            folder = join_uri(self.where, f"pass-{self.passes}")
            df.write.partitionBy("dest").parquet(folder)
            counts = observation.get

            def lines(wanted):
                return (self.spark.read.schema("line string, dest string").parquet(folder)
                        .where(F.col("dest").isin(list(wanted))).select("line"))
        return lines, {dest: n for dest, n in counts.items() if n}

    def close(self) -> None:
        # The kept passes may be on any store; the out folder is a path on the driver.
        if self.where:
            hadoop_delete(self.spark, self.where)
        shutil.rmtree(os.path.join(self.job.out, STAGING), ignore_errors=True)
        if not self.published and not self.out_existed:
            try:
                os.rmdir(self.job.out)   # only when empty: never anything but what this job made
            except OSError:
                pass


def file_uri(path: str) -> str:
    """`path` (absolute) as Hadoop names a local file: `file://` and the path as it is.

    Not `pathlib`'s `as_uri()`: Hadoop's `Path` encodes what it is given,
    so `%20` would name a file called `%20`. A bare path would be resolved
    against the cluster's default file system (HDFS on YARN), not the
    driver's disk.
    """
    return "file://" + path


def join_uri(base: str, *names: str) -> str:
    """`base` (a path or a URI) with `names` appended, one slash between each."""
    return "/".join([base.rstrip("/")] + list(names))


def hadoop_delete(spark, uri: str) -> None:
    """Removes `uri` and everything under it, through the Hadoop FileSystem API (any scheme it has a connector for)."""
    path = spark.sparkContext._jvm.org.apache.hadoop.fs.Path(uri)
    path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).delete(path, True)


def stage_id(stage: str) -> str:
    """A SQL-identifier-safe form of a stage name."""
    return re.sub(r"[^A-Za-z0-9_]", "_", stage) + "_" + hashlib.sha256(stage.encode()).hexdigest()[:6]


def merge(job: Job, lines_df, plan_path: str, env: dict) -> None:
    """Streams every line routed to `merge` into one `tally merge` on the driver."""
    cmd = [job.tally, "merge", "--plan", plan_path, "--out", job.out]
    if job.reproducible:
        cmd.append("--reproducible")
    with tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=stderr, env=env)
        try:
            for row in lines_df.toLocalIterator(prefetchPartitions=True):
                proc.stdin.write(row["line"].encode("utf-8") + b"\n")
            proc.stdin.close()
        except BrokenPipeError:
            pass
        status = proc.wait()
        if status != 0:
            stderr.seek(0)
            reason = stderr.read()[-4096:].decode("utf-8", "replace").strip()
            raise JobFailed(f"{MARK} tally merge exited with status {status}: {reason}", status)


def _ship_module(spark) -> None:
    """Lets executors' Python run the arrow wiring's function without importing this file.

    Run as a script, the function travels by value anyway; imported (by the
    tests, or by another program), this module's functions are pickled by
    value too, so no executor needs the file on its path.
    """
    if __name__ != "__main__":
        from pyspark import cloudpickle

        cloudpickle.register_pickle_by_value(sys.modules[__name__])


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def parse(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="tally_spark.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--tally", default="tally", help="the tally binary (shipped to executors unless --no-ship)")
    p.add_argument("--tally-archive", help="a .tar.gz holding bin/tally and lib/ (its shared libraries), "
                                           "shipped with addArchive instead of the bare binary")
    p.add_argument("--no-ship", action="store_true",
                   help="ship nothing: --tally is a path that exists on every executor (a container image)")
    p.add_argument("--data", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--period", required=True)
    p.add_argument("--timezone")
    p.add_argument("--config")
    p.add_argument("--partitions", default="3",
                   help="shuffle partitions; a comma list (1,3,7) runs once per count in one session, "
                        "writing OUT/p<N>")
    p.add_argument("--wiring", choices=("transform", "arrow"), default="transform")
    p.add_argument("--master", help="the Spark master (spark-submit gives it on a cluster)")
    p.add_argument("--remote", help="a Spark Connect URL (sc://host:port; local[N] starts a local server): "
                                    "needs --wiring arrow")
    p.add_argument("--reproducible", action="store_true")
    p.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                   help="a Spark setting for the session, as spark-submit's --conf (repeatable); it overrides "
                        "the driver's own, such as the local JVM's quick-start options")
    p.add_argument("--checkpoint-dir", metavar="URI",
                   help="where each pass's lines are kept (Parquet, a folder per DEST), on storage every executor "
                        "reaches (default: OUT/.tally-parts/spark-checkpoints); removed when the job ends")
    p.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                   help="one more variable for every tally process (repeatable)")
    return p.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    counts = [int(n) for n in args.partitions.split(",")]
    if any(n < 1 for n in counts):
        print(f"{MARK} --partitions must be positive", file=sys.stderr)
        return 2
    log = functools.partial(print, MARK, file=sys.stderr)
    started = time.monotonic()
    spark = session(args.master, shuffle_partitions=max(counts), remote=args.remote, conf=args.conf)
    log(f"session started in {time.monotonic() - started:.2f} s")
    try:
        for n in counts:
            out = args.out if len(counts) == 1 else os.path.join(args.out, f"p{n}")
            job = Job(tally=args.tally, data=args.data, out=out, period=args.period, partitions=n,
                      wiring=args.wiring, timezone=args.timezone, config=args.config,
                      reproducible=args.reproducible, tally_archive=args.tally_archive, ship=not args.no_ship,
                      extra_env=tuple(args.env), checkpoint_dir=args.checkpoint_dir)
            started = time.monotonic()
            run_job(spark, job, log)
            log(f"{n} partition(s), {args.wiring}: {out} written in {time.monotonic() - started:.2f} s")
    except JobFailed as failure:
        print(failure, file=sys.stderr)
        return failure.status
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
