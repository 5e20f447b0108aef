#!/usr/bin/env bash
# Builds a portable bgsim: a release build with the Swift runtime, Foundation and Dispatch
# linked in (--static-swift-stdlib), so it runs on a Linux machine without Swift installed.
#
#   scripts/build-static.sh [OUT_DIR]      (default: dist; prints the binary's path)
#
# The binary then needs only the system's C and C++ libraries (glibc, libstdc++, libgcc_s,
# libm) of a glibc at least as new as the build machine's: build on the oldest distribution
# you run on (the Dockerfile builds on Debian 12 and ships on Debian 12). The script checks
# that no libswift*/libFoundation*/libdispatch library is needed and that the binary runs.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"

# The portable tool leaves out the Foundation bridge (only `bench bridge` uses it; statically
# linked FoundationNetworking would need libcurl): see Package.swift.
export BGSIM_PORTABLE=1
swift build -c release --static-swift-stdlib >&2
binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/bgsim"
mkdir -p "$out"
cp "$binary" "$out/bgsim"
binary="$out/bgsim"

needed="$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort)"
if grep -qiE 'swift|foundation|dispatch|BlocksRuntime|icu' <<<"$needed"; then
  echo "build-static: FAIL: $binary still needs Swift libraries:" $needed >&2
  exit 1
fi
for library in $needed; do
  case "$library" in
    libc.so.* | libm.so.* | libstdc++.so.* | libgcc_s.so.* | ld-linux*.so.* | libpthread.so.* | libdl.so.* | librt.so.* | libutil.so.*) ;;
    *) echo "build-static: FAIL: $binary needs $library, not a system C/C++ library" >&2; exit 1 ;;
  esac
done
# Run it with no Swift library path, from an empty environment.
version="$(env -i "$binary" --version)"
echo "build-static: $binary ($(du -h "$binary" | cut -f1)): $version; needs only" $needed >&2
echo "$binary"
