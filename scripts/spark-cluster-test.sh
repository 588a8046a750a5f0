#!/usr/bin/env bash
# The Spark path on a real cluster: a Spark standalone master and two
# one-core workers on this machine, started with Spark's own launcher
# (`spark-class`, from the pinned pyspark), and the driver submitted to them
# with `spark-submit --master spark://127.0.0.1:PORT`. Executors get
# everything through Spark: the binary and its libraries as an archive
# (scripts/tally-archive.sh) and the plan, which carries the configuration,
# as added files; nothing is found through the build folder. The data
# folder and the out folders are file:// URIs of paths with spaces in them
# (unless DATA or OUT say otherwise). Each out folder must equal `TALLY run
# --reproducible`'s byte for byte:
#   1. with each partition count of PARTITIONS (1,3,7), in one Spark session;
#   2. with KILL=1 (the default), once more (3 partitions, into OUT-killed)
#      with one worker killed (SIGKILL to the worker, its executor and their
#      tally workers) just after the first pass: the job goes on on the
#      other worker and recomputes what was lost.
# Every process the script starts is stopped on the way out, whatever happens.
#   scripts/spark-cluster-test.sh [TALLY]    TALLY defaults to .build/release/tally
# Environment: DATA (a path or file:// URI; a copy of sample-data by
# default), OUT (a path or file:// URI; in the work folder by default),
# PERIOD (2026-10), TZ (a zone name, optional), PARTITIONS (1,3,7), KILL (1),
# SPARK_PYTHON (.tally/spark-venv/bin/python), PORT (7077), KEEP=1 keeps the
# work folder (logs, out folders) and prints where it is.
set -euo pipefail
cd "$(dirname "$0")/.."

TALLY=$(realpath "${1:-.build/release/tally}")
DATA=${DATA:-}
PERIOD=${PERIOD:-2026-10}
ZONE=${TZ:-}
PARTITIONS=${PARTITIONS:-1,3,7}
KILL=${KILL:-1}
PORT=${PORT:-7077}
SPARK_PYTHON=${SPARK_PYTHON:-.tally/spark-venv/bin/python}
# Absolute, but not resolved: a venv's python is a symlink that must stay one.
case "$SPARK_PYTHON" in /*) ;; *) SPARK_PYTHON=$PWD/$SPARK_PYTHON;; esac
KEEP=${KEEP:-0}
SPARK_HOME=$("$SPARK_PYTHON" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
export SPARK_HOME SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON=$SPARK_PYTHON SPARK_LOG_DIR SPARK_CONF_DIR

work=$(mktemp -d "${TMPDIR:-/tmp}/tally-spark-cluster.XXXXXX")
if [ -z "$DATA" ]; then cp -r sample-data "$work/sample data"; DATA="file://$work/sample data"; fi
OUT=${OUT:-file://$work/out folder}
SPARK_LOG_DIR=$work/logs
SPARK_CONF_DIR=$work/conf
mkdir -p "$SPARK_LOG_DIR" "$SPARK_CONF_DIR"
daemons=()
stop_all() {
  # Each daemon leads its own process group (setsid), which its executors
  # and their tally workers join: one signal per group stops them all.
  for pid in "${daemons[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  sleep 1
  for pid in "${daemons[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  if [ "$KEEP" = 1 ]; then echo "work folder (kept): $work"; else rm -rf "$work"; fi
}
trap stop_all EXIT
trap 'exit 130' INT TERM
passed=0 failed=0

wait_for() { # wait_for FILE PATTERN SECONDS WHAT
  local deadline=$((SECONDS + $3))
  until grep -q -E "$2" "$1" 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then echo "FAIL: $4 did not start within $3 s; its log:" >&2; tail -30 "$1" >&2; exit 1; fi
    sleep 0.5
  done
}

if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "FAIL: port $PORT is taken; give another with PORT=" >&2; exit 1
fi
master=spark://127.0.0.1:$PORT
setsid "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master \
  --host 127.0.0.1 --port "$PORT" --webui-port 0 > "$work/logs/master.log" 2>&1 &
daemons+=($!)
wait_for "$work/logs/master.log" "I have been elected leader" 60 "the master"
for n in 1 2; do
  mkdir -p "$work/worker$n"
  setsid "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker \
    --host 127.0.0.1 --cores 1 --memory 2g --webui-port 0 --work-dir "$work/worker$n" "$master" \
    > "$work/logs/worker$n.log" 2>&1 &
  daemons+=($!)
done
for n in 1 2; do wait_for "$work/logs/worker$n.log" "Successfully registered with master" 60 "worker $n"; done
echo "cluster: $master, two workers with one core each"

scripts/tally-archive.sh "$TALLY" "$work/tally.tar.gz"
zone_args=()
[ -z "$ZONE" ] || zone_args=(--timezone "$ZONE")
as_path() { # a file:// URI's path, %-escapes decoded; a path as it is
  case "$1" in file://*) local p=${1#file://}; printf '%b\n' "${p//%/\\x}";; *) echo "$1";; esac
}
"$TALLY" run --data "$(as_path "$DATA")" --out "$work/run" --period "$PERIOD" "${zone_args[@]}" --reproducible \
  --db "$work/run.sqlite" --quiet || [ $? -eq 3 ]

same() { # same CANDIDATE LABEL
  if diff -r "$work/run" "$(as_path "$1")" > "$work/diff" 2>&1; then
    echo "ok: $2"; passed=$((passed + 1))
  else
    echo "FAIL: $2 differs from tally run --reproducible:"; head -40 "$work/diff"; failed=$((failed + 1))
  fi
}

submit() { # submit OUT PARTITIONS LOG
  "$SPARK_HOME/bin/spark-submit" --master "$master" \
    --conf spark.executor.cores=1 --conf spark.executor.memory=1g --conf spark.ui.enabled=false \
    spark/tally_spark.py --tally "$TALLY" --tally-archive "$work/tally.tar.gz" \
    --data "$DATA" --out "$1" --period "$PERIOD" "${zone_args[@]}" --partitions "$2" --reproducible > "$3" 2>&1
}

start=$SECONDS
if submit "$OUT" "$PARTITIONS" "$work/logs/driver.log"; then
  grep -E 'session started|partition\(s\)' "$work/logs/driver.log" | sed 's/^/  /'
  for n in ${PARTITIONS//,/ }; do
    out=$OUT; [ "$PARTITIONS" = "$n" ] || out=$OUT/p$n
    same "$out" "standalone cluster, $n partition(s)"
  done
else
  tail -40 "$work/logs/driver.log" >&2
  echo "FAIL: the driver stopped"; failed=$((failed + 1))
fi
echo "  cluster, all partition counts: $((SECONDS - start)) s"

if [ "$KILL" = 1 ]; then
  start=$SECONDS
  submit "${OUT%/}-killed" 3 "$work/logs/driver-killed.log" &
  driver=$!
  wait_for "$work/logs/driver-killed.log" "stage decode:" 300 "the first pass"
  victim=${daemons[2]}   # worker 2's process group: the worker, its executor, their tally workers
  kill -KILL -- "-$victim"
  echo "  worker 2 killed after the first pass"
  if wait "$driver"; then
    grep -E 'partition\(s\)' "$work/logs/driver-killed.log" | sed 's/^/  /'
    same "${OUT%/}-killed" "standalone cluster, 3 partitions, a worker killed mid-job"
  else
    tail -40 "$work/logs/driver-killed.log" >&2
    echo "FAIL: the job did not survive a lost worker"; failed=$((failed + 1))
  fi
  echo "  cluster with a lost worker: $((SECONDS - start)) s"
fi

echo "spark-cluster-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
