#!/usr/bin/env bash
# Loads the months before PERIOD into a warehouse as the monthly routine
# leaves it: every month folder of MONTHS before PERIOD ingested, the last of
# them run (its reports into OUT_BEFORE), so the warehouse holds the results
# a run keeps per key. Used by scripts/bench.sh and scripts/bench-growth.sh.
# Prints how many month folders it loaded.
#   scripts/load-history.sh BIN MONTHS PERIOD DB OUT_BEFORE
set -euo pipefail
BIN=$1 MONTHS=$2 PERIOD=$3 DB=$4 OUT_BEFORE=$5
months=$(cat "$MONTHS/.months")
before=$(echo "$months" | tr ' ' '\n' | grep -v "^$PERIOD$" | tail -1)
loaded=0
for month in $months; do
  [ "$month" = "$PERIOD" ] && continue
  if [ "$month" = "$before" ]; then
    "$BIN" run --data "$MONTHS/$month" --db "$DB" --period "$month" --out "$OUT_BEFORE" --quiet
  else
    "$BIN" ingest --data "$MONTHS/$month" --db "$DB" --out "$OUT_BEFORE" --quiet
  fi
  loaded=$((loaded + 1))
done
echo "$loaded"
