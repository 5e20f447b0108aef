#!/usr/bin/env bash
# Runs one sweep with the manifests of this folder: the ConfigMap and the volume, the Indexed
# Job of shards, a wait that stops on failure or after TIMEOUT seconds (default 7200), then
# the merge Job and its wait. Prints where the merged files are. Needs kubectl and a context.
#
#   deploy/kubernetes/run.sh            (TIMEOUT=... and KUBECTL=... may be set)
set -euo pipefail
cd "$(dirname "$0")"
kubectl="${KUBECTL:-kubectl}"
timeout="${TIMEOUT:-7200}"

if grep -q '@sha256:0000000000000000' sweep-job.yaml merge-job.yaml; then
  echo "run.sh: put your image's digest in sweep-job.yaml and merge-job.yaml (see the Dockerfile)" >&2
  exit 2
fi

# Waits for Job $1 to be Complete; fails as soon as it is Failed, or after $timeout seconds.
wait_for() {
  local deadline=$((SECONDS + timeout))
  until "$kubectl" wait --for=condition=Complete --timeout=30s "$1" >/dev/null 2>&1; do
    local failed
    failed="$("$kubectl" get "$1" -o jsonpath='{.status.conditions[?(@.type=="Failed")].status}')"
    if [[ "$failed" == True ]]; then
      echo "run.sh: $1 failed; failed indexes: $("$kubectl" get "$1" -o jsonpath='{.status.failedIndexes}')" >&2
      echo "run.sh: see: $kubectl logs -l job-name=${1#job.batch/} --prefix" >&2
      return 1
    fi
    if ((SECONDS >= deadline)); then
      echo "run.sh: $1 did not finish within ${timeout}s; it is still running (delete it with $kubectl delete $1)" >&2
      return 1
    fi
  done
}

"$kubectl" apply -f configmap.yaml -f pvc.yaml
job="$("$kubectl" create -f sweep-job.yaml -o name)"
uid="$("$kubectl" get "$job" -o jsonpath='{.metadata.uid}')"
echo "run.sh: $job writes /results/$uid/shard-1..16 on the volume bgsim-sweep-results" >&2
wait_for "$job"
merge="$("$kubectl" set env --local -f merge-job.yaml -o yaml "SWEEP_ID=$uid" | "$kubectl" create -f - -o name)"
wait_for "$merge"
echo "run.sh: merged: /results/$uid/merged on the volume bgsim-sweep-results" >&2
