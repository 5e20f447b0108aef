import SimKernel
import Testing

@Suite("SimDuration.formatted")
struct SimDurationFormattingTests {
  @Test(
    "the canonical text form",
    arguments: [
      (Int64(0), "0s"),
      (1, "1ns"),
      (999, "999ns"),
      (1_000, "1us"),
      (1_500, "1.5us"),
      (999_999, "999.999us"),
      (1_000_000, "1ms"),
      (1_500_000, "1.5ms"),
      (1_000_001, "1.000001ms"),
      (250_000_000, "250ms"),
      (999_999_999, "999.999999ms"),
      (1_000_000_000, "1s"),
      (1_500_000_000, "1.5s"),
      (30_000_000_000, "30s"),
      (60_000_000_000, "1m"),
      (90_000_000_000, "1m30s"),
      (3_600_000_000_000, "1h"),
      (5_400_000_000_000, "1h30m"),
      (3_600_000_000_001, "1h0.000000001s"),
      (86_400_000_000_000, "1d"),
      (183_600_500_000_000, "2d3h0.5s"),
      (-250_000_000, "-250ms"),
      (-5_400_000_000_000, "-1h30m"),
      (Int64.max, "106751d23h47m16.854775807s"),
      (Int64.min, "-106751d23h47m16.854775808s"),
    ])
  func formatted(nanoseconds: Int64, text: String) {
    let duration = SimDuration(nanoseconds: nanoseconds)
    #expect(duration.formatted == text)
    #expect(duration.description == text)
  }

  @Test(
    "constructors agree with the text",
    arguments: [
      (SimDuration.milliseconds(250), "250ms"),
      (.microseconds(3), "3us"),
      (.seconds(45), "45s"),
      (.minutes(90), "1h30m"),
      (.hours(49), "2d1h"),
      (.days(7), "7d"),
      (.seconds(rounding: 0.0000000001), "1ns"),
      (.seconds(rounding: 1.25), "1.25s"),
    ])
  func constructors(duration: SimDuration, text: String) {
    #expect(duration.formatted == text)
  }

  @Test("a time prints as its offset from the start")
  func timeDescription() {
    #expect(SimTime(nanoseconds: 3_600_000_000_000).description == "1h")
    #expect((SimTime.zero + .minutes(2)).description == "2m")
  }

  /// What people read: no nanosecond noise from computed completion times, exact where short.
  @Test(
    arguments: [
      (730_100_000_001, "12m10.1s"), (730_099_999_999, "12m10.1s"), (59_999_600_000, "1m"),
      (1_060_000_000, "1.06s"), (1_500_400, "1.5ms"), (1_500_600, "1.501ms"), (999, "999ns"), (0, "0s"),
      (-730_100_000_001, "-12m10.1s"),
      (Int64.max, SimDuration(nanoseconds: 9_223_372_036_854_000_000).formatted),
    ] as [(Int64, String)])
  func readable(nanoseconds: Int64, text: String) {
    #expect(SimDuration(nanoseconds: nanoseconds).readable == text)
  }
}
