#!/usr/bin/env python3
"""A stand-in for tally that obeys the worker protocol (docs/scale-out.md).

It runs a small job of three stages over the lines of DATA/tasks.txt (each
`DOC<TAB>TEXT`), so the Spark driver and the scripts can be tested without tally:

  split  a task `DOC<TAB>w1 w2 …` routes `count<TAB>WORD<TAB>1` per word and
         `merge<TAB>doc:DOC<TAB>N` (its word count); a task whose key starts
         with `echo` is routed unchanged to `keep`; the key `env` reports the
         worker's environment to `merge`.
  count  sums the words of each key: `merge<TAB>WORD<TAB>TOTAL`.
  keep   routes every line unchanged to `merge` (a second shuffle, byte for byte).

Every stage checks that its stdin is sorted by key bytes (so each key's lines
are together) and exits 4 otherwise. DATA/fault.json, when present, makes one
stage misbehave at one key: {"stage": "count", "key": "boom", "kind": "exit"}
(exit 3), "notab" (a line without a TAB), "baddest" (an unknown DEST),
"backdest" (DEST an earlier stage), "early" (exit 3 before reading stdin).

`merge` writes OUT/merged.txt (its stdin, lines sorted bytewise) and
`run` computes the same file in one process, as `tally run` would.
"""

import json
import os
import sys

STAGES = ["split", "count", "keep"]


def arg(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def key_of(line: bytes) -> bytes:
    return line.split(b"\t", 1)[0]


def read_tasks(data: str) -> list:
    with open(os.path.join(data, "tasks.txt"), "rb") as f:
        return [line.decode("utf-8") for line in f.read().split(b"\n") if line]


def read_fault(data: str) -> dict:
    path = os.path.join(data, "fault.json")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def plan(argv):
    data, out = os.path.abspath(arg(argv, "--data")), arg(argv, "--out")
    if out is None or not os.path.isabs(out):
        print("fake plan: --out, an absolute path, is required", file=sys.stderr)
        sys.exit(64)
    print(json.dumps({"format": "tally-plan", "version": 1, "stages": STAGES, "tasks": read_tasks(data),
                      "data": data, "period": arg(argv, "--period"), "fault": read_fault(data),
                      "timezone": arg(argv, "--timezone"), "out": out}, ensure_ascii=False))


def split(lines: list, emit) -> None:
    for line in lines:
        key, _, text = line.partition(b"\t")
        if key.startswith(b"echo"):
            emit(b"keep\t" + line)
        elif key == b"env":
            emit(b"merge\tenv\t" + " ".join(sorted(f"{k}={v}" for k, v in os.environ.items()
                                                  if k not in ("PWD", "SHLVL", "_"))).encode())
        else:
            words = [w for w in text.split(b" ") if w]
            for word in words:
                emit(b"count\t" + word + b"\t1")
            emit(b"merge\tdoc:" + key + b"\t" + str(len(words)).encode())


def count(lines: list, emit) -> None:
    totals = {}
    for line in lines:
        key, _, rest = line.partition(b"\t")
        totals[key] = totals.get(key, 0) + int(rest)
    for key, total in totals.items():
        emit(b"merge\t" + key + b"\t" + str(total).encode())


def keep(lines: list, emit) -> None:
    for line in lines:
        emit(b"merge\t" + line)


STEPS = {"split": split, "count": count, "keep": keep}


def worker(argv):
    stage = argv[0]
    with open(arg(argv, "--plan"), encoding="utf-8") as f:
        fault = json.load(f).get("fault") or {}
    mine = fault.get("stage") == stage
    if mine and fault.get("kind") == "early":
        print(f"fake worker: stage {stage} gave up before reading", file=sys.stderr)
        sys.exit(3)
    lines = [line for line in sys.stdin.buffer.read().split(b"\n") if line]
    keys = [key_of(line) for line in lines]
    # Sorted as whole lines sort: each key compared with the TAB after it.
    if [k + b"\t" for k in keys] != sorted(k + b"\t" for k in keys):
        print(f"fake worker: stage {stage} got lines not sorted by key bytes", file=sys.stderr)
        sys.exit(4)
    out = sys.stdout.buffer
    if mine and fault.get("key", "").encode() in keys:
        kind, key = fault["kind"], fault["key"]
        if kind == "exit":
            print(f"fake worker: boom at key {key}", file=sys.stderr)
            sys.exit(3)
        out.write({"notab": b"a line without any tab\n",
                   "baddest": b"nowhere\t" + key.encode() + b"\tx\n",
                   "backdest": b"split\t" + key.encode() + b"\tx\n"}[kind])
    STEPS[stage](lines, lambda line: out.write(line + b"\n"))


def write_out(out: str, lines: list) -> None:
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "merged.txt"), "wb") as f:
        f.write(b"".join(line + b"\n" for line in sorted(lines)))


def merge(argv):
    with open(arg(argv, "--plan"), encoding="utf-8") as f:
        planned = json.load(f)["out"]
    out = arg(argv, "--out", planned)
    if os.path.abspath(out) != planned:
        print(f"fake merge: --out {out} is not the plan's {planned}", file=sys.stderr)
        sys.exit(64)
    write_out(out, [line for line in sys.stdin.buffer.read().split(b"\n") if line])


def run(argv):
    """The single-process reference: every stage on all its lines at once."""
    inputs = {stage: [] for stage in STAGES + ["merge"]}
    inputs["split"] = [t.encode("utf-8") for t in read_tasks(arg(argv, "--data"))]
    for stage in STAGES:
        routed = []
        STEPS[stage](sorted(inputs[stage], key=key_of), routed.append)
        for line in routed:
            dest, _, rest = line.partition(b"\t")
            inputs[dest.decode()].append(rest)
    write_out(arg(argv, "--out"), inputs["merge"])


if __name__ == "__main__":
    command, rest = sys.argv[1], sys.argv[2:]
    {"plan": plan, "worker": worker, "merge": merge, "run": run}[command](rest)
