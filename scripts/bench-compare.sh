#!/usr/bin/env bash
# Runs `bgsim bench hold`, `fleet` and `share` for two release binaries side by side,
# interleaved (old, new, old, new, ...) so both see the same machine load; prints every JSON
# line prefixed by the binary's label, then the median of each figure per binary.
# usage: scripts/bench-compare.sh OLD_BINARY NEW_BINARY [REPETITIONS] [WORKLOAD...]
# WORKLOAD defaults to: hold fleet share (share runs N = 1,000, 10,000 and 100,000); give
# "share 10000" style words as "share:10000" to run one N.
set -euo pipefail
old="$1"
new="$2"
reps="${3:-5}"
shift $(($# < 3 ? $# : 3))
workloads=("$@")
[ ${#workloads[@]} -eq 0 ] && workloads=(hold fleet share)
out="$(mktemp)"
for rep in $(seq 1 "$reps"); do
  for label in old new; do
    bin="$old"
    [ "$label" = new ] && bin="$new"
    for workload in "${workloads[@]}"; do
      # shellcheck disable=SC2086
      "$bin" bench ${workload/:/ } --json | sed "s/^/$label $rep /" | tee -a "$out"
    done
  done
done
python3 - "$out" <<'PY'
import json, sys, statistics
rows = {}
for line in open(sys.argv[1]):
    label, rep, text = line.split(" ", 2)
    d = json.loads(text)
    key = d["workload"] + (" " + str(d["transfers"]) if "transfers" in d else "")
    rows.setdefault(key, {}).setdefault(label, []).append(d)
print("\nmedians (old -> new):")
for key, by in rows.items():
    for field in ("wallSeconds", "eventsPerSecond", "peakRSSBytes"):
        if field in by["old"][0]:
            o = statistics.median(x[field] for x in by["old"])
            n = statistics.median(x[field] for x in by["new"])
            print(f"  {key:14} {field:16} {o:14.6g} -> {n:14.6g}  ({(n / o - 1) * 100:+.1f}%)")
PY
