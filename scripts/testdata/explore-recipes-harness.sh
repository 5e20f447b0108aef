#!/usr/bin/env bash
# Runs deploy/slurm/explore.sbatch as the tasks of a Slurm array would (SLURM_ARRAY_TASK_ID
# 1..N, no Slurm needed) and explore-merge.sbatch after them, with the given bgsim, and checks
# that the merged folder is byte for byte one whole `bgsim explore` of the same scenario and
# seeds, that a shard with a finding still succeeds, and that a task outside 1..N is refused.
#
#   scripts/testdata/explore-recipes-harness.sh BGSIM_BINARY
set -euo pipefail
bgsim="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
cd "$(dirname "$0")/../.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scenario=Scenarios/podcast-feed-one-per-wake.json
seeds=1-12
export SHARDS=3 SEEDS="$seeds" SCENARIO="$scenario" BGSIM="$bgsim" EXPLORE_ROOT="$work/runs" SLURM_ARRAY_JOB_ID=77
for k in 1 2 3; do
  SLURM_ARRAY_TASK_ID=$k SLURM_CPUS_PER_TASK=1 bash deploy/slurm/explore.sbatch >"$work/task-$k.out" || {
    echo "explore-recipes: explore.sbatch task $k failed:" >&2; cat "$work/task-$k.out" >&2; exit 1; }
done
if SLURM_ARRAY_TASK_ID=4 bash deploy/slurm/explore.sbatch 2>"$work/err"; then
  echo "explore-recipes: explore.sbatch ran array task 4 of 3" >&2; exit 1
fi
grep -q "outside 1-3" "$work/err"
status=0
EXPLORE_JOB=77 bash deploy/slurm/explore-merge.sbatch >"$work/merge.out" 2>&1 || status=$?
if ((status != 1)); then
  echo "explore-recipes: explore-merge.sbatch exited $status, expected 1 (the planted bug):" >&2
  cat "$work/merge.out" >&2; exit 1
fi
status=0
"$bgsim" explore "$scenario" --seeds "$seeds" --jobs 1 --out "$work/whole" >/dev/null || status=$?
((status == 1)) || { echo "explore-recipes: the whole exploration exited $status" >&2; exit 1; }
diff -r "$work/whole" "$work/runs/77/merged" >&2 || {
  echo "explore-recipes: the merged shards differ from the whole exploration" >&2; exit 1; }
echo "check-deploy: explore.sbatch (3 array tasks) and explore-merge.sbatch give the whole exploration's files"
