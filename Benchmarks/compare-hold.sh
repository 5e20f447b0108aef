#!/bin/sh
# The hold target of performance.md, measured side by side: runs the Swift kernel's
# `bgsim bench hold` and the C heap of hold-baseline.c alternately, REPS times each, so both see
# the same background load, and prints one JSON line with each one's median wall time and the
# ratio C / Swift (the target is at least 0.9).
#
# Usage: Benchmarks/compare-hold.sh [REPS] [BGSIM]
#   REPS   pairs of runs (default 9)
#   BGSIM  the bgsim binary (default .build/release/bgsim; build it with swift build -c release)
# CC picks the C compiler (default: cc, else clang, which every Swift toolchain carries, else
# gcc); the C side is built with -O2.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
reps=${1:-9}
bgsim=${2:-.build/release/bgsim}
case $reps in '' | *[!0-9]* | 0)
  echo "compare-hold.sh: REPS must be a whole number of runs, at least 1 (got '$reps')" >&2
  exit 2
  ;;
esac
if [ ! -x "$bgsim" ]; then
  echo "compare-hold.sh: no bgsim binary at '$bgsim'; build one with 'swift build -c release' or pass its path" >&2
  exit 2
fi
compiler=${CC:-$(command -v cc || command -v clang || command -v gcc || true)}
if [ -z "$compiler" ]; then
  echo "compare-hold.sh: no C compiler found (cc, clang or gcc); set CC to one" >&2
  exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$compiler" -O2 -std=c11 -o "$out/hold-baseline" "$here/hold-baseline.c" -lm

# The number after "wallSeconds": in a JSON line.
wall() { sed -n 's/.*"wallSeconds": *\([0-9.eE+-]*\).*/\1/p'; }

i=0
while [ "$i" -lt "$reps" ]; do
  "$bgsim" bench hold --json | wall >>"$out/swift"
  "$out/hold-baseline" | wall >>"$out/c"
  i=$((i + 1))
done

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
swift=$(median "$out/swift")
c=$(median "$out/c")
awk -v s="$swift" -v c="$c" -v n="$reps" 'BEGIN {
  printf "{\"workload\": \"hold-side-by-side\", \"pairs\": %d, \"swiftWallSeconds\": %.3f, \"cWallSeconds\": %.3f, \"ratio\": %.2f, \"target\": 0.9}\n", n, s, c, c / s
}'
