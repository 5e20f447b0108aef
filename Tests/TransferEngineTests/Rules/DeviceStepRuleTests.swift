import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The power, server-change, drop-fault and device-unlock rules alone: (step) -> (links after, effects), with
/// no `Simulation`.
@Suite("Rules: power, server changes, drop faults and the unlock after a restart")
struct DeviceStepRuleTests {
  @Test(
    "a power step is applied, traced with every field, and re-decides waiting tasks",
    arguments: [
      PowerState(), PowerState(charging: true, battery: 0.25, lowPowerMode: false),
      PowerState(charging: false, battery: 0.1, lowPowerMode: true),
    ])
  func power(_ next: PowerState) {
    var links = Links(server: ServerModel())
    var effects = EffectBuffer()
    PowerChangeRule.apply(next, to: &links, into: &effects)
    #expect(links.power == next)
    #expect(
      effects.effects == [
        .trace(
          .powerChange,
          [
            TraceField("charging", .bool(next.charging)), TraceField("battery", .double(next.battery)),
            TraceField("lowPowerMode", .bool(next.lowPowerMode)),
          ]),
        .reevaluateWaiting,
      ])
  }

  static let url = SimURL("https://example.com/a.bin")!

  /// (change, the fields traced after the URL).
  static let serverTable: [(ServerChange, [TraceField])] = [
    (ServerChange(at: .zero, url: url), []),
    (ServerChange(at: .zero, url: url, etag: .some("v2")), [TraceField("etag", .string("v2"))]),
    (ServerChange(at: .zero, url: url, etag: .some(nil)), [TraceField("etag", .string("none"))]),
    (
      ServerChange(at: .zero, url: url, etag: .some("v3"), size: 2048, status: 503),
      [TraceField("etag", .string("v3")), TraceField("size", .int(2048)), TraceField("status", .int(503))]
    ),
  ]

  @Test(
    "a server change is applied and traced with the fields it sets; nothing else follows",
    arguments: serverTable)
  func server(_ change: ServerChange, _ extra: [TraceField]) {
    var links = Links(server: ServerModel())
    var effects = EffectBuffer()
    ServerChangeRule.apply(change, to: &links, into: &effects)
    #expect(effects.effects == [.trace(.serverChange, [TraceField("url", .string(Self.url.string))] + extra)])
    if let status = change.status { #expect(links.server.status(for: Self.url, at: .zero) == status) }
  }

  /// (drops, transfers' hosts by uid, uids cut, drops left for later connections).
  static let dropTable: [(Int, [(Int32, String)], [Int32], Int)] = [
    (2, [(1, "a.example"), (2, "b.example"), (3, "a.example"), (5, "a.example")], [1, 3], 0),
    (3, [(2, "b.example"), (4, "a.example")], [4], 2),
    (1, [(2, "b.example")], [], 1),
    (2, [], [], 2),
  ]

  @Test(
    "a drop fault cuts the running transfers it targets, in uid order, while drops are left",
    arguments: dropTable)
  func dropFault(_ times: Int, _ running: [(Int32, String)], _ cut: [Int32], _ left: Int) {
    let fault = ServerFault.dropConnection(at: .zero, target: .host("a.example"), times: times)
    var links = Links(server: ServerModel(faults: [fault]))
    var effects = EffectBuffer()
    let transfers = running.map { DropFaultRule.Transfer(uid: $0.0, url: SimURL("https://\($0.1)/f")!) }
    DropFaultRule.apply(fault: 0, to: &links, activeTransfers: transfers, into: &effects)
    #expect(
      effects.effects
        == cut.map { .interrupt(uid: $0, reason: "connectionDropped", retryNow: false) } + [.rescheduleLinks])
    // The drops left over cut later connections to the target, then none.
    let later = SimURL("https://a.example/later")!
    var taken = 0
    while links.takeDrop(for: later) && taken <= times { taken += 1 }
    #expect(taken == left)
  }

  @Test(
    "the first unlock after a restart is traced, re-decides waiting tasks and asks for a wake check; only once"
  )
  func unlock() {
    var links = Links(server: ServerModel())
    var effects = EffectBuffer()
    // Never restarted: nothing to unlock.
    DeviceUnlockRule.apply(to: &links, into: &effects)
    #expect(effects.isEmpty)
    _ = links.restart()
    #expect(links.lockedSinceRestart)
    DeviceUnlockRule.apply(to: &links, into: &effects)
    #expect(effects.effects == [.trace(.deviceUnlock, []), .reevaluateWaiting, .requestWakeCheck])
    #expect(!links.lockedSinceRestart)
    effects.removeAll()
    DeviceUnlockRule.apply(to: &links, into: &effects)
    #expect(effects.isEmpty)
  }
}
