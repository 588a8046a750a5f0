#!/usr/bin/env bash
# How a month's run grows with history: a shape (studio by default) generated
# with 6, 12, 24 and 36 months of history (`tally generate --months N`: the
# same customers, each month with the volume the shape gives a month; cached
# in bench-data/growth-<shape>-<scale>-<N>/), split into one folder per month
# (scripts/split-months.py, cached beside it in …-<N>-months/), every month
# before the period ingested into a fresh warehouse and the last of them run
# (untimed, as the monthly routine leaves the warehouse), then, timed:
#   - the month's run: the period's folder run into that warehouse;
#   - the from-scratch run: the whole set run into an empty warehouse;
#   - the DuckDB baseline (scripts/duckdb_baseline.py) on the whole set.
# The two runs' CSV reports must be equal (rejects.csv aside, which names the
# month folders' files); a mismatch is reported loudly, and the bench goes on.
# Prints one table, then the month's run's growth from the shortest history
# to the longest. Numbers live here and in the README, never in timed tests.
#   SHAPE=studio|default|skewed|many-couples  SCALE=small|medium|large or a factor of medium such as 0.1
#   (shapes other than default; small by default: medium is
#   ~2.5 GB a 7 months of studio, so ~13 GB at 36, plus as much again split)
#   HISTORIES="6 12 24 36"  BIN=.build/release/tally  DUCKDB=0 skips the baseline
#   MONTH (last month generated) and PERIOD (the month reported) as in scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."

SHAPE=${SHAPE:-studio}
SCALE=${SCALE:-small}
# A number is a factor of the shape's medium size (`tally generate --factor`): 0.1 is ten times small.
case "$SCALE" in
  small|medium|large) size="--scale $SCALE" ;;
  *) [[ "$SCALE" =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "SCALE: '$SCALE' is not small, medium, large or a factor like 0.1" >&2; exit 1; }
     size="--factor $SCALE" ;;
esac
HISTORIES=${HISTORIES:-6 12 24 36}
BIN=${BIN:-.build/release/tally}
DUCKDB=${DUCKDB:-1}
. scripts/bench-common.sh
# The studio shape runs to mid-July and reports June, its last whole month, as scripts/bench.sh does.
if [ "$SHAPE" = studio ]; then MONTH=${MONTH:-2026-07}; PERIOD=${PERIOD:-2026-06}; fi
PERIOD=${PERIOD:-2026-10}
MONTH=${MONTH:-$PERIOD}

[ -x "$BIN" ] || { echo "no tally binary at $BIN (swift build -c release --product tally, or BIN=…)" >&2; exit 1; }
for n in $HISTORIES; do
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le 120 ] || { echo "HISTORIES: '$n' is not 1 to 120 months" >&2; exit 1; }
done
ensure_duckdb

# Everything made for the runs (warehouses, report folders, timings) lives in
# WORK and goes at the end. As in scripts/bench.sh, no report folder is
# deleted between timed runs: on this VM's journal-less ext4, files created
# just after many were deleted cost the run that creates them. The warehouses
# (a few large files each) go as soon as a history is done, for the disk.
WORK=bench-data/growth-work-$$
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK"

# Lines of the data files under a folder: CSV, NDJSON, JSONL and TXT, gzip
# ones unzipped; headers and reference tables included, Apple Health exports not.
lines() {
  local plain gz
  plain=$(find "$1" -type f \( -name '*.csv' -o -name '*.ndjson' -o -name '*.jsonl' -o -name '*.txt' \) -print0 \
    | xargs -0r cat | wc -l)
  gz=$(find "$1" -type f -name '*.gz' -print0 | xargs -0r zcat | wc -l)
  echo $((plain + gz))
}

# Every CSV report of two out folders but rejects.csv: the same files, the same bytes.
same_csvs() {
  local a=$1 b=$2 listed
  listed=$(diff <(cd "$a" && find . -name '*.csv' ! -name rejects.csv | sort) \
                <(cd "$b" && find . -name '*.csv' ! -name rejects.csv | sort)) \
    || { echo "different files: $(echo "$listed" | grep -c '^[<>]')"; return 1; }
  local different=0 file
  while IFS= read -r file; do
    cmp -s "$a/$file" "$b/$file" || { different=$((different + 1)); echo "  differs: $file" >&2; }
  done < <(cd "$a" && find . -name '*.csv' ! -name rejects.csv | sort)
  [ "$different" = 0 ] || { echo "$different CSVs differ"; return 1; }
  echo "equal ($(cd "$a" && find . -name '*.csv' ! -name rejects.csv | wc -l) CSVs)"
}

# The CPU probe before the runs (probe, scripts/bench-common.sh).
probe_before=$(probe)

RESULTS=$WORK/results
: > "$RESULTS"
mismatches=0
for n in $HISTORIES; do
  DATA=bench-data/growth-$SHAPE-$SCALE-$n
  MONTHS=$DATA-months
  if [ ! -f "$DATA/.complete" ]; then
    rm -rf "$DATA" "$MONTHS"
    echo "generating the $SHAPE shape at $SCALE with $n months of history to $MONTH in $DATA (once; cached)…"
    "$BIN" generate --out "$DATA" --shape "$SHAPE" $size --seed 1 --month "$MONTH" --months "$n" 2>/dev/null
    touch "$DATA/.complete"
  fi
  if [ ! -f "$MONTHS/.complete" ]; then
    echo "splitting $DATA into one folder per month in $MONTHS (once; cached)…"
    python3 scripts/split-months.py "$DATA" "$MONTHS" "$PERIOD" > "$WORK/months"
    mv "$WORK/months" "$MONTHS/.months"
    touch "$MONTHS/.complete"
  fi
  months=$(cat "$MONTHS/.months")
  case " $months " in *" $PERIOD "*) ;; *) echo "$MONTHS has no $PERIOD folder (months: $months)" >&2; exit 1;; esac

  # The history: every month before the period, into a fresh warehouse (untimed).
  W=$WORK/$n
  mkdir -p "$W"
  # The last month before the period is run, not only loaded, as the monthly
  # routine leaves the warehouse (with the results it keeps per key).
  earlier=$(scripts/load-history.sh "$BIN" "$MONTHS" "$PERIOD" "$W/months.sqlite" "$W/before-out")
  echo "$n months: $earlier month folders ingested before $PERIOD; timing the month's run, the from-scratch run$([ "$DUCKDB" != 0 ] && echo ", the baseline")…"
  /usr/bin/time -f '%e %M' -o "$W/month.time" \
    "$BIN" run --data "$MONTHS/$PERIOD" --db "$W/months.sqlite" --period "$PERIOD" --out "$W/month-out" --quiet
  /usr/bin/time -f '%e %M' -o "$W/scratch.time" \
    "$BIN" run --data "$DATA" --db "$W/scratch.sqlite" --period "$PERIOD" --out "$W/scratch-out" --quiet
  # The floor under the month's run: the period's reports alone, from the from-scratch
  # warehouse, nothing to load (the results it keeps per key taken, as a month's run takes them).
  /usr/bin/time -f '%e %M' -o "$W/reports.time" \
    "$BIN" report --db "$W/scratch.sqlite" --period "$PERIOD" --out "$W/reports-out" --rebuild-reports --quiet
  # The month's run's stages (run.json), for the table of where its time goes.
  python3 -c 'import json, sys
for s in json.load(open(sys.argv[1]))["stages"]:
    if not s["name"].startswith("ingest "): print(s["name"].replace(" ", "_"), round(s["seconds"], 3))' \
    "$W/month-out/run.json" > "$WORK/stages-$n"
  if ! same=$(same_csvs "$W/month-out" "$W/scratch-out"); then
    echo "!!! $n months: the month's run and the from-scratch run disagree: $same" >&2
    mismatches=$((mismatches + 1))
  fi
  duck="- -"
  if [ "$DUCKDB" != 0 ]; then
    /usr/bin/time -f '%e %M' -o "$W/duckdb.time" \
      python3 scripts/duckdb_baseline.py --data "$DATA" --out "$W/duckdb-out" --period "$PERIOD" 2> "$W/duckdb.log" \
      || { cat "$W/duckdb.log" >&2; exit 1; }
    duck=$(tail -1 "$W/duckdb.time")
  fi
  echo "$n $(lines "$MONTHS/$PERIOD") $(lines "$DATA") $(tail -1 "$W/month.time") $(tail -1 "$W/scratch.time") $duck ${same%% *} $(tail -1 "$W/reports.time")" >> "$RESULTS"
  rm -f "$W"/*.sqlite*
done
probe_after=$(probe)

python3 - "$RESULTS" "$SHAPE" "$SCALE" "$PERIOD" "$probe_before" "$probe_after" "$WORK" <<'PY'
import os, sys
results, shape, scale, period, before, after, work = sys.argv[1:8]
rows = [line.split() for line in open(results) if line.strip()]
print(f"\ntally bench-growth · shape {shape} at {scale} · period {period} · each month the volume the shape gives a month")
print("lines: of the CSV/NDJSON/TXT files (gzip unzipped), headers and reference tables included, Apple Health exports not;")
print("month run: the period's folder into a warehouse holding every earlier month; from scratch: the whole set into an empty one;")
print("reports only: the period's reports from the from-scratch warehouse, nothing to load (the floor under the month's run)\n")
head = ["months of", "lines in", "lines in", "month", "from-", "month /", "reports", "duckdb", "scratch /", "month /", "peak MiB", "CSVs"]
head2 = ["history", "period", "all", "run s", "scratch s", "scratch", "only s", "s", "duckdb", "duckdb", "(month)", "equal"]
widths = [9, 11, 12, 8, 10, 8, 8, 8, 10, 8, 9, 6]
for h in (head, head2):
    print("  ".join(f"{x:>{w}}" for x, w in zip(h, widths)))
for n, period_lines, all_lines, mwall, mrss, swall, srss, dwall, drss, same, rwall, rrss in rows:
    mwall, swall = float(mwall), float(swall)
    duck = dwall != "-"
    cells = [n, f"{int(period_lines):,}", f"{int(all_lines):,}", f"{mwall:.2f}", f"{swall:.2f}",
             f"{mwall / swall * 100:.1f}%" if swall > 0 else "-", f"{float(rwall):.2f}",
             f"{float(dwall):.2f}" if duck else "-",
             f"{swall / float(dwall):.2f}" if duck and float(dwall) > 0 else "-",
             f"{mwall / float(dwall):.2f}" if duck and float(dwall) > 0 else "-",
             f"{int(mrss) / 1024:.1f}", "yes" if same == "equal" else "NO"]
    print("  ".join(f"{x:>{w}}" for x, w in zip(cells, widths)))
if len(rows) > 1:
    first, last = rows[0], rows[-1]
    growth = (float(last[3]) / float(first[3]) - 1) * 100 if float(first[3]) > 0 else float("nan")
    print(f"\nmonth run: {float(first[3]):.2f} s with {first[0]} months of history, {float(last[3]):.2f} s with {last[0]}: "
          f"{growth:+.1f}% (the period's own lines {int(last[1]) / int(first[1]) * 100 - 100:+.1f}%, all lines "
          f"{int(last[2]) / int(first[2]):.1f}×; the reports alone {float(first[10]):.2f} → {float(last[10]):.2f} s)")
# Where the month's run spends its time, stage by stage (stages overlap on the cores: seconds are each
# stage's own wall time, not shares of the run's).
stages = {}
for n, *_ in rows:
    path = os.path.join(work, f"stages-{n}")
    for line in open(path) if os.path.exists(path) else []:
        name, seconds = line.split()
        stages.setdefault(name.replace("_", " "), {})[n] = float(seconds)
if stages:
    print("\nthe month's run by stage, s (each stage's own wall time; stages overlap)")
    print(f"{'stage':<34}" + "".join(f"{n + ' mo':>10}" for n, *_ in rows))
    for name, by in stages.items():
        print(f"{name:<34}" + "".join(f"{by[n]:>10.2f}" if n in by else f"{'-':>10}" for n, *_ in rows))
print(f"cpu probe: {float(before):.2f} s before the runs, {float(after):.2f} s after (a fixed Python loop; ~1.25 s on a quiet host)")
PY
if [ "$mismatches" != 0 ]; then
  echo "!!! $mismatches of the histories gave a month's run whose CSV reports differ from the from-scratch run's" >&2
  exit 1
fi
