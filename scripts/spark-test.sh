#!/usr/bin/env bash
# The Spark path's equivalence test: every file `TALLY run --reproducible`
# writes must come out byte for byte the same
#   1. from the no-engine chain (scripts/stage-chain.sh: sort and pipes), and
#   2. from the Spark driver (spark/tally_spark.py) in local[2], with 1, 3 and
#      7 shuffle partitions in one Spark session, with each wiring;
# and 3. the Spark driver over a Parquet copy of DATA (every table a folder of
#      Parquet parts, spark/tests/parquet_copy.py) writes what `TALLY run`
#      writes over the same rows as exports: rejects.csv with each part's
#      rows numbered as the export's lines, run.json with the parts' counts
#      summed per export (the rows Parquet cannot hold, a CSV record with too
#      many fields, are left out of both).
# A reproducible run.json holds no timings, so it is compared whole too.
#   scripts/spark-test.sh [TALLY]      TALLY defaults to .build/release/tally;
#   any program obeying the worker protocol stands in (spark/tests/fake_tally.py).
# Environment: DATA (sample-data), PERIOD (2026-10), PARTITIONS (1,3,7),
# WIRING (arrow, transform, or "arrow transform": both, the default),
# SPARK_PYTHON (.tally/spark-venv/bin/python, where `make spark-deps` installs
# pyspark), SPARK=0 runs the chain only, PARQUET=0 leaves out the Parquet copy,
# KEEP=1 keeps the work folder (every out folder) and prints where it is.
set -euo pipefail
cd "$(dirname "$0")/.."

TALLY=$(realpath "${1:-.build/release/tally}")
DATA=${DATA:-sample-data}
PERIOD=${PERIOD:-2026-10}
PARTITIONS=${PARTITIONS:-1,3,7}
WIRING=${WIRING:-arrow transform}
SPARK_PYTHON=${SPARK_PYTHON:-.tally/spark-venv/bin/python}
SPARK=${SPARK:-1}
PARQUET=${PARQUET:-1}
KEEP=${KEEP:-0}

work=$(mktemp -d "${TMPDIR:-/tmp}/tally-spark-test.XXXXXX")
if [ "$KEEP" = 1 ]; then echo "work folder (kept): $work"; else trap 'rm -rf "$work"' EXIT; fi
passed=0 failed=0

same() { # same REFERENCE CANDIDATE LABEL: every file equal, byte for byte, none missing
  if diff -r "$1" "$2" > "$work/diff" 2>&1; then
    echo "ok: $3"; passed=$((passed + 1))
  else
    echo "FAIL: $3 differs from tally run --reproducible:"; head -40 "$work/diff"; failed=$((failed + 1))
  fi
}

"$TALLY" run --data "$DATA" --out "$work/run" --period "$PERIOD" --reproducible --db "$work/run.sqlite" --quiet

start=$(date +%s.%N)
if scripts/stage-chain.sh "$TALLY" "$DATA" "$work/chain" "$PERIOD"; then
  same "$work/run" "$work/chain" "no-engine chain (sort and pipes), $(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)") s"
else
  echo "FAIL: the no-engine chain stopped"; failed=$((failed + 1))
fi

if [ "$SPARK" != 0 ]; then
  for wiring in $WIRING; do
    start=$(date +%s.%N)
    if "$SPARK_PYTHON" spark/tally_spark.py --tally "$TALLY" --data "$DATA" --out "$work/spark-$wiring" --period "$PERIOD" \
         --partitions "$PARTITIONS" --wiring "$wiring" --master 'local[2]' --reproducible 2> "$work/spark.log"; then
      grep -E 'session started|partition\(s\)' "$work/spark.log" | sed 's/^/  /'
      for n in ${PARTITIONS//,/ }; do
        out="$work/spark-$wiring"; [ "$PARTITIONS" = "$n" ] || out="$work/spark-$wiring/p$n"
        same "$work/run" "$out" "Spark local[2], $wiring, $n partition(s)"
      done
    else
      cat "$work/spark.log" >&2
      echo "FAIL: the Spark driver stopped ($wiring wiring)"; failed=$((failed + 1))
    fi
    echo "  Spark, $wiring, all partition counts: $(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)") s wall"
  done
fi

if [ "$SPARK" != 0 ] && [ "$PARQUET" != 0 ]; then
  start=$(date +%s.%N)
  "$SPARK_PYTHON" spark/tests/parquet_copy.py copy "$DATA" "$work/exports" "$work/parquet" "$work/parquet-lines.json"
  "$TALLY" run --data "$work/exports" --out "$work/run-exports" --period "$PERIOD" --reproducible --db "$work/exports.sqlite" --quiet
  label="Spark local[2], the tables as Parquet parts, transform, 3 partitions"
  if ! "$SPARK_PYTHON" spark/tally_spark.py --tally "$TALLY" --data "$work/parquet" --out "$work/spark-parquet" --period "$PERIOD" \
       --partitions 3 --master 'local[2]' --reproducible 2> "$work/spark.log"; then
    cat "$work/spark.log" >&2
    echo "FAIL: the Spark driver stopped ($label)"; failed=$((failed + 1))
  elif "$SPARK_PYTHON" spark/tests/parquet_copy.py compare "$work/run-exports" "$work/spark-parquet" "$work/parquet-lines.json" \
       > "$work/diff"; then
    echo "ok: $label, $(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)") s"; passed=$((passed + 1))
  else
    echo "FAIL: $label differs from tally run --reproducible over the same rows as exports:"; head -40 "$work/diff"
    failed=$((failed + 1))
  fi
fi

echo "spark-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
