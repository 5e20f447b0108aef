#!/bin/sh
# Compiles the C hold baseline with gcc -O2 and runs it; prints one JSON line.
# Usage: Benchmarks/run-hold-baseline.sh [events]   (default 5,000,000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gcc -O2 -std=c11 -o "$out/hold-baseline" "$here/hold-baseline.c" -lm
"$out/hold-baseline" "$@"
