#!/usr/bin/env bash
# The Spark driver's job with no engine: tally's stages chained with plain
# `sort` and shell pipes, one partition per stage, for fast feedback.
#   scripts/stage-chain.sh TALLY DATA OUT PERIOD [plan options: --timezone Z --locale L --config F]
# Runs `TALLY plan` (naming OUT, where workers may stage files), then per stage: its input lines sorted as bytes
# (LC_ALL=C sort, which keeps each key's lines together) through `TALLY worker STAGE`,
# each output line `DEST<TAB>KEY<TAB>REST` appended to the input of DEST (a
# later stage) or of `merge`; last, `TALLY merge --reproducible` writes OUT.
# A worker's non-zero exit, a line without a TAB or an unknown DEST stops it
# with a message naming the stage (docs/scale-out.md has the protocol).
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 TALLY DATA OUT PERIOD [plan options]" >&2; exit 64; }
TALLY=$1 DATA=$2 OUT=$3 PERIOD=$4
shift 4
export LC_ALL=C
# Every tally process gets this environment and no other, as on Spark.
run_tally() { env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 LC_ALL=C.UTF-8 "$TALLY" "$@"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tally-chain.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
run_tally plan --data "$(cd "$DATA" && pwd)" --period "$PERIOD" --out "$OUT" "$@" > "$work/plan.json"

# The stage names, one a line (in.N is stage N's input), and stage 0's input: the tasks.
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
plan = json.load(open(f"{work}/plan.json", encoding="utf-8"))
with open(f"{work}/stages", "w", encoding="utf-8") as f:
    f.write("".join(s + "\n" for s in plan["stages"]))
with open(f"{work}/in.0", "wb") as f:
    f.write(b"".join(t.encode("utf-8") + b"\n" for t in plan["tasks"]))
PY

tab=$(printf '\t')
index=0
while IFS= read -r stage; do
  touch "$work/in.$index"
  set +e
  sort "$work/in.$index" | run_tally worker "$stage" --plan "$work/plan.json" > "$work/out.$index"
  status=${PIPESTATUS[1]}
  set -e
  if [ "$status" -ne 0 ]; then
    echo "stage-chain: stage '$stage', partition 0: the worker exited with status $status" >&2
    exit 1
  fi
  # Route: DEST must be a later stage or merge; the rest of the line is kept byte for byte.
  awk -v dir="$work" -v from="$index" -v stage="$stage" '
    BEGIN {
      while ((getline name < (dir "/stages")) > 0) position[name] = count++
      position["merge"] = "merge"
    }
    {
      t = index($0, "\t")
      if (t == 0) {
        printf "stage-chain: stage '\''%s'\'', partition 0: the worker printed a line without a TAB: %s\n", stage, substr($0, 1, 200) > "/dev/stderr"
        failed = 1; exit 1
      }
      dest = substr($0, 1, t - 1)
      if (!(dest in position) || (dest != "merge" && position[dest] <= from)) {
        printf "stage-chain: stage '\''%s'\'', partition 0: the worker routed a line to '\''%s'\'', which is neither a later stage nor merge\n", stage, dest > "/dev/stderr"
        failed = 1; exit 1
      }
      print substr($0, t + 1) >> (dir "/in." position[dest])
    }' "$work/out.$index"
  index=$((index + 1))
done < "$work/stages"

touch "$work/in.merge"
run_tally merge --plan "$work/plan.json" --out "$OUT" --reproducible < "$work/in.merge"
