#!/usr/bin/env bash
# Packs a tally binary with the shared libraries it links into one tarball,
# `bin/tally` and `lib/`, for executors that have none of them installed
# (`tally_spark.py --tally-archive`, which ships it with addArchive and sets
# LD_LIBRARY_PATH to its lib/). glibc's own libraries (libc, libm, libdl,
# libpthread, librt, the loader) stay out: they come with the executor's
# system, and a copy from another glibc would not load.
#   scripts/tally-archive.sh TALLY OUT.tar.gz
set -euo pipefail

if [ $# -ne 2 ]; then echo "usage: scripts/tally-archive.sh TALLY OUT.tar.gz" >&2; exit 2; fi
tally=$1 out=$2
[ -x "$tally" ] || { echo "tally-archive: $tally is not an executable file" >&2; exit 66; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/tally-archive.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib"
cp "$tally" "$stage/bin/tally"
# `ldd` prints `name => /path (address)` for each library it resolved and
# `name => not found` for one it could not: a binary missing a library here
# would miss it on the executors too.
if ldd "$tally" | grep -q 'not found'; then
  echo "tally-archive: $tally needs libraries this machine does not have:" >&2
  ldd "$tally" | grep 'not found' >&2
  exit 69
fi
ldd "$tally" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|libresolv|libutil)\.so|/ld-linux' |
  while read -r lib; do cp -L "$lib" "$stage/lib/"; done
tar -C "$stage" -czf "$out.tmp" bin lib
mv "$out.tmp" "$out"
echo "tally-archive: $out ($(ls "$stage/lib" | wc -l) libraries, $(du -h "$out" | cut -f1))"
