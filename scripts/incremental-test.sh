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

# The month's reports against the from-scratch run's: every file byte for
# byte, but for what only a month's run can say: a couple's opening balance
# restated against the closing it was sent, and KPI months restated since
# the last run (text sections left out before comparing; a workbook that
# holds one is checked to exist). rejects.csv and run.json name the month
# folders' files, so they are left out.
python3 - "$work/full" "$work/reports/$PERIOD" <<'PY' || exit 1
import os, sys
full, month = sys.argv[1], sys.argv[2]
HEADINGS = ("Saldo de abertura revisto", "Opening balance restated", "Saldo inicial revisado", "Restated since the last run")

def without_restated(text):
    """The text without its restated sections: a heading and the indented or blank lines under it."""
    out, lines, i, found = [], text.split("\n"), 0, False
    while i < len(lines):
        if lines[i].startswith(HEADINGS):
            found = True
            i += 1
            while i < len(lines) and (lines[i].startswith(" ") or lines[i] == ""):
                i += 1
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out), found

files = sorted(os.path.relpath(os.path.join(d, f), full) for d, _, fs in os.walk(full) for f in fs)
mine = sorted(os.path.relpath(os.path.join(d, f), month) for d, _, fs in os.walk(month) for f in fs)
problems, restated = [], []
if files != mine:
    problems.append(f"the file lists differ: {sorted(set(files) ^ set(mine))}")
for path in files:
    if path in ("rejects.csv", "run.json") or path not in mine:
        continue
    a, b = (open(os.path.join(root, path), "rb").read() for root in (full, month))
    if path.endswith(".xlsx"):
        text = os.path.join(month, path[:-5] + ".txt")
        if os.path.exists(text) and without_restated(open(text, encoding="utf-8").read())[1]:
            continue   # a workbook with a restated section: its text is compared
    elif path.endswith(".txt"):
        b_text, found = without_restated(b.decode("utf-8"))
        if found:
            restated.append(path)
            b = b_text.encode("utf-8")
    if a != b:
        problems.append(f"{path} differs")
if problems:
    sys.exit("incremental test: the monthly runs' reports differ from a from-scratch run:\n  " + "\n  ".join(problems))
print(f"incremental test: equal to the from-scratch reports but for {len(restated)} restated sections ({', '.join(restated[:4])}{'…' if len(restated) > 4 else ''})")
PY
echo "incremental test: $(echo $months | wc -w) monthly runs into one warehouse give the from-scratch reports of $PERIOD; earlier months' folders untouched"
