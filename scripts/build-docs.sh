#!/usr/bin/env bash
# Builds the DocC archives of the library modules a user imports, with the toolchain's own
# `docc` (the package takes no dependencies, so not swift-docc-plugin), and fails on any public
# symbol without a doc comment or any DocC warning:
#
#   scripts/build-docs.sh [OUT_DIR]      # default .build-docs; writes OUT_DIR/MODULE.doccarchive
#
# 1. The modules are .spi.yml's `documentation_targets`, one a line, so the Swift Package Index
#    and this script document the same list; each has its catalog in Sources/MODULE/MODULE.docc.
# 2. `swift package dump-symbol-graph` builds the package (the debug build `swift build`
#    makes, so after it this step is quick) and writes each module's public symbol graph.
# 3. scripts/check-doc-comments.py lists every public symbol without a doc comment and fails;
#    each article's Swift code must type-check against the built modules.
# 4. `docc convert --warnings-as-errors` turns each catalog and symbol graph into an archive.
# Open an archive with `open OUT_DIR/TransferEngine.doccarchive` (Xcode), or serve one module's
# pages with `docc preview` (README.md, "API documentation").
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build-docs}"

modules=()
while read -r module; do modules+=("$module"); done < <(
  awk '/documentation_targets:/ {inside = 1; next} inside && /^ *- / {print $2; next} inside {inside = 0}' .spi.yml)
if ((${#modules[@]} == 0)); then
  echo "build-docs: .spi.yml lists no documentation_targets" >&2
  exit 1
fi

# docc ships with the toolchain: beside `swift` on Linux, through xcrun with Xcode.
if command -v docc >/dev/null; then
  docc=(docc)
elif [[ -x "$(dirname "$(readlink -f "$(command -v swift)")")/docc" ]]; then
  docc=("$(dirname "$(readlink -f "$(command -v swift)")")/docc")
elif command -v xcrun >/dev/null && xcrun --find docc >/dev/null 2>&1; then
  docc=(xcrun docc)
else
  echo "build-docs: no docc in the Swift toolchain (it ships with Swift 5.6 and later)" >&2
  exit 1
fi

python3 scripts/check-doc-comments.py --self-test >/dev/null
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
graphs="$(sed -n 's/^Files written to //p' "$log" | tail -1)"
if [[ ! -d "$graphs" ]]; then
  echo "build-docs: swift package dump-symbol-graph did not say where it wrote the graphs:" >&2
  cat "$log" >&2
  exit 1
fi
python3 scripts/check-doc-comments.py "$graphs" "${modules[@]}"

# Each article's ```swift blocks, in order, are one program that must type-check against the
# modules just built, so the articles cannot drift from the API (as ReadmeExampleTests does for
# the README).
products="$(swift build --show-bin-path)"
modules_dir="$products/Modules"
[[ -d "$modules_dir" ]] || modules_dir="$products"
program="$(mktemp -d)"
trap 'rm -f "$log"; rm -rf "$program"' EXIT
for module in "${modules[@]}"; do
  for article in "Sources/$module/$module.docc"/*.md; do
    [[ -e "$article" ]] || continue
    awk '/^```swift[[:space:]]*$/ {inside = 1; next} /^```/ {if (inside) {inside = 0; print ""}; next} inside {print}' \
      "$article" >"$program/main.swift"
    [[ -s "$program/main.swift" ]] || continue
    if ! (cd "$program" && swiftc -typecheck -swift-version 6 -I "$modules_dir" main.swift) >"$log" 2>&1; then
      cat "$log" >&2
      echo "build-docs: the Swift code of $article does not compile (above; its blocks in order are one program)" >&2
      exit 1
    fi
  done
done

mkdir -p "$out"
for module in "${modules[@]}"; do
  catalog="Sources/$module/$module.docc"
  if [[ ! -d "$catalog" ]]; then
    echo "build-docs: $module has no catalog $catalog (a landing page $module.md at least)" >&2
    exit 1
  fi
  # Only this module's graphs: its own and those of its extensions to other modules' types.
  mkdir -p "$out/symbol-graphs/$module"
  rm -f "$out/symbol-graphs/$module"/*.json
  cp "$graphs/$module.symbols.json" "$out/symbol-graphs/$module/"
  find "$graphs" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$out/symbol-graphs/$module/" \;
  rm -rf "$out/$module.doccarchive"
  "${docc[@]}" convert "$catalog" --additional-symbol-graph-dir "$out/symbol-graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.bgsim.$module" \
    --output-path "$out/$module.doccarchive" --warnings-as-errors >"$log" 2>&1 || {
    cat "$log" >&2
    echo "build-docs: docc found problems in $module's documentation (above)" >&2
    exit 1
  }
  echo "build-docs: $out/$module.doccarchive"
done
