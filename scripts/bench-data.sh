#!/usr/bin/env bash
# Generates a bench data set once: bench-data/<shape>-<scale>/ (cached; a
# `.complete` marker says it is whole). Used by `make bench` and `make bench-spark`.
#   scripts/bench-data.sh SHAPE SCALE MONTH [TALLY]
set -euo pipefail
SHAPE=$1 SCALE=$2 MONTH=$3
BIN=${4:-.build/release/tally}
DATA=bench-data/$SHAPE-$SCALE
if [ ! -f "$DATA/.complete" ]; then
  rm -rf "$DATA"
  echo "generating the $SHAPE shape at $SCALE in $DATA (once; cached)…"
  start=$(date +%s.%N)
  "$BIN" generate --out "$DATA" --shape "$SHAPE" --scale "$SCALE" --seed 1 --month "$MONTH" 2>/dev/null
  echo "generated in $(echo "$(date +%s.%N) - $start" | bc) s"
  touch "$DATA/.complete"
fi
