import Testing

@testable import TransferEngine

/// The byte arithmetic that used to trap on huge sizes (issue 15): a 2^63-512-byte resource,
/// progress tenths of a 2e18-byte download, sums of bytes on the wire.
@Suite struct SaturatingArithmeticTests {
  @Test func wholeBytesClampsHugeAndNonFiniteRemainders() {
    #expect(TransferBytes.wholeBytes(Double(Int64.max - 511)) == Int64.max)
    #expect(TransferBytes.wholeBytes(1e30) == Int64.max)
    #expect(TransferBytes.wholeBytes(.infinity) == Int64.max)
    #expect(TransferBytes.wholeBytes(.nan) == 0)
    #expect(TransferBytes.wholeBytes(-3) == 0)
    #expect(TransferBytes.wholeBytes(2.1) == 3)
  }

  @Test func tenthsOfAHugeDownloadDoNotOverflow() {
    let size: Int64 = 2_000_000_000_000_000_000
    #expect(TransferBytes.tenths(size / 2, of: size) == 5)
    #expect(TransferBytes.tenths(size, of: size) == 10)
    #expect(TransferBytes.bytes(atTenth: 9, of: size) == 1_800_000_000_000_000_000)
    #expect(TransferBytes.bytes(atTenth: 10, of: Int64.max) == Int64.max)
    #expect(TransferBytes.tenths(999, of: 1000) == 9)
  }

  @Test func sumsSaturate() {
    #expect(TransferBytes.saturatingAdd(5_000_000_000_000_000_000, 5_000_000_000_000_000_000) == Int64.max)
    #expect(TransferBytes.saturatingAdd(Int64.min, -1) == Int64.min)
    #expect(TransferBytes.saturatingAdd(2, 3) == 5)
  }
}
