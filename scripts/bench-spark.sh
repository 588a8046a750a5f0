#!/usr/bin/env bash
# make bench-spark: the bench set (scripts/bench-data.sh, as `make bench`)
# through `tally run` and through the Spark path (spark/tally_spark.py in
# local[2]), both --reproducible; checks that the two out folders are equal
# byte for byte and prints wall time, CPU time and peak memory of each whole
# process tree (scripts/measure-tree.py: the Spark JVM, its Python workers
# and every tally worker included), CPU per input row (the rows run.json
# says were read) and the ratio of the two, and the peak memory of the
# driver's side of the Spark job (the Python driver, `tally plan` and `tally
# merge`; in local[2] the JVM serves the executors too, so it is not
# counted there). Figures go to docs/scale-out.md.
#   SHAPE=default|studio|skewed|many-couples  SCALE=small|medium|large
#   PARTITIONS (3)  WIRING (transform|arrow)  SPARK_PYTHON (.tally/spark-venv/bin/python)
#   JVM (job|quick): `job` (the default) runs Spark's JVM as a long job runs it,
#   the JIT's every tier and the default collector, with a HEAP heap (2g); `quick`
#   keeps the driver's settings for short local runs (tests), the quick tier,
#   the serial collector and Spark's default 1 GiB.
set -euo pipefail
cd "$(dirname "$0")/.."

SHAPE=${SHAPE:-default}
SCALE=${SCALE:-medium}
if [ "$SHAPE" = studio ]; then MONTH=${MONTH:-2026-07}; PERIOD=${PERIOD:-2026-06}; fi
PERIOD=${PERIOD:-2026-10}
MONTH=${MONTH:-$PERIOD}
PARTITIONS=${PARTITIONS:-3}
WIRING=${WIRING:-transform}
JVM=${JVM:-job}
case "$JVM" in
  job) jvm_conf=(--conf spark.driver.extraJavaOptions= --conf "spark.driver.memory=${HEAP:-2g}");;
  quick) jvm_conf=();;
  *) echo "bench-spark: JVM is job or quick, not $JVM" >&2; exit 2;;
esac
SPARK_PYTHON=${SPARK_PYTHON:-.tally/spark-venv/bin/python}
BIN=${TALLY:-.build/release/tally}
DATA=bench-data/$SHAPE-$SCALE
RUN_OUT=bench-data/spark-bench-run-$SHAPE-$SCALE
SPARK_OUT=bench-data/spark-bench-spark-$SHAPE-$SCALE
WAREHOUSE=bench-data/spark-bench-warehouse-$SHAPE-$SCALE

scripts/bench-data.sh "$SHAPE" "$SCALE" "$MONTH" "$BIN"
rm -rf "$RUN_OUT" "$SPARK_OUT" "$WAREHOUSE"
mkdir -p "$WAREHOUSE"

echo "tally run on $DATA…"
python3 scripts/measure-tree.py "$RUN_OUT.measure.json" -- \
  "$BIN" run --data "$DATA" --out "$RUN_OUT" --db "$WAREHOUSE/tally.sqlite" --period "$PERIOD" --reproducible --quiet
echo "Spark local[2], $PARTITIONS partitions, $WIRING wiring, $JVM JVM, on $DATA…"
python3 scripts/measure-tree.py "$SPARK_OUT.measure.json" --part driver='tally_spark\.py|/tally (plan|merge) ' -- \
  "$SPARK_PYTHON" spark/tally_spark.py --tally "$BIN" --data "$DATA" --out "$SPARK_OUT" --period "$PERIOD" \
  --partitions "$PARTITIONS" --wiring "$WIRING" --master 'local[2]' "${jvm_conf[@]}" --reproducible 2> "$SPARK_OUT.log" \
  || { cat "$SPARK_OUT.log" >&2; exit 1; }
grep -E 'session started|stage |merge:' "$SPARK_OUT.log" | sed 's/^tally-spark: /  /'

if diff -r "$RUN_OUT" "$SPARK_OUT" > "$SPARK_OUT.diff"; then same="equal, byte for byte"; else same="DIFFERENT (see $SPARK_OUT.diff)"; fi

python3 - "$RUN_OUT.measure.json" "$SPARK_OUT.measure.json" "$DATA" "$SHAPE" "$SCALE" "$PARTITIONS" "$WIRING" "$same" <<'PY'
import json, os, sys
run, spark = (json.load(open(p)) for p in sys.argv[1:3])
data, shape, scale, partitions, wiring, same = sys.argv[3:]
run_out = sys.argv[1][:-len(".measure.json")]
rows = sum(f["rowsRead"] for f in json.load(open(os.path.join(run_out, "run.json")))["inputs"])
size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(data) for f in fs)
print(f"\ntally bench-spark · shape {shape} · scale {scale} · {os.cpu_count()} cores · "
      f"input {size / 2**20:.0f} MiB, {rows:,} rows · CPU from {spark.get('cpu_from', 'rusage')}")
print(f"{'':28} {'wall s':>8} {'CPU s':>8} {'CPU µs/row':>11} {'peak MiB':>9}")
cpu = {}
for name, m in ((f"tally run", run), (f"Spark local[2], {partitions} parts", spark)):
    cpu[name] = m['user'] + m['sys']
    print(f"{name:28} {m['wall']:8.2f} {cpu[name]:8.2f} {cpu[name] / max(rows, 1) * 1e6:11.2f} {m['peak_mib']:9.1f}")
print(f"Spark / tally run: {spark['wall'] / run['wall']:.2f}× wall, "
      f"{(spark['user'] + spark['sys']) / max(run['user'] + run['sys'], 1e-9):.2f}× CPU per row, "
      f"{spark['peak_mib'] / max(run['peak_mib'], 1e-9):.2f}× peak memory ({wiring} wiring)")
print(f"Spark driver's side (Python driver, tally plan, tally merge): peak {spark['parts']['driver']:.1f} MiB")
print(f"out folders: {same}")
PY
