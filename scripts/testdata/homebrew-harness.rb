# Loads deploy/homebrew/bgsim.rb with a small stand-in for Homebrew's formula DSL (Homebrew
# itself does not run on Linux CI), so a misspelt DSL call fails here, and checks what the
# formula would do:
#   ruby scripts/testdata/homebrew-harness.rb FORMULA VERSION [BGSIM_BINARY]
# - the tag in `url` is vVERSION (the version `bgsim --version` prints) and `head` is set;
# - `install` runs `swift build` for the bgsim product in release, with --disable-sandbox on
#   macOS and the portable settings on Linux, and installs the binary and the scenarios;
# - with BGSIM_BINARY, the formula's `test do` block runs against that real binary and the
#   shipped Scenarios (its assertions must hold).
require "open3"
require "pathname"
require "tmpdir"
require "fileutils"

FORMULA_PATH, expected_version, binary = ARGV
formula_path = FORMULA_PATH
abort "usage: homebrew-harness.rb FORMULA VERSION [BGSIM_BINARY]" unless formula_path && expected_version

# The parts of Homebrew's API the formula uses, recording what they are given.
module OS
  @mac = true
  class << self
    attr_accessor :mac

    def mac? = @mac
    def linux? = !@mac
  end
end

class Installed
  attr_reader :items

  def initialize(path) = (@path = Pathname(path); @items = [])
  def install(*items) = @items.concat(items)
  def /(other) = @path / other
  def to_s = @path.to_s
end

class Formula
  class << self
    attr_reader :fields, :test_block

    def record(key, value) = ((@fields ||= Hash.new { |h, k| h[k] = [] })[key] << value)
    def desc(text) = record(:desc, text)
    def homepage(url) = record(:homepage, url)
    def url(url, **options) = record(:url, [url, options])
    def sha256(digest) = record(:sha256, digest)
    def head(url, **options) = record(:head, [url, options])
    def depends_on(spec) = record(:depends_on, spec)
    def uses_from_macos(spec) = record(:uses_from_macos, spec)
    def test(&block) = (@test_block = block)
  end

  attr_reader :commands, :environment, :completions

  def initialize(root) = (@root = Pathname(root); @commands = []; @environment = {}; @completions = [])
  def system(*args) = (@commands << args; true)
  def bin = (@bin ||= Installed.new(@root / "bin"))
  def pkgshare = (@pkgshare ||= Installed.new(@root / "share"))
  def generate_completions_from_executable(*args, **options) = @completions << [args, options]
  def version = self.class.fields[:url].first.first[/v(\d+\.\d+\.\d+)\.tar\.gz\z/, 1]
  def build = Struct.new(:head?).new(false)
  def shell_output(command, expected_status = 0)
    output, status = Open3.capture2e(command)
    raise "`#{command}` exited #{status.exitstatus}, not #{expected_status}:\n#{output}" unless status.exitstatus == expected_status
    output
  end
  def assert_match(pattern, text)
    pattern = Regexp.new(Regexp.escape(pattern)) if pattern.is_a?(String)
    raise "expected #{pattern.inspect} in:\n#{text}" unless pattern.match?(text)
  end
end

def check(condition, message) = (condition or abort("homebrew-harness: #{FORMULA_PATH}: #{message}"))

ENV_BEFORE = ENV.to_h
load formula_path
check(defined?(Bgsim) && Bgsim < Formula, "defines no class Bgsim < Formula")
fields = Bgsim.fields
url = fields[:url].first.first
check(url.end_with?("/archive/refs/tags/v#{expected_version}.tar.gz"),
      "url #{url} is not the tag v#{expected_version} (the version bgsim --version prints)")
check(fields[:sha256].first.match?(/\A\h{64}\z/), "sha256 is not 64 hex digits")
check(fields[:head], "no head URL (brew install --HEAD)")
check(fields[:depends_on].include?({ xcode: ["16.0", :build] }), "does not need Xcode 16 to build")

{ true => ["--disable-sandbox"], false => ["--static-swift-stdlib"] }.each do |mac, flag|
  OS.mac = mac
  ENV.replace(ENV_BEFORE)
  formula = Bgsim.new("/prefix")
  formula.install
  build = formula.commands.find { |command| command.first(2) == %w[swift build] }
  where = mac ? "macOS" : "Linux"
  check(build, "install runs no swift build on #{where}")
  check(build.each_cons(2).include?(["--configuration", "release"]) && build.each_cons(2).include?(["--product", "bgsim"]),
        "install's swift build on #{where} is not a release build of the bgsim product: #{build.inspect}")
  check(flag.all? { |f| build.include?(f) }, "install's swift build on #{where} lacks #{flag.join(' ')}")
  check(mac || ENV["BGSIM_PORTABLE"] == "1", "install does not make the portable build (BGSIM_PORTABLE) on Linux")
  check(formula.bin.items == [".build/release/bgsim"], "installs #{formula.bin.items.inspect}, not .build/release/bgsim")
  check(formula.pkgshare.items == ["Scenarios"], "does not install the shipped Scenarios")
end
ENV.replace(ENV_BEFORE)
check(Bgsim.test_block, "has no test block")
puts "homebrew-harness: #{formula_path} loads; tag v#{expected_version}; install builds and installs bgsim and Scenarios"

if binary
  # The test block against the real tool: bin holds it, pkgshare is the repository.
  Dir.mktmpdir do |dir|
    FileUtils.mkdir_p("#{dir}/bin")
    FileUtils.cp(binary, "#{dir}/bin/bgsim")
    formula = Bgsim.new(dir)
    formula.define_singleton_method(:bin) { Pathname("#{dir}/bin") }
    formula.define_singleton_method(:pkgshare) { Pathname(Dir.pwd) }
    formula.instance_eval(&Bgsim.test_block)
  end
  puts "homebrew-harness: the formula's test block passes against #{binary}"
end
