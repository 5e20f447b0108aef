#!/usr/bin/env python3
"""Runs `bgsim bench` workloads for two release binaries side by side, interleaved (old, new,
old, new, ...) so both see the same machine load, and prints the median wall time (the bench's
own figure) and the median CPU time (user + system of the process, less sensitive to other
jobs on a shared machine) of each workload per binary.

usage: scripts/bench-compare.py OLD_BINARY NEW_BINARY [REPETITIONS] [WORKLOAD ...]
WORKLOAD is hold, fleet, share or share:N (one N); default: hold fleet share:1000 share:10000
share:100000.
"""
import json, resource, statistics, subprocess, sys

old, new = sys.argv[1], sys.argv[2]
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
workloads = sys.argv[4:] or ["hold", "fleet", "share:1000", "share:10000", "share:100000"]
results = {}
for rep in range(1, reps + 1):
    for label, binary in (("old", old), ("new", new)):
        for workload in workloads:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            text = subprocess.run(
                [binary, "bench", *workload.split(":"), "--json"], check=True, capture_output=True, text=True
            ).stdout
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            for line in text.splitlines():
                d = json.loads(line)
                entry = results.setdefault(workload, {}).setdefault(label, [])
                entry.append((d["wallSeconds"], cpu, d.get("peakRSSBytes", 0)))
                print(f"{label} {rep} {workload} wall={d['wallSeconds']} cpu={cpu:.3f}", flush=True)
print("\nmedians over %d repetitions, old -> new:" % reps)
for workload, by in results.items():
    for i, name in ((0, "wall s"), (1, "cpu s"), (2, "peak RSS")):
        o = statistics.median(x[i] for x in by["old"])
        n = statistics.median(x[i] for x in by["new"])
        print(f"  {workload:13} {name:9} {o:12.4g} -> {n:12.4g}  ({(n / o - 1) * 100:+.1f}%)")
