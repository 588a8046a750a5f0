#!/usr/bin/env bash
# The monthly routine's equivalence test: a data folder split into one folder
# per month (scripts/split-months.py: each log row in its own month, the
# reference tables whole in every month), run month after month into one
# warehouse (`tally run --db`), must give, for the last month, every report
# of a from-scratch run on the unsplit folder byte for byte. rejects.csv and
# run.json name the month folders' files and lines, so they are left out.
#   scripts/incremental-test.sh [TALLY]     TALLY defaults to .build/release/tally
# Environment: DATA (sample-data), PERIOD (2026-10), KEEP=1 keeps the work folder.
set -euo pipefail
cd "$(dirname "$0")/.."

TALLY=$(realpath "${1:-.build/release/tally}")
DATA=${DATA:-sample-data}
PERIOD=${PERIOD:-2026-10}
KEEP=${KEEP:-0}

work=$(mktemp -d "${TMPDIR:-/tmp}/tally-incremental-test.XXXXXX")
if [ "$KEEP" = 1 ]; then echo "work folder (kept): $work"; else trap 'rm -rf "$work"' EXIT; fi

"$TALLY" run --data "$DATA" --out "$work/full" --db "$work/full.sqlite" --period "$PERIOD" --reproducible --quiet
months=$(python3 scripts/split-months.py "$DATA" "$work/months" "$PERIOD")
for month in $months; do
  "$TALLY" run --data "$work/months/$month" --out "$work/monthly" --db "$work/monthly.sqlite" \
    --period "$month" --reproducible --quiet \
    || { echo "incremental test: the run of $month failed" >&2; exit 1; }
done

if diff -r -q -x rejects.csv -x run.json "$work/full" "$work/monthly" > "$work/diff"; then
  echo "incremental test: $(echo $months | wc -w) monthly runs into one warehouse give the from-scratch reports of $PERIOD: equal"
else
  echo "incremental test: the monthly runs' reports of $PERIOD differ from a from-scratch run:" >&2
  cat "$work/diff" >&2
  exit 1
fi
