#!/usr/bin/env bash
# A stand-in for kubectl, for checking deploy/kubernetes/run.sh without a cluster.
# FAKE_KUBECTL_LOG: file that records every call. FAKE_SWEEP_OUTCOME: Complete or Failed (the
# sweep Job's end; the merge Job always completes). The Job ends on the second `wait`.
set -euo pipefail
echo "kubectl $*" >>"$FAKE_KUBECTL_LOG"
state="$(dirname "$FAKE_KUBECTL_LOG")/fake-kubectl-waits"
case "$1" in
  apply) ;;
  create)
    if [[ " $* " == *" -f - "* ]]; then
      cat >>"$FAKE_KUBECTL_LOG"
      echo "job.batch/bgsim-sweep-merge-x1"
    else
      echo "job.batch/bgsim-sweep-x1"
    fi
    ;;
  set) echo "# merge job with $*" ;;
  wait)
    job="${*: -1}"
    waits=$(($(grep -c "^$job\$" "$state" 2>/dev/null || true) + 1))
    echo "$job" >>"$state"
    outcome=Complete
    [[ "$job" == job.batch/bgsim-sweep-x1 ]] && outcome="$FAKE_SWEEP_OUTCOME"
    ((waits >= 2)) && [[ "$outcome" == Complete ]] && exit 0
    exit 1
    ;;
  get)
    job="$2"
    case "$*" in
      *metadata.uid*) echo "uid-1234" ;;
      *Failed*)
        waits=$(grep -c "^$job\$" "$state" 2>/dev/null || true)
        if ((waits >= 2)) && [[ "$job" == job.batch/bgsim-sweep-x1 && "$FAKE_SWEEP_OUTCOME" == Failed ]]; then echo True; fi
        ;;
      *failedIndexes*) echo "2,7" ;;
    esac
    ;;
  *) echo "fake kubectl: unexpected: $*" >&2; exit 3 ;;
esac
