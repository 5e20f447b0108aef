import SimKernel
import Testing

@testable import TransferEngine

/// Byte accounting in integers: what a flow moved is counted once, by one rounding rule, and
/// never below 0 or above the flow, however the fluid link's floating point lands.
@Suite("Transfer bytes")
struct TransferBytesTests {
  /// A download that starts at `offset` of `size`, on a link.
  static func downloading(size: Int64 = 1_000, offset: Int64 = 0) -> TransferBytes {
    var b = TransferBytes()
    b.downloadResponse(size: size, validator: "v1", offset: offset, resumed: false)
    b.flowJoined(size - offset, up: false)
    return b
  }

  @Test(
    "a flow that leaves with a hair more than it had left moved nothing (not -1)",
    arguments: [0.0, 1e-9, 1e-6, 0.5])
  func leavesAtOnce(_ excess: Double) {
    var b = Self.downloading(offset: 300)
    b.settle(up: false, remaining: 700 + excess)
    #expect(b.received == 300)
    b.flowLeft(remaining: 700 + excess)
    #expect(b.onWire == 0)
  }

  @Test("settle and leave use the same rule: a partly moved byte is not yet moved")
  func sameRule() {
    var b = Self.downloading()
    b.settle(up: false, remaining: 399.25)
    #expect(b.received == 600)
    b.flowLeft(remaining: 399.25)
    #expect(b.onWire == 600)
    #expect(b.onWire == b.received + b.wasted)
  }

  @Test("a stall then the rest of the body: every byte on the wire is a byte received")
  func stallThenFinish() {
    var b = Self.downloading()
    b.settle(up: false, remaining: 750.0000001)
    b.flowStalled(remaining: 750.0000001)
    #expect(b.received == 249 && b.onWire == 249 && b.flowBytes == 0)
    b.flowJoined(1_000 - b.received, up: false)
    b.flowFinished()
    b.responseReceived(isDownload: true)
    #expect(b.received == 1_000 && b.onWire == 1_000)
  }

  @Test("a restart at 0 wastes what was received; the books still balance")
  func restart() {
    var b = Self.downloading()
    b.settle(up: false, remaining: 500)
    b.flowLeft(remaining: 500)
    b.downloadResponse(size: 1_000, validator: "v2", offset: 0, resumed: false)
    b.flowJoined(1_000, up: false)
    b.flowFinished()
    b.responseReceived(isDownload: true)
    #expect(b.wasted == 500 && b.onWire == 1_500 && b.onWire == b.received + b.wasted)
  }

  @Test("an upload: body up, response down, progress discarded at an interruption")
  func upload() {
    var b = TransferBytes()
    b.flowJoined(2_000, up: true)
    b.settle(up: true, remaining: 1_500)
    b.flowLeft(remaining: 1_500)
    b.discardUploadProgress()
    #expect(b.sent == 0 && b.wasted == 500 && b.onWire == 500)
    b.flowJoined(2_000, up: true)
    b.flowFinished()
    b.uploadSent(size: 2_000, responseBody: 100)
    b.flowJoined(100, up: false)
    b.flowFinished()
    b.responseReceived(isDownload: false)
    #expect(b.onWire == b.sent + b.received + b.wasted)
  }
}
