#!/usr/bin/env python3
"""A Parquet copy of a data folder, and the check that its reports are the exports' reports.

    parquet_copy.py copy DATA EXPORTS PARQUET LINES.json
    parquet_copy.py compare EXPORTS_OUT PARQUET_OUT LINES.json

`copy` writes two data folders:

- EXPORTS: DATA without the records Parquet cannot hold (a CSV record whose
  fields are not as many as the header's, an NDJSON line that is not one
  JSON object); every other file byte for byte as it is in DATA.
- PARQUET: EXPORTS with each table file (a `.csv`, `.ndjson` or `.jsonl`,
  gzip or not, directly in a dataset folder) as a folder of Parquet parts,
  `<dataset>/<table>/part-0000N.parquet` (two parts for a table of more than
  100 rows) beside Spark's `_SUCCESS`; Apple Health exports, App Store
  reports and `tally.yml` as they are. A CSV column is a string column; an
  NDJSON key whose values are all strings, all integers or all booleans is
  a column of that type, all objects a struct, anything else a string
  column holding the value's JSON text.

LINES.json maps each part to its export file and each row to the line it
is on there. `compare` checks that `tally run` over EXPORTS (EXPORTS_OUT)
and the Spark job over PARQUET (PARQUET_OUT) wrote the same reports: every
file byte for byte but rejects.csv and run.json; rejects.csv with each
part's row numbers turned into the export's lines; run.json with each
part's counts summed into its export's. Prints what differs; exits 1 then.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import shutil
import sys

import pyarrow as pa
import pyarrow.parquet as pq

TABLE_SUFFIXES = (".csv", ".ndjson", ".jsonl", ".csv.gz", ".ndjson.gz", ".jsonl.gz")


def table_stem(name: str):
    """The table a file of a dataset folder holds (`events` for `events.csv.gz`), or None."""
    for suffix in TABLE_SUFFIXES:
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return None


def read_text(path: str) -> bytes:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return f.read()


def write_text(path: str, data: bytes) -> None:
    if path.endswith(".gz"):
        with gzip.open(path, "wb") as f:
            f.write(data)
    else:
        with open(path, "wb") as f:
            f.write(data)


def csv_records(data: bytes):
    """(kept text, [(line, values)], header): the records whose field count is the header's, each with the line it starts on."""
    raw = list(io.StringIO(data.decode("utf-8"), newline=""))  # physical lines, as the csv module reads them
    reader = csv.reader(iter(raw))
    header = next(reader)
    kept = raw[:reader.line_num]
    rows = []
    while True:
        start = reader.line_num
        try:
            values = next(reader)
        except StopIteration:
            break
        if values and len(values) != len(header):
            continue
        if values:  # a blank line is kept, and skipped by tally too
            rows.append((len(kept) + 1, values))
        kept += raw[start:reader.line_num]
    return "".join(kept).encode("utf-8"), rows, [header[0].lstrip("\ufeff")] + header[1:]


def ndjson_records(data: bytes):
    """(kept text, [(line, object)], keys in first-seen order): the lines that are one JSON object."""
    kept, rows, keys = [], [], []
    pieces = data.decode("utf-8").lstrip("\ufeff").split("\n")
    ends_with_line_feed = pieces[-1] == ""
    for raw in pieces[:-1] if ends_with_line_feed else pieces:
        if not raw.strip():  # a blank line is kept, and skipped by tally too
            kept.append(raw)
            continue
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(value, dict):
            continue
        kept.append(raw)
        rows.append((len(kept), value))
        keys += [k for k in value if k not in keys]
    text = "\n".join(kept) + ("\n" if ends_with_line_feed else "")
    if data.startswith(b"\xef\xbb\xbf"):
        text = "\ufeff" + text
    return text.encode("utf-8"), rows, keys


def ndjson_column(values: list):
    """A column for one NDJSON key's values (None where a row lacks it)."""
    present = [v for v in values if v is not None]
    kinds = {type(v) for v in present}
    if kinds <= {str}:
        return pa.array(values, pa.string())
    if kinds == {bool}:
        return pa.array(values, pa.bool_())
    if kinds == {int}:
        return pa.array(values, pa.int64())
    if kinds == {dict}:
        return pa.array(values)
    return pa.array([v if isinstance(v, str) or v is None else json.dumps(v, ensure_ascii=False, separators=(",", ":"))
                     for v in values], pa.string())


def copy(data: str, exports: str, parquet: str, lines_path: str) -> None:
    shutil.copytree(data, exports)
    mapping = {}
    for dataset in sorted(os.listdir(exports)):
        folder = os.path.join(exports, dataset)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            stem = table_stem(name)
            if stem is None or not os.path.isfile(path):
                continue
            original = read_text(path)
            if ".csv" in name.lower():
                kept, rows, header = csv_records(original)
                columns = {h: pa.array([values[i] for _, values in rows], pa.string()) for i, h in enumerate(header)}
            else:
                kept, rows, keys = ndjson_records(original)
                columns = {k: ndjson_column([obj.get(k) for _, obj in rows]) for k in keys}
            if kept != original:
                write_text(path, kept)
            table = pa.table(columns) if columns else pa.table({})
            relative = f"{dataset}/{name}"
            cuts = [0, len(rows) // 2, len(rows)] if len(rows) > 100 else [0, len(rows)]
            for part in range(len(cuts) - 1):
                part_name = f"{dataset}/{stem}/part-{part:05d}.parquet"
                mapping[part_name] = {"file": relative,
                                      "lines": [line for line, _ in rows[cuts[part]:cuts[part + 1]]]}
                mapping[part_name]["table"] = table.slice(cuts[part], cuts[part + 1] - cuts[part])
    shutil.copytree(exports, parquet)
    for part_name, entry in mapping.items():
        os.makedirs(os.path.join(parquet, os.path.dirname(part_name)), exist_ok=True)
        pq.write_table(entry.pop("table"), os.path.join(parquet, part_name))
        export = os.path.join(parquet, entry["file"])
        if os.path.exists(export):
            os.remove(export)
        open(os.path.join(parquet, os.path.dirname(part_name), "_SUCCESS"), "w").close()
    with open(lines_path, "w", encoding="utf-8") as f:
        json.dump(mapping, f, indent=1, sort_keys=True)


def report_files(folder: str) -> list:
    return sorted(os.path.relpath(os.path.join(root, name), folder)
                  for root, _, names in os.walk(folder) for name in names)


def compare(exports_out: str, parquet_out: str, lines_path: str) -> list:
    with open(lines_path, encoding="utf-8") as f:
        mapping = json.load(f)
    problems = []
    files_a, files_b = report_files(exports_out), report_files(parquet_out)
    if files_a != files_b:
        problems.append(f"files differ: only from the exports {sorted(set(files_a) - set(files_b))[:10]}, "
                        f"only from Parquet {sorted(set(files_b) - set(files_a))[:10]}")
    for name in sorted(set(files_a) & set(files_b)):
        if name in ("rejects.csv", "run.json"):
            continue
        with open(os.path.join(exports_out, name), "rb") as a, open(os.path.join(parquet_out, name), "rb") as b:
            if a.read() != b.read():
                problems.append(f"{name} differs")

    def rejects(folder, translate):
        with open(os.path.join(folder, "rejects.csv"), newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        return [rows[0]] + sorted(translate(row) for row in rows[1:])

    def to_export(row):
        entry = mapping.get(row[1])
        if entry is None:
            return row
        line = int(row[2])
        return [row[0], entry["file"], str(entry["lines"][line - 1]) if line >= 1 else row[2]] + row[3:]

    want, got = rejects(exports_out, lambda row: row), rejects(parquet_out, to_export)
    if want != got:
        missing = [r for r in want if r not in got][:5]
        extra = [r for r in got if r not in want][:5]
        problems.append(f"rejects.csv differs: only from the exports {missing}, only from Parquet {extra}")

    with open(os.path.join(exports_out, "run.json"), encoding="utf-8") as f:
        run_a = json.load(f)
    with open(os.path.join(parquet_out, "run.json"), encoding="utf-8") as f:
        run_b = json.load(f)
    counts = ("rowsRead", "rowsRejected", "rowsSuperseded", "rowsUsed")
    summed = {}
    for item in run_b["inputs"]:
        path = mapping.get(item["path"], {}).get("file", item["path"])
        into = summed.setdefault(path, {"path": path, **{c: 0 for c in counts}, "unknownFields": [], "refused": []})
        for c in counts:
            into[c] += item.get(c, 0)
        into["unknownFields"] += [u for u in item.get("unknownFields", []) if u not in into["unknownFields"]]
    for item in run_a["inputs"]:
        mine = summed.get(item["path"])
        if mine is None or any(mine[c] != item.get(c, 0) for c in counts) \
                or sorted(mine["unknownFields"]) != sorted(item.get("unknownFields", [])):
            problems.append(f"run.json inputs: {item['path']} counted {dict((c, item.get(c)) for c in counts)} "
                            f"from the export, {mine and dict((c, mine[c]) for c in counts)} from its parts")
    if set(summed) != {item["path"] for item in run_a["inputs"]}:
        problems.append(f"run.json inputs: files {sorted(set(summed) ^ {item['path'] for item in run_a['inputs']})}")
    for key in sorted(set(run_a) | set(run_b)):
        if key in ("inputs", "ignored", "checks"):
            continue
        if run_a.get(key) != run_b.get(key):
            problems.append(f"run.json {key} differs")
    checks = lambda run: [(c["name"], c["passed"], c["detail"] if not c["name"].startswith("inputs:") else "")
                          for c in run["checks"]]
    if checks(run_a) != checks(run_b):
        problems.append("run.json checks differ")
    return problems


def main(argv) -> int:
    if len(argv) == 5 and argv[0] == "copy":
        copy(*argv[1:])
        return 0
    if len(argv) == 4 and argv[0] == "compare":
        problems = compare(*argv[1:])
        for problem in problems:
            print(f"  {problem}")
        return 1 if problems else 0
    print(__doc__.strip().splitlines()[2:4], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
