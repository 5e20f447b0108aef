#!/usr/bin/env bash
# Measures one wake's path through the engine (issue 26): runs a scenario under callgrind with a
# debug build, collecting only inside `Simulation.handle` from the first link completion to the
# first system suspension after it, and lists the TransferEngine source files whose functions ran.
#
#   bash scripts/wake-path.sh BGSIM_DEBUG_BINARY SCENARIO.json [OUT_DIR]
#
# The scenario must have one download that finishes while the app is suspended or terminated, and
# the app's suspension after the wake (Scenarios/relaunch-after-termination.json is one).
# Prints three counts of files: every function (accessors and initialisers included), without
# stored-property accessors, initialisers, deinitialisers and compiler thunks, and that minus the
# run loop's bookkeeping (the invariant checker's observer and the run budget's meter).
# Needs valgrind, callgrind_annotate and `swift demangle`. The three functions are named by their
# mangled symbols: rename `Simulation.handle`, `LinkCompletedRule.apply(up:engine:into:)` or
# `Simulation.systemSuspend` and this script must follow.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: bash scripts/wake-path.sh BGSIM_DEBUG_BINARY SCENARIO.json [OUT_DIR]" >&2
  exit 2
fi
binary=$1
scenario=$2
out=${3:-$(mktemp -d)}
mkdir -p "$out"
rm -f "$out"/callgrind.out*

valgrind --tool=callgrind --dump-instr=no --collect-atstart=no \
  '--toggle-collect=$s14TransferEngine10SimulationC6handleyyAA0B5EventOF' \
  '--zero-before=$s14TransferEngine17LinkCompletedRuleO5apply2up6engine4intoySb_AA0B0CAA12EffectBufferVztFZ' \
  '--dump-after=$s14TransferEngine10SimulationC13systemSuspendyyF' \
  --callgrind-out-file="$out/callgrind.out" "$binary" run "$scenario" --quiet >"$out/run.txt" 2>"$out/valgrind.txt"

# The dump that begins at the link completion: the first part whose trigger is the suspension
# and which holds a call to the link completion's room.
part=""
for f in "$out"/callgrind.out.*; do
  if grep -q 'LinkCompletedRuleO5apply2up6engine4intoySb_AA0B0CAA12EffectBufferVztFZ' "$f"; then part=$f; break; fi
done
if [ -z "$part" ]; then
  echo "wake-path: no dump holds a link completion followed by a suspension; see $out/run.txt" >&2
  exit 1
fi

callgrind_annotate --auto=no --inclusive=yes --threshold=100 "$part" 2>/dev/null \
  | grep -o 'Sources/TransferEngine/[^:]*:[^ ]*' | sed 's#^Sources/TransferEngine/##' | sort -u \
  >"$out/symbols.txt"
# One `swift demangle` for all the names, one a line, so each stays beside its file.
cut -d: -f2- "$out/symbols.txt" | swift demangle --compact >"$out/demangled.txt"
if [ "$(wc -l <"$out/symbols.txt")" -ne "$(wc -l <"$out/demangled.txt")" ]; then
  echo "wake-path: swift demangle returned a different number of names" >&2
  exit 1
fi
paste <(cut -d: -f1 "$out/symbols.txt") "$out/demangled.txt" >"$out/functions.tsv"

grep -v -E '\.(getter|setter|read|modify|didset|willset) |__allocating_init|\.init\(|deinit|witness table|\$defer|unmangled suffix|outlined|default argument' \
  "$out/functions.tsv" >"$out/methods.tsv" || true
grep -v -E '^(Invariants/|Sim/RunBudget\.swift)' "$out/methods.tsv" >"$out/rules.tsv" || true

count() { cut -f1 "$1" | sort -u | wc -l | tr -d ' '; }
echo "dump: $part ($(grep '^summary:' "$part" | cut -d' ' -f2) instructions)"
echo "files, every function:            $(count "$out/functions.tsv") ($(wc -l <"$out/functions.tsv" | tr -d ' ') functions)"
echo "files, without accessors/inits:   $(count "$out/methods.tsv") ($(wc -l <"$out/methods.tsv" | tr -d ' ') functions)"
echo "files, without run-loop meters:   $(count "$out/rules.tsv") ($(wc -l <"$out/rules.tsv" | tr -d ' ') functions)"
echo "per file (functions without accessors/inits):"
cut -f1 "$out/methods.tsv" | sort | uniq -c | sort -k2
