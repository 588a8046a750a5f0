#!/usr/bin/env bash
# Builds tally's libFuzzer targets (fuzz/, a separate SwiftPM package) and runs
# each for FUZZ_SECONDS from a seed corpus made from sample-data/ and the
# hostile fixtures. Usage: scripts/fuzz.sh [target ...]   (default: every target)
#
#   FUZZ_SECONDS=60   seconds per target
#   FUZZ_JOBS=1       libFuzzer workers per target (keep 1 on a shared machine)
#   FUZZ_BUILD=1      0 skips the build (use the last one)
#   FUZZ_SCRATCH=.build-fuzz   where the fuzz package builds
#
# Corpora grow in .fuzz/corpus/<target>/ and are kept between runs; a crash
# leaves its input in .fuzz/artifacts/<target>/ and makes this script fail.
# Replay one: .build-fuzz/release/<target> <crash file>.
# Logs: .fuzz/logs/<target>.log (the last line has execs, cov and ft).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
scratch="${FUZZ_SCRATCH:-$root/.build-fuzz}"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for dir in fuzz/Sources/Fuzz*; do
    name=$(basename "$dir")
    [ "$name" = FuzzSupport ] || targets+=("$name")
  done
fi

if [ "${FUZZ_BUILD:-1}" = 1 ]; then
  echo "== building fuzz targets (release, -sanitize=fuzzer) into .build-fuzz/"
  swift build --package-path fuzz --scratch-path "$scratch" -c release \
    -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld
fi
bin=$(swift build --package-path fuzz --scratch-path "$scratch" -c release --show-bin-path)

scripts/fuzz-corpus.sh "${targets[@]}"

# libFuzzer, not the Swift backtracer, must handle a crash (it saves the input).
export SWIFT_BACKTRACE=enable=no

status=0
mkdir -p .fuzz/logs
for target in "${targets[@]}"; do
  corpus=".fuzz/corpus/$target"
  artifacts=".fuzz/artifacts/$target/"
  mkdir -p "$corpus" "$artifacts"
  extra=()
  [ -f "fuzz/dictionaries/$target.dict" ] && extra+=(-dict="fuzz/dictionaries/$target.dict")
  # -jobs > 1 runs workers in the background, logging to fuzz-<n>.log in the current folder.
  [ "$jobs" -gt 1 ] && extra+=(-jobs="$jobs" -workers="$jobs")
  echo "== $target: ${seconds}s, corpus $(ls "$corpus" | wc -l) inputs"
  if "$bin/$target" "$corpus" "${extra[@]}" -max_total_time="$seconds" -max_len=65536 \
       -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$artifacts" -print_final_stats=1 \
       >".fuzz/logs/$target.log" 2>&1; then
    grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' ".fuzz/logs/$target.log" | tail -1 || true
    grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' ".fuzz/logs/$target.log" || true
  else
    echo "!! $target found a crash: see .fuzz/logs/$target.log and $artifacts" >&2
    tail -30 ".fuzz/logs/$target.log" >&2
    status=1
  fi
done
exit $status
