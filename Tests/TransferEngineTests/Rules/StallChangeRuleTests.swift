import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The stall-change rule alone: (fault, time, transfers) -> effects, with no `Simulation`.
@Suite("Rule: a stall fault begins or ends")
struct StallChangeRuleTests {
  typealias Transfer = StallChangeRule.Transfer
  static let server = ServerState(
    model:
      ServerModel(faults: [
        .stall(from: SimTime(.seconds(10)), to: SimTime(.seconds(20)), target: .host("a.example")),
        .dropConnection(at: SimTime(.seconds(10)), target: .host("a.example"), times: 1),
      ]))

  static func transfer(_ uid: Int32, _ host: String, _ stalled: Bool?) -> Transfer {
    Transfer(uid: uid, url: SimURL("https://\(host)/f")!, stalled: stalled)
  }

  /// Transfers: 1 and 4 on the target and moving bytes, 2 on the target and already stalled,
  /// 3 on another host and stalled by nothing, 5 on the target and still connecting.
  static let transfers = [
    transfer(1, "a.example", false), transfer(2, "a.example", true), transfer(3, "b.example", false),
    transfer(4, "a.example", false), transfer(5, "a.example", nil),
  ]

  /// (seconds, effects): at the start the flowing targets stall, at the end the stalled ones flow.
  static let table: [(Int64, [Effect])] = [
    (10, [.stall(uid: 1), .stall(uid: 4), .rescheduleLinks]),
    (15, [.stall(uid: 1), .stall(uid: 4), .rescheduleLinks]),
    (20, [.unstall(uid: 2), .rescheduleLinks]),
  ]

  @Test(
    "each targeted transfer stalls or flows by its own effect, in uid order; a connecting one and another host's are left alone",
    arguments: table)
  func change(_ seconds: Int64, _ expected: [Effect]) {
    var effects = EffectBuffer()
    StallChangeRule.apply(
      fault: 0, server: Self.server, now: SimTime(.seconds(seconds)), transfers: Self.transfers,
      into: &effects)
    #expect(effects.effects == expected)
  }

  @Test("a fault that is not a stall changes nothing, and no transfer at all only re-arms the links")
  func noStall() {
    var effects = EffectBuffer()
    StallChangeRule.apply(
      fault: 1, server: Self.server, now: SimTime(.seconds(10)), transfers: Self.transfers, into: &effects)
    #expect(effects.isEmpty)
    StallChangeRule.apply(
      fault: 0, server: Self.server, now: SimTime(.seconds(10)), transfers: [], into: &effects)
    #expect(effects.effects == [.rescheduleLinks])
  }
}
