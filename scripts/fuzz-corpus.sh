#!/usr/bin/env bash
# Seeds .fuzz/corpus/<target>/ for the fuzz targets named on the command line,
# from sample-data/ cut into small pieces, the hostile fixtures
# (Tests/Fixtures/hostile/) and any committed seeds in fuzz/seeds/<target>/.
# Seeds are named seed-*; what libFuzzer adds to a corpus is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import glob, gzip, hashlib, os, sys

LINES = 12          # data lines per piece (plus the header for CSV)
PIECES = 40         # pieces per sample file at most

def pieces(text, header):
    lines = text.splitlines(keepends=True)
    head, body = (lines[:1], lines[1:]) if header else ([], lines)
    step = max(LINES, len(body) // PIECES + 1)
    for start in range(0, len(body), step):
        yield "".join(head + body[start:start + LINES]).encode()

def sample(*patterns):
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join("sample-data", pattern), recursive=True)):
            data = open(path, "rb").read()
            yield path, gzip.decompress(data) if path.endswith(".gz") else data

def hostile(*suffixes):
    for path in sorted(glob.glob("Tests/Fixtures/hostile/**/*", recursive=True)):
        if os.path.isfile(path) and path.endswith(suffixes) and os.path.getsize(path) <= 65536:
            yield open(path, "rb").read()

def csv_seeds():
    for path, data in sample("**/*.csv", "**/*.csv.gz"):
        yield from pieces(data.decode("utf-8", "replace"), header=True)
    yield from hostile(".csv")

def ndjson_seeds():
    for path, data in sample("**/*.ndjson", "**/*.jsonl", "**/*.ndjson.gz"):
        yield from pieces(data.decode("utf-8", "replace"), header=False)
    yield from hostile(".ndjson", ".jsonl")

def gzip_seeds():
    for i, seed in enumerate(csv_seeds()):
        if i % 3 == 0:
            yield gzip.compress(seed, mtime=0)
    yield gzip.compress(b"id,amount\n1,2\n", mtime=0) + gzip.compress(b"3,4\n", mtime=0)  # two members
    yield from hostile(".gz")

def config_seeds():
    yield from (data for _, data in sample("tally.yml"))
    yield from hostile(".yml", ".yaml")

def value_seeds():
    values = ["1234.56", "-20.00", "7", "12.5", "10.005", "3500.0", "1e400", "92233720368547758.08",
              "-0.01", "+5", "1,5", "2026-10-03", "2026-02-30", "2024-02-29", "0000-01-01",
              "2026-10-03T21:15:00-03:00", "2026-10-03T21:15:00.123Z", "2026-10-03 21:15:00+0000",
              "2026-10-03T21:15:00", "9999-12-31T23:59:59-18:00", "0001-01-01T00:00:00+18:00",
              "m1:60;m2:40", "m1:2;m2:1", "m1:30.00;m2:70.00", "m2", " m1 : 1 ; ; m2:3 "]
    for v in values:
        yield v.encode()
    for path, data in sample("expenses/expenses.csv"):
        for line in data.decode("utf-8", "replace").splitlines()[1:40]:
            for field in line.split(","):
                if field:
                    yield field.encode()

SEEDS = {"FuzzCSV": csv_seeds, "FuzzNDJSON": ndjson_seeds, "FuzzGzip": gzip_seeds,
         "FuzzConfig": config_seeds, "FuzzValues": value_seeds}

for target in sys.argv[1:]:
    folder = os.path.join(".fuzz", "corpus", target)
    os.makedirs(folder, exist_ok=True)
    made = 0
    extra = (open(p, "rb").read() for p in sorted(glob.glob(os.path.join("fuzz", "seeds", target, "*"))))
    for seed in list(SEEDS.get(target, lambda: [])()) + list(extra):
        name = "seed-" + hashlib.sha1(seed).hexdigest()[:16]
        with open(os.path.join(folder, name), "wb") as f:
            f.write(seed)
        made += 1
    print(f"{target}: {made} seeds")
PY
