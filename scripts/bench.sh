#!/usr/bin/env bash
# make bench: generates a data set of a shape once (cached in
# bench-data/<shape>-<scale>/), runs the whole pipeline on it twice (from
# scratch, then again on unchanged inputs), then the DuckDB baseline
# (scripts/duckdb_baseline.py) on the same files, and prints per-stage
# throughput, wall times, peak memory and tally's time as a ratio to DuckDB's.
# Numbers live here and in the README, never in timed tests.
# Then the monthly routine: the set split into one folder per month
# (scripts/split-months.py, cached in bench-data/<shape>-<scale>-months/),
# every month before the period ingested into a fresh warehouse and the last
# of them run (untimed), then the period's folder run into it, timed: a
# month's run with history, as the monthly routine leaves the warehouse.
#   SHAPE=default|studio|skewed|many-couples  SCALE=small|medium|large  DUCKDB=0 skips the baseline
#   INCREMENTAL=0 skips the monthly routine; WORKBOOKS=0 skips the couple-workbook pass
set -euo pipefail
cd "$(dirname "$0")/.."

SHAPE=${SHAPE:-default}
SCALE=${SCALE:-medium}
# The studio shape runs January to mid-July and reports June, as the studio's own set.
if [ "$SHAPE" = studio ]; then MONTH=${MONTH:-2026-07}; PERIOD=${PERIOD:-2026-06}; fi
PERIOD=${PERIOD:-2026-10}
MONTH=${MONTH:-$PERIOD}
DUCKDB=${DUCKDB:-1}
INCREMENTAL=${INCREMENTAL:-1}
WORKBOOKS=${WORKBOOKS:-1}
. scripts/bench-common.sh
BIN=.build/release/tally
DATA=bench-data/$SHAPE-$SCALE
OUT=bench-data/out-$SHAPE-$SCALE
DUCK_OUT=bench-data/duckdb-out-$SHAPE-$SCALE
# The warehouse, outside the reports (as tally's default), fresh for every bench.
WAREHOUSE=bench-data/warehouse-$SHAPE-$SCALE
MONTHS=bench-data/$SHAPE-$SCALE-months

scripts/bench-data.sh "$SHAPE" "$SCALE" "$MONTH" "$BIN"
ensure_duckdb

# The floor: reading every input byte once (warm page cache, as the runs see it).
cat $(find "$DATA" -type f ! -name .complete) > /dev/null
start=$(date +%s.%N)
cat $(find "$DATA" -type f ! -name .complete) > /dev/null
floor=$(echo "$(date +%s.%N) - $start" | bc)

# The CPU probe before the runs (probe, scripts/bench-common.sh).
probe_before=$(probe)

# Outputs of earlier runs are moved aside (discard) and deleted once every
# tally run is timed, not before: on a journal-less ext4 (this VM's),
# creating a file scans past every inode freed in the last one to five
# minutes (the kernel's recently_deleted check). Deleting ~11,000 report
# files just before a run measured as 3–5 s of kernel time billed to the
# run's own file creation; 800,000 (the many-couples shape's two out
# folders) made the month's run that followed spend minutes creating files.
TRASH=bench-data/trash-$$
trap 'rm -rf "$TRASH"' EXIT
discard() {
  for old in "$@"; do
    if [ -e "$old" ]; then mkdir -p "$TRASH"; mv "$old" "$TRASH/$(basename "$old")-$RANDOM"; fi
  done
}
discard "$OUT" "$WAREHOUSE"
/usr/bin/time -f '%e %M' -o "$OUT.time1" "$BIN" run --data "$DATA" --out "$OUT" --db "$WAREHOUSE/tally.sqlite" --period "$PERIOD" --quiet
cp "$OUT/run.json" "$OUT.run1.json"
/usr/bin/time -f '%e %M' -o "$OUT.time2" "$BIN" run --data "$DATA" --out "$OUT" --db "$WAREHOUSE/tally.sqlite" --period "$PERIOD" --quiet
cp "$OUT/run.json" "$OUT.run2.json"

# The floor under any run of the period: its reports computed and written
# again from the warehouse as it stands (`tally report --rebuild-reports`),
# with no row to load or derive and the results kept per key taken as a
# month's run takes them. A month's run pays this whatever its data.
/usr/bin/time -f '%e %M' -o "$OUT.time-reports" "$BIN" report --db "$WAREHOUSE/tally.sqlite" --out "$OUT-reports" \
  --period "$PERIOD" --rebuild-reports --quiet
cp "$OUT-reports/run.json" "$OUT.run-reports.json"
discard "$OUT-reports"

# Couple workbooks (statements.coupleWorkbooks) are off in the runs above, as
# in tally's defaults: a third run writes the reports again from the same
# warehouse with them on, to price them per couple.
rm -f "$OUT.run3.json" "$OUT.time3"
if [ "$WORKBOOKS" != 0 ]; then
  workbooks_config="$OUT.couple-workbooks.yml"
  printf 'statements:\n  coupleWorkbooks: true\n' > "$workbooks_config"
  /usr/bin/time -f '%e %M' -o "$OUT.time3" "$BIN" report --db "$WAREHOUSE/tally.sqlite" --out "$OUT-workbooks" \
    --period "$PERIOD" --config "$workbooks_config" --rebuild-reports --quiet
  cp "$OUT-workbooks/run.json" "$OUT.run3.json"
fi

discard "$OUT-workbooks"

rm -f "$OUT.time-incremental" "$OUT.incremental-same"
if [ "$INCREMENTAL" != 0 ]; then
  if [ ! -f "$MONTHS/.complete" ]; then
    echo "splitting $DATA into one folder per month in $MONTHS (once; cached)…"
    months=$(python3 scripts/split-months.py "$DATA" "$MONTHS" "$PERIOD")
    echo "$months" > "$MONTHS/.months"
    touch "$MONTHS/.complete"
  fi
  discard "$WAREHOUSE-months" "$OUT-incremental" "$OUT-before"
  mkdir -p "$WAREHOUSE-months"
  # Every month before the period's is loaded, and the last of them run, as
  # the monthly routine leaves the warehouse (with the results it keeps per key).
  scripts/load-history.sh "$BIN" "$MONTHS" "$PERIOD" "$WAREHOUSE-months/tally.sqlite" "$OUT-before" > /dev/null
  /usr/bin/time -f '%e %M' -o "$OUT.time-incremental" "$BIN" run --data "$MONTHS/$PERIOD" --out "$OUT-incremental" \
    --db "$WAREHOUSE-months/tally.sqlite" --period "$PERIOD" --quiet
  cp "$OUT-incremental/run.json" "$OUT.run-incremental.json"
  # Every CSV report but rejects.csv (which names the month folders' files) equals the full run's.
  if diff -r -q -x '*.xlsx' -x '*.txt' -x '*.json' -x rejects.csv "$OUT" "$OUT-incremental" > "$OUT.incremental-diff"; then
    echo "equal" > "$OUT.incremental-same"
  else
    echo "DIFFERENT ($(wc -l < "$OUT.incremental-diff") files: $OUT.incremental-diff)" > "$OUT.incremental-same"
  fi
  discard "$WAREHOUSE-months" "$OUT-incremental" "$OUT-before"
fi

# Every tally run is timed: what was set aside goes now, and is flushed, so
# the inodes it frees are older than the kernel's window by the next bench.
rm -rf "$TRASH"
sync

# The baseline: the same contract CSVs from the same files, with plain SQL.
rm -f "$OUT.duckdb-time"
if [ "$DUCKDB" != 0 ]; then
  rm -rf "$DUCK_OUT"
  /usr/bin/time -f '%e %M' -o "$OUT.duckdb-time" \
    python3 scripts/duckdb_baseline.py --data "$DATA" --out "$DUCK_OUT" --period "$PERIOD" 2> "$OUT.duckdb-log" \
    || { cat "$OUT.duckdb-log" >&2; exit 1; }
fi
probe_after=$(probe)
if [ "$DUCKDB" != 0 ]; then
  echo "agreement of the baseline with tally (Apple Health exports are not read by the baseline):"
  python3 scripts/duckdb_baseline.py --compare "$OUT" "$DUCK_OUT" || true
fi

python3 - "$OUT" "$floor" "$DATA" "$probe_before" "$probe_after" "$SHAPE" <<'PY'
import json, os, sys
out, floor, data = sys.argv[1], float(sys.argv[2]), sys.argv[3]
shape = sys.argv[6]
run1 = json.load(open(out + ".run1.json"))
wall1, rss1 = open(out + ".time1").read().split()[-2:]
wall2, rss2 = open(out + ".time2").read().split()[-2:]
total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(data) for f in fs)
print(f"\ntally bench · shape {shape} · {os.cpu_count()} cores · {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB · input {total / 2**20:.0f} MiB in {data}")
print(f"{'stage':44} {'rows':>12} {'MB':>9} {'seconds':>8} {'rows/s':>12} {'MB/s':>8}")
for s in run1["stages"]:
    rows, secs, mb = s.get("rows") or 0, s["seconds"], (s.get("bytes") or 0) / 2**20
    rate = f"{rows / secs:12,.0f}" if secs > 0 and rows else f"{'':12}"
    mbs = f"{mb / secs:8.1f}" if secs > 0 and mb else f"{'':8}"
    print(f"{s['name'][:44]:44} {rows:12,} {mb:9.1f} {secs:8.2f} {rate} {mbs}")
w1 = float(wall1)
stage = lambda run, name: next((s for s in run["stages"] if s["name"] == name), None)
print(f"\nfull run:        {w1:7.2f} s wall, peak RSS {int(rss1) / 1024:7.1f} MiB")
print(f"unchanged rerun: {float(wall2):7.2f} s wall, peak RSS {int(rss2) / 1024:7.1f} MiB ({float(wall2) / w1 * 100:.1f}% of the full run)")
wallr, rssr = open(out + ".time-reports").read().split()[-2:]
reports = json.load(open(out + ".run-reports.json"))
print(f"reports only:    {float(wallr):7.2f} s wall, peak RSS {int(rssr) / 1024:7.1f} MiB ({float(wallr) / w1 * 100:.1f}% of the full run;"
      " the period's reports from the warehouse, nothing to load: the floor under a month's run)")
print("                 by stage: " + ", ".join(f"{s['name']} {s['seconds']:.2f} s" for s in reports["stages"] if not s["name"].startswith("ingest")))
print(f"cat floor:       {floor:7.2f} s to read every input byte; the full run takes {w1 / max(floor, 1e-9):.1f}× that")
if os.path.exists(out + ".duckdb-time"):
    dwall, drss = open(out + ".duckdb-time").read().split()[-2:]
    stages = open(out + ".duckdb-log").read().strip().splitlines()[-1]
    print(f"duckdb baseline: {float(dwall):7.2f} s wall, peak RSS {int(drss) / 1024:7.1f} MiB ({stages})")
    print(f"ratio:           tally / duckdb = {w1 / float(dwall):.2f} (full run against the baseline, same data, same run;"
          " the baseline writes no rejects, XLSX or text: docs/performance.md)")
if os.path.exists(out + ".time-incremental"):
    iwall, irss = open(out + ".time-incremental").read().split()[-2:]
    inc = json.load(open(out + ".run-incremental.json"))
    slow = sorted(inc["stages"], key=lambda s: -s["seconds"])[:4]
    print(f"incremental:     {float(iwall):7.2f} s wall, peak RSS {int(irss) / 1024:7.1f} MiB for the period's month with the earlier"
          f" months in the warehouse ({float(iwall) / w1 * 100:.1f}% of the full run"
          + (f"; tally incremental / duckdb = {float(iwall) / float(dwall):.2f}" if os.path.exists(out + ".duckdb-time") else "")
          + f"); CSV reports vs the full run: {open(out + '.incremental-same').read().strip()}")
    print("                 its longest stages: " + ", ".join(f"{s['name']} {s['seconds']:.2f} s" for s in slow))
    period_rows, all_rows = stage(inc, "ingest")["rows"], stage(run1, "ingest")["rows"]
    print(f"                 it loads {period_rows:,} rows against the full run's {all_rows:,} ({period_rows / all_rows * 100:.1f}%:"
          " reference tables come whole each month, and rows dated after the period go with it)")
run3 = json.load(open(out + ".run3.json")) if os.path.exists(out + ".run3.json") else {"stages": []}
wall3, rss3 = open(out + ".time3").read().split()[-2:] if os.path.exists(out + ".time3") else ("0", "0")
books = stage(run3, "statements: couple workbooks (thread time)")
with_books, without = stage(run3, "statements"), stage(run1, "statements")
if books and books.get("rows"):
    print(f"couple workbooks: {books['rows']:,} written, {books['seconds'] / books['rows'] * 1000:.2f} ms each (thread time, "
          f"{books['seconds']:.2f} s in all); statements stage {with_books['seconds']:.2f} s with them, "
          f"{without['seconds']:.2f} s without; reports-only run {float(wall3):.2f} s, peak RSS {int(rss3) / 1024:.1f} MiB")
print(f"cpu probe:       {float(sys.argv[4]):7.2f} s before the runs, {float(sys.argv[5]):.2f} s after (a fixed Python loop; ~1.25 s on a quiet host)")
PY
