import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The power and server-change rules alone: (step) -> (links after, effects), with no
/// `Simulation`.
@Suite("Rules: power and server changes")
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
}
