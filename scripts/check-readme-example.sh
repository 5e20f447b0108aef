#!/usr/bin/env bash
# Compiles and runs the README's Swift example in a fresh consumer package that depends on this
# one by path, the way a team adds bgsim to an app's test target, so the README cannot drift
# from the API.
#
#   scripts/check-readme-example.sh [SCRATCH_DIR]
#
# Every ```swift block of README.md is taken, in order, as one main.swift; the blocks must be
# complete (no "..." elisions). The example must build and exit 0. Takes about a minute when it
# builds the library targets in the consumer's own .build; given SCRATCH_DIR, a build folder
# that already holds a debug build of them as a dependency (CI passes the example packages'
# .build/examples), it builds only the example.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch=()
if [[ $# -gt 0 ]]; then scratch=(--scratch-path "$(cd "$1" && pwd)"); fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/Sources/ReadmeExample"
awk '/^```swift[[:space:]]*$/ {inside=1; next} /^```/ {if (inside) {inside=0; print ""}; next} inside {print}' \
  "$root/README.md" >"$work/Sources/ReadmeExample/main.swift"
if [[ ! -s "$work/Sources/ReadmeExample/main.swift" ]]; then
  echo "error: README.md has no \`\`\`swift block" >&2
  exit 1
fi
if grep -nE '\.\.\.[[:space:]]*[)}\]]|\{ *\.\.\. *\}|\[\.\.\.\]' "$work/Sources/ReadmeExample/main.swift"; then
  echo "error: the README's Swift example has '...' elisions; it must be complete" >&2
  exit 1
fi
cat >"$work/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ReadmeExample",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [.package(name: "bgsim", path: "$root")],
  targets: [
    .executableTarget(
      name: "ReadmeExample",
      dependencies: [
        .product(name: "SimKernel", package: "bgsim"),
        .product(name: "TransferEngine", package: "bgsim"),
        .product(name: "ScenarioKit", package: "bgsim"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
SWIFT
(cd "$work" && swift build -q "${scratch[@]}" 2>&1 | tail -20 && "$(swift build "${scratch[@]}" --show-bin-path)/ReadmeExample")
echo "README example: builds and runs in a consumer package"
