#!/usr/bin/env bash
# The monthly routine's equivalence test: a data folder split into one folder
# per month (scripts/split-months.py: each log row in its own month, the
# reference tables whole in every month), run month after month as the README
# says (`tally run --data exports/<month> --period <month>`: reports into
# reports/<month>, one warehouse .tally/reports.sqlite), must give, for the
# last month, every report of a from-scratch run on the unsplit folder byte
# for byte, leave every earlier month's folder as its run wrote it, and
# compare each month's figures with the month before's (run.json → changes).
# rejects.csv and run.json name the month folders' files and lines, so they
# are left out of the comparison.
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
months=$(python3 scripts/split-months.py "$DATA" "$work/exports" "$PERIOD")
# Every file of a month's folder with its SHA-256, as its run left it.
digests() { (cd "$work/reports/$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
for month in $months; do
  (cd "$work" && "$TALLY" run --data "exports/$month" --period "$month" --reproducible --quiet) \
    || { echo "incremental test: the run of $month failed" >&2; exit 1; }
  digests "$month" > "$work/$month.sha256"
done
[ -f "$work/.tally/reports.sqlite" ] || { echo "incremental test: no warehouse at .tally/reports.sqlite" >&2; exit 1; }
for month in $months; do
  digests "$month" | cmp -s - "$work/$month.sha256" \
    || { echo "incremental test: reports/$month changed after its own run" >&2; exit 1; }
done

# Each month after the first compares with the month before (run.json → changes).
python3 - "$work/reports" $months <<'PY' || exit 1
import json, sys
root, months = sys.argv[1], sys.argv[2:]
for before, month in zip(months, months[1:]):
    changes = json.load(open(f"{root}/{month}/run.json")).get("changes") or {}
    if changes.get("against") != before:
        sys.exit(f"incremental test: {month}'s run.json compares with {changes.get('against')}, not {before}")
PY

if diff -r -q -x rejects.csv -x run.json "$work/full" "$work/reports/$PERIOD" > "$work/diff"; then
  echo "incremental test: $(echo $months | wc -w) monthly runs into one warehouse give the from-scratch reports of $PERIOD: equal; earlier months' folders untouched"
else
  echo "incremental test: the monthly runs' reports of $PERIOD differ from a from-scratch run:" >&2
  cat "$work/diff" >&2
  exit 1
fi
