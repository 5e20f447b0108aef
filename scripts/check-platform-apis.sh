#!/usr/bin/env bash
# Grep-level audit: no API newer than the platforms Package.swift declares (macOS 13, iOS 16),
# no API missing on iOS in the library targets, and nothing Linux-only, so the package keeps
# building where iOS engineers work even though CI compiles on Linux only.
#
#   scripts/check-platform-apis.sh            audit Sources/, Tests/ and Plugins/
#   scripts/check-platform-apis.sh --self-test prove each pattern catches a sample line
#
# The lists are of known APIs, not every API: add a line when you find a new one. A use that is
# guarded (`if #available`, `@available`, `#if canImport`) can carry `// platform-api: ok` on
# its line. Exit 0 clean, 1 with one `FILE:LINE: ...` line per finding.
set -euo pipefail
cd "$(dirname "$0")/.."

# pattern (extended regex) @@ a line it must catch (for --self-test) @@ what it is and where it first appears
newer_apis=(
  '\bMutex<|import Synchronization|\bAtomic<|Mutex\(@@let m = Mutex<Int>(0)@@Synchronization module: macOS 15, iOS 18'
  '\bInlineArray\b@@var a: InlineArray<4, Int>@@InlineArray: macOS 26, iOS 26'
  '\b(Mutable|Raw|Output|UTF8)?Span\b@@let s: RawSpan = x@@Span types: macOS 26, iOS 26'
  '\.utf8Span\b@@let s = text.utf8Span@@String.utf8Span: macOS 26, iOS 26'
  '\b(U)?Int128\b@@var m: Int128 = 0@@Int128/UInt128: macOS 15, iOS 18'
  '\bRangeSet\b|\.indices\(where:|\.removeSubranges\(|\.moveSubranges\(@@let r = RangeSet(0..<3)@@RangeSet: macOS 15, iOS 18'
  'String\(validating:@@let s = String(validating: bytes, as: UTF8.self)@@String(validating:as:): macOS 15, iOS 18'
  'with(Throwing)?DiscardingTaskGroup@@await withDiscardingTaskGroup { _ in }@@DiscardingTaskGroup: macOS 14, iOS 17'
  '@Observable\b|import Observation@@@Observable final class Model {}@@Observation: macOS 14, iOS 17'
  '#Predicate|\bPredicate<|#Expression@@let p = #Predicate<Int> { $0 > 1 }@@Foundation Predicate/Expression: macOS 14/15, iOS 17/18'
  '\.assumeIsolated\b@@MainActor.assumeIsolated { }@@assumeIsolated: macOS 14, iOS 17'
  '\bTask\.immediate|\bTask\(name:@@Task.immediate { }@@immediate and named tasks: macOS 26, iOS 26'
  '\.attoseconds\b|Duration\(attoseconds:@@let a = d.attoseconds@@Duration.attoseconds: macOS 15, iOS 18'
  'withTaskExecutorPreference|TaskExecutor\b@@withTaskExecutorPreference(e) { }@@task executors: macOS 15, iOS 18'
  '\bRecurrenceRule\b@@let r: Calendar.RecurrenceRule@@Calendar.RecurrenceRule: macOS 15, iOS 18'
)
# APIs that exist on macOS (and Linux) but not on iOS: only the executable may use them.
not_on_ios=(
  '\bProcess\(\)|\bNSTask\b@@let p = Process()@@Process (NSTask): macOS only'
  'homeDirectoryForCurrentUser@@let h = FileManager.default.homeDirectoryForCurrentUser@@FileManager.homeDirectoryForCurrentUser: macOS only'
  '\bHost\.current|\bNSWorkspace\b@@let h = Host.current()@@Host/NSWorkspace: macOS only'
)
# Linux-only behaviour.
linux_only=(
  '/proc/@@let s = try String(contentsOfFile: "/proc/self/status")@@reads /proc, which only Linux has (use getrusage, Bundle, ...)'
  '^import Glibc|^import Musl@@import Glibc@@unguarded Glibc/Musl import (wrap in #if canImport(Glibc))'
)

findings=0
scan() { # scan LABEL PATTERN-LIST-NAME FILES...
  local label="$1" list="$2"
  shift 2
  local -n entries="$list"
  local entry pattern what
  for entry in "${entries[@]}"; do
    pattern="${entry%%@@*}"
    what="${entry##*@@}"
    while IFS= read -r hit; do
      [[ -z "$hit" ]] && continue
      [[ "$hit" == *"platform-api: ok"* ]] && continue
      echo "${hit%%:*}:$(cut -d: -f2 <<<"$hit"): $label: $what"
      findings=$((findings + 1))
    done < <(grep -nHE "$pattern" "$@" 2>/dev/null | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
  done
}

if [[ "${1:-}" == "--self-test" ]]; then
  for list in newer_apis not_on_ios linux_only; do
    declare -n entries="$list"
    for entry in "${entries[@]}"; do
      pattern="${entry%%@@*}"
      example="${entry#*@@}"
      example="${example%%@@*}"
      if ! grep -qE "$pattern" <<<"$example"; then
        echo "self-test: pattern '$pattern' does not catch '$example'" >&2
        exit 1
      fi
    done
    unset -n entries
  done
  echo "self-test: every pattern catches its example"
  exit 0
fi

mapfile -t all_swift < <(find Sources Tests Plugins -name '*.swift' | sort)
mapfile -t library_swift < <(find Sources -name '*.swift' -not -path 'Sources/bgsim/*' | sort)
scan "newer than macOS 13/iOS 16" newer_apis "${all_swift[@]}"
scan "not available on iOS" not_on_ios "${library_swift[@]}"
mapfile -t scripts < <(find scripts .ci -type f -not -name check-platform-apis.sh | sort)
scan "Linux only" linux_only "${all_swift[@]}" "${scripts[@]}"
if [[ $findings -gt 0 ]]; then
  echo "$findings use(s) of APIs the declared platforms (macOS 13, iOS 16) lack; see scripts/check-platform-apis.sh" >&2
  exit 1
fi
echo "platform APIs: ok (${#all_swift[@]} Swift files; library targets checked for iOS)"
