#!/usr/bin/env bash
# Runs the shipped Slurm recipe (deploy/slurm/sweep.sbatch and merge.sbatch) on a real
# one-node Slurm cluster on this machine and checks what it produced.
#
#   scripts/slurm-smoke.sh [BGSIM]        (default: .build/release/bgsim; run as root)
#
# 1. Installs Debian's slurm-wlm and munge when missing (apt-get; needs root).
# 2. Starts munged, slurmctld and slurmd by hand (no systemd, no cgroups), all state, sockets
#    and logs in a temporary folder, on ports 17817/17818.
# 3. Submits sweep.sbatch as shipped (a 4-shard array, set through sbatch options and
#    --export as a user would) and merge.sbatch depending on it; waits (bounded); compares the
#    merged files with a single-machine `bgsim sweep` of the same grid: every file byte for
#    byte, sweep.json apart from its execution/shard/shards lines.
# 4. Submits the array again with shard 3 made to fail (a file where its output folder must
#    go) and checks that Slurm cancels the merge job instead of leaving it pending.
# 5. Stops every daemon it started, by PID, whatever happens, and prints one verdict line:
#    "slurm-smoke: PASS ..." (exit 0) or "slurm-smoke: FAIL ..." (exit 1, with the logs).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
bgsim="$(cd "$(dirname "${1:-.build/release/bgsim}")" && pwd)/$(basename "${1:-.build/release/bgsim}")"
limit=60 # seconds to wait for each batch of jobs

fail() {
  echo "slurm-smoke: FAIL: $*"
  for log in "$work"/*.log "$work"/*.out; do
    [[ -f "$log" ]] && { echo "--- $log"; tail -n 20 "$log"; }
  done
  exit 1
}

[[ -x "$bgsim" ]] || { echo "slurm-smoke: FAIL: no bgsim binary at $bgsim (build it first)"; exit 1; }
[[ "$(id -u)" -eq 0 ]] || { echo "slurm-smoke: FAIL: needs root (it starts slurmd and munged)"; exit 1; }
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "installing Debian's slurm-wlm and munge" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

work="$(mktemp -d /tmp/bgsim-slurm.XXXXXX)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

host="$(hostname -s)"
cpus="$(nproc)"
mkdir -p "$work/state" "$work/spool" "$work/munge"
chmod 700 "$work/munge"
head -c 1024 /dev/urandom >"$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"
munged --foreground --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/seed" --log-file="$work/munged.log" \
  >>"$work/daemons.log" 2>&1 &
pids+=($!)

export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=bgsim-smoke
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=17817
SlurmdPort=17818
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=smoke Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

for _ in $(seq 50); do [[ -S "$work/munge/munge.socket" ]] && break; sleep 0.1; done
[[ -S "$work/munge/munge.socket" ]] || fail "munged did not start"
slurmctld -D -c -f "$SLURM_CONF" >>"$work/daemons.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >>"$work/daemons.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 0.2
done
sinfo -h -o '%T' 2>/dev/null | grep -qE '^idle' || fail "the node did not come up: $(sinfo -h -o '%T %E' 2>&1)"

# The job's state (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ...) of job $1 and every
# task of an array, one per line.
states() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }
# Waits until no task of job $1 is PENDING or RUNNING (or $limit seconds pass).
wait_done() {
  for _ in $(seq $((limit * 5))); do
    states "$1" | grep -qE '^(PENDING|RUNNING|CONFIGURING|COMPLETING)$' || return 0
    sleep 0.2
  done
  return 1
}

# Submitted exactly as docs/sweeps.md says, with N, the seeds and the folders set through
# sbatch options and the environment.
export SHARDS=4 SEEDS=1-8 BGSIM="$bgsim" SWEEP_ROOT="$work/sweeps"
submit=(--array=1-4 --cpus-per-task=1 --output="$work/%x-%A_%a.out")
jobid="$(sbatch --parsable "${submit[@]}" deploy/slurm/sweep.sbatch)"
mergeid="$(sbatch --parsable --dependency="afterok:$jobid" --output="$work/%x-%j.out" \
  --export="ALL,SWEEP_JOB=$jobid" deploy/slurm/merge.sbatch)"
wait_done "$jobid" && wait_done "$mergeid" || fail "the sweep did not finish within ${limit}s: $(states "$jobid" | tr '\n' ' ') merge $(states "$mergeid")"
[[ "$(states "$jobid" | sort -u)" == COMPLETED ]] || fail "shard tasks ended $(states "$jobid" | tr '\n' ' ')"
[[ "$(states "$mergeid")" == COMPLETED ]] || fail "the merge job ended $(states "$mergeid")"

# The same grid on one machine, without Slurm.
eval "$(grep '^PARAMS=(' deploy/slurm/sweep.sbatch)"
"$bgsim" sweep Scenarios/podcast-feed-one-per-wake.json "${PARAMS[@]}" --seeds "$SEEDS" \
  --out "$work/single" >/dev/null
merged="$work/sweeps/$jobid/merged"
identity() { sed -e '/^  "execution": /d' -e '/^  "shard": /d' -e '/^  "shards": \[/,/^  \]/d' "$1"; }
files=0
for f in "$work/single"/*; do
  name="$(basename "$f")"
  if [[ "$name" == sweep.json ]]; then
    diff <(identity "$f") <(identity "$merged/$name") >/dev/null || fail "merged sweep.json differs from a single sweep's"
  else
    cmp -s "$f" "$merged/$name" || fail "merged $name differs from a single sweep's"
  fi
  files=$((files + 1))
done
[[ "$(ls "$merged" | wc -l)" -eq "$files" ]] || fail "the merged folder has other files than a single sweep: $(ls "$merged")"
runs="$(($(wc -l <"$merged/runs.csv") - 1))"

# Shard 3 cannot write its output (a file where its folder must go): the merge job must be
# cancelled, not left pending.
mkdir -p "$work/sweeps/failing"
touch "$work/sweeps/failing/shard-3"
jobid2="$(sbatch --parsable "${submit[@]}" --export=ALL,SWEEP_JOB=failing deploy/slurm/sweep.sbatch)"
mergeid2="$(sbatch --parsable --dependency="afterok:$jobid2" --output="$work/%x-%j.out" \
  --export=ALL,SWEEP_JOB=failing deploy/slurm/merge.sbatch)"
wait_done "$jobid2" || fail "the second array did not finish within ${limit}s"
wait_done "$mergeid2" || fail "with shard 3 failed, the merge job is still $(states "$mergeid2") after ${limit}s"
failed="$(states "$jobid2" | grep -c FAILED || true)"
[[ "$failed" -eq 1 ]] || fail "expected one failed shard, found states $(states "$jobid2" | tr '\n' ' ')"
merge_state="$(states "$mergeid2")"
reason="$(scontrol -o show job "$mergeid2" | grep -o 'Reason=[A-Za-z_]*' | cut -d= -f2)"
[[ "$merge_state" == CANCELLED ]] || fail "with shard 3 failed, the merge job ended $merge_state ($reason), not CANCELLED"
[[ ! -e "$work/sweeps/failing/merged" ]] || fail "a merge was written although shard 3 failed"

echo "slurm-smoke: PASS: $(sinfo -V) ran sweep.sbatch as 4 shards and merge.sbatch: $files files of $runs runs identical to a single-machine sweep; with shard 3 failing the merge job was $merge_state ($reason)"
