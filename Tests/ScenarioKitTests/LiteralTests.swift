import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// Every literal form of scenario-format.md, valid and invalid, with the exact message.
@Suite struct LiteralTests {
  @Test(
    arguments: [
      ("0s", 0), ("30s", 30_000_000_000), ("250ms", 250_000_000), ("1h30m", 5_400_000_000_000),
      ("2m0.5s", 120_500_000_000), ("1.5ms", 1_500_000), ("7d", 604_800_000_000_000), ("10us", 10_000),
      ("5ns", 5),
      ("0.000000001s", 1), ("0.3s", 300_000_000), ("1d2h3m4s5ms6us7ns", 93_784_005_006_007),
      ("0.25h", 900_000_000_000),
      // The 128-bit arithmetic: the largest duration, and mantissas beyond 2^64 scaled back down.
      ("3650d", 315_360_000_000_000_000), ("315360000000000000ns", 315_360_000_000_000_000),
      ("1.00000000000000000000s", 1_000_000_000),
      ("123456789012.345678000000ms", 123_456_789_012_345_678),
    ] as [(String, Int64)])
  func durationStrings(text: String, nanoseconds: Int64) throws {
    #expect(try Literals.duration(text) == SimDuration(nanoseconds: nanoseconds))
  }

  @Test(
    arguments: [
      ("90", 90_000_000_000), ("0.1", 100_000_000), ("1e3", 1_000_000_000_000), ("1.5e-3", 1_500_000),
      ("0", 0),
    ] as [(String, Int64)])
  func bareNumbersAreSeconds(text: String, nanoseconds: Int64) throws {
    let number = JSONNumber(text: text, isInteger: !text.contains(".") && !text.contains("e"))
    #expect(try Literals.duration(seconds: number) == SimDuration(nanoseconds: nanoseconds))
  }

  @Test(arguments: [
    ("-5s", "negative duration \"-5s\"; a duration must be 0 or more"),
    ("5sec", "unknown unit 'sec' in duration \"5sec\"; units are ns, us, ms, s, m, h, d"),
    ("5S", "unknown unit 'S' in duration \"5S\"; did you mean 's'? units are ns, us, ms, s, m, h, d"),
    (
      "5",
      "missing unit after '5' in duration \"5\"; units are ns, us, ms, s, m, h, d "
        + "(a bare JSON number, without quotes, means seconds)"
    ),
    ("", "expected a duration like \"30s\", \"250ms\" or \"1h30m\", found an empty string"),
    ("h", "expected a number before 'h' in duration \"h\"; write it like \"30s\""),
    ("1.s", "'1.' in duration \"1.s\" is not a number"),
    ("1..5s", "'1..5' in duration \"1..5s\" is not a number"),
    ("0.5ns", "duration \"0.5ns\" is finer than a nanosecond (in the 'ns' part)"),
    ("300000d", "duration \"300000d\" is too large; durations are at most 3650d (about 10 years)"),
    (
      "9223372036.854775808s",
      "duration \"9223372036.854775808s\" is too large; durations are at most 3650d (about 10 years)"
    ),
    (
      "0.0000000000000000000000000000000001s",
      "duration \"0.0000000000000000000000000000000001s\" is finer than a nanosecond (in the 's' part)"
    ),
    (
      "200000d200000d",
      "duration \"200000d200000d\" is too large; durations are at most 3650d (about 10 years)"
    ),
    ("3651d", "duration \"3651d\" is too large; durations are at most 3650d (about 10 years)"),
    ("5 s", "duration \"5 s\" contains spaces; write it without them, like \"30s\""),
    ("10Mbs", "unknown unit 'Mbs' in duration \"10Mbs\"; units are ns, us, ms, s, m, h, d"),
  ])
  func invalidDurations(text: String, message: String) {
    #expect(throws: LiteralError(message)) { try Literals.duration(text) }
  }

  @Test func negativeBareNumberIsRejected() {
    #expect(throws: LiteralError("negative duration -5; a duration must be 0 or more")) {
      try Literals.duration(seconds: JSONNumber(text: "-5", isInteger: true))
    }
  }

  @Test func instants() throws {
    #expect(try Literals.instant("20m", allowRelative: false) == .absolute(SimTime(.minutes(20))))
    #expect(try Literals.instant("+30s", allowRelative: true) == .relative(.seconds(30)))
    #expect(try Literals.instant("1h", allowRelative: true) == .absolute(SimTime(.hours(1))))
    #expect(
      throws: LiteralError(
        "relative instant \"+30s\" is not allowed here; write a time since the scenario's start such as \"30s\" "
          + "(only earliestBegin accepts \"+...\")")
    ) { try Literals.instant("+30s", allowRelative: false) }
    #expect(throws: LiteralError("negative duration \"-30s\"; a duration must be 0 or more")) {
      try Literals.instant("+-30s", allowRelative: true)
    }
  }

  @Test(
    arguments: [
      ("512B", 512), ("1KB", 1_000), ("50MB", 50_000_000), ("2GB", 2_000_000_000), ("1KiB", 1_024),
      ("1.5MB", 1_500_000), ("1.5MiB", 1_572_864), ("3GiB", 3_221_225_472), ("0B", 0), ("0.5KiB", 512),
    ] as [(String, Int64)])
  func sizes(text: String, bytes: Int64) throws {
    #expect(try Literals.size(text) == bytes)
  }

  @Test(arguments: [
    ("5mb", "unknown unit 'mb' in size \"5mb\"; did you mean 'MB'? units are B, KB, MB, GB, KiB, MiB, GiB"),
    ("1.5B", "size \"1.5B\" is not a whole number of bytes"),
    ("-1MB", "negative size \"-1MB\"; a size must be 0 or more"),
    ("1024", "missing unit after '1024' in size \"1024\"; units are B, KB, MB, GB, KiB, MiB, GiB"),
    ("1MB2MB", "expected a size like 1024 (bytes), \"50MB\" or \"1.5GiB\", found \"1MB2MB\""),
    ("99999999999GB", "size \"99999999999GB\" is too large; sizes are at most 1024GiB (1099511627776 bytes)"),
    ("1025GiB", "size \"1025GiB\" is too large; sizes are at most 1024GiB (1099511627776 bytes)"),
    ("5TB", "unknown unit 'TB' in size \"5TB\"; units are B, KB, MB, GB, KiB, MiB, GiB"),
    ("5 MB", "size \"5 MB\" contains spaces; write it without them, like \"50MB\""),
  ])
  func invalidSizes(text: String, message: String) {
    #expect(throws: LiteralError(message)) { try Literals.size(text) }
  }

  @Test(
    arguments: [
      ("20Mbps", 20e6), ("500kbps", 500e3), ("1Gbps", 1e9), ("800bps", 800), ("2MB/s", 16e6),
      ("500KB/s", 4e6),
      ("1KiB/s", 8_192), ("1.5Mbps", 1.5e6), ("0bps", 0), ("1MiB/s", 8_388_608),
    ] as [(String, Double)])
  func rates(text: String, bitsPerSecond: Double) throws {
    #expect(try Literals.rate(text) == DataRate(bitsPerSecond: bitsPerSecond))
  }

  @Test(arguments: [
    (
      "20mbps",
      "unknown unit 'mbps' in rate \"20mbps\"; did you mean 'Mbps'? "
        + "units are bps, kbps, Mbps, Gbps, B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s"
    ),
    ("-1Mbps", "negative rate \"-1Mbps\"; a rate must be 0 or more"),
    (
      "20",
      "missing unit after '20' in rate \"20\"; units are bps, kbps, Mbps, Gbps, B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s"
    ),
    ("fast", "expected a number before 'fast' in rate \"fast\"; write it like \"20Mbps\""),
  ])
  func invalidRates(text: String, message: String) {
    #expect(throws: LiteralError(message)) { try Literals.rate(text) }
  }

  @Test func formattedDurationsParseBack() throws {
    for ns: Int64 in [
      1, 999, 1_000, 1_500_000, 250_000_000, 1_000_000_000, 5_400_000_000_000, 93_784_005_006_007,
    ] {
      let d = SimDuration(nanoseconds: ns)
      #expect(try Literals.duration(d.formatted) == d)
    }
  }

  @Test(
    arguments: [
      ("forcequit", ["launch", "forceQuit"], "forceQuit"), ("dwnload", ["download", "upload"], "download"),
      ("xyz", ["download", "upload"], nil), ("hodl", ["hold", "fleet"], "hold"), ("", ["a"], nil),
      ("MySesion", ["MySession", "Other"], "MySession"),
      // Equally far by edits: the nearest number, then the nearest character, then the first.
      ("photo-6", ["photo-1", "photo-2", "photo-3", "photo-4", "photo-5"], "photo-5"),
      ("photo-0", ["photo-1", "photo-2"], "photo-1"),
      ("photo-12", ["photo-19", "photo-11", "photo-13"], "photo-11"),
      ("task-c", ["task-a", "task-b", "task-x"], "task-b"), ("sesion", ["session", "sessions"], "session"),
    ] as [(String, [String], String?)])
  func suggestions(word: String, candidates: [String], expected: String?) {
    #expect(Suggestion.didYouMean(word, among: candidates) == expected)
  }
}
