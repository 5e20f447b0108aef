# Homebrew formula: builds bgsim from a release tag's source with the Swift toolchain
# (Xcode 16 or later on macOS, Homebrew's swift on Linux) and installs the tool and the shipped
# scenarios. Homebrew installs formulae from taps only, so put this file in one (README.md,
# "Getting bgsim on your PATH"). At each release, set `url` to the new tag and `sha256` to
# `shasum -a 256` of that tarball; scripts/check-deploy.sh checks the tag matches the version
# `bgsim --version` prints.
class Bgsim < Formula
  desc "Deterministic simulator of the iOS background transfer system"
  homepage "https://github.com/bgsim/bgsim"
  url "https://github.com/bgsim/bgsim/archive/refs/tags/v0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  head "https://github.com/bgsim/bgsim.git", branch: "main"

  # Swift 6 (Package.swift's tools version 6.0); Xcode 16 also implies a macOS newer than the
  # macOS 13 the sources need.
  depends_on xcode: ["16.0", :build]
  uses_from_macos "swift" => :build

  def install
    args = if OS.mac?
      # SwiftPM's own sandbox cannot nest inside Homebrew's.
      ["--disable-sandbox"]
    else
      # The portable build: the Swift runtime linked in, without the Foundation bridge, whose
      # static FoundationNetworking would need libcurl (scripts/build-static.sh does the same).
      ENV["BGSIM_PORTABLE"] = "1"
      ["--static-swift-stdlib"]
    end
    system "swift", "build", *args, "--configuration", "release", "--product", "bgsim"
    bin.install ".build/release/bgsim"
    pkgshare.install "Scenarios"
    generate_completions_from_executable(bin/"bgsim", "completion", shells: [:bash, :zsh, :fish])
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/bgsim --version") unless build.head?
    scenario = pkgshare/"Scenarios/relaunch-after-termination.json"
    assert_match "6 of 6 expectations hold", shell_output("#{bin}/bgsim run #{scenario} --quiet")
    assert_match "1 passed, 0 failed", shell_output("#{bin}/bgsim check #{scenario}")
  end
end
