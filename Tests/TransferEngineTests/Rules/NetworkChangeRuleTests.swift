import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The network-change rule alone: (network before, step, transfers) -> effects, with no
/// `Simulation`.
@Suite("Rule: network change")
struct NetworkChangeRuleTests {
  typealias Rule = NetworkChangeRule
  static let wifi = NetworkState(interface: .wifi)
  static let fasterWifi = NetworkState(interface: .wifi, down: .megabitsPerSecond(500))
  static let cellular = NetworkState(interface: .cellular)
  static let constrainedWifi = NetworkState(interface: .wifi, constrained: true)

  static let background = SessionConfiguration.background(withIdentifier: "bg")
  static let foreground = SessionConfiguration.default()
  static var wifiOnly: SessionConfiguration {
    var c = SessionConfiguration.background(withIdentifier: "wifi-only")
    c.allowsCellularAccess = false
    return c
  }
  static var unconstrainedOnly: SessionConfiguration {
    var c = SessionConfiguration.background(withIdentifier: "unconstrained")
    c.allowsConstrainedNetworkAccess = false
    return c
  }

  /// Runs the rule from `before` to `next` with `transfers` holding connections; returns the
  /// effects and whether the rule asked for the transfers.
  static func run(
    from before: NetworkState, to next: NetworkState, _ transfers: [Rule.Transfer]
  ) -> (effects: [Effect], scanned: Bool) {
    var links = Links(server: ServerModel())
    _ = links.apply(before, now: .zero)
    var sessions: [String: Rule.Session] = [:]
    for t in transfers {
      sessions[
        t.configuration.identifier, default: Rule.Session(activeTransfers: 0, configuration: t.configuration)
      ]
      .activeTransfers += 1
    }
    var effects = EffectBuffer()
    var scanned = false
    Rule.apply(
      next, to: &links, now: SimTime(.seconds(1)),
      sessions: sessions.keys.sorted().map { sessions[$0]! },
      activeTransfers: {
        scanned = true
        return transfers
      }, into: &effects)
    #expect(links.network == next)
    return (effects.effects, scanned)
  }

  static func transfer(_ uid: Int32, _ configuration: SessionConfiguration, resumed: Int? = nil)
    -> Rule.Transfer
  {
    Rule.Transfer(uid: uid, resumeSequence: resumed ?? Int(uid), configuration: configuration)
  }

  static let tail: [Effect] = [.rescheduleLinks, .reevaluateWaiting]

  @Test("a rate-only step re-rates and re-decides, without scanning the transfers")
  func rateOnly() {
    let (effects, scanned) = Self.run(
      from: Self.wifi, to: Self.fasterWifi, [Self.transfer(0, Self.background)])
    #expect(effects == [.trace(.networkChange, Rule.traceFields(Self.fasterWifi))] + Self.tail)
    #expect(!scanned)
  }

  @Test("the trace names the interface, and the rates only when it is up")
  func traceFields() {
    #expect(Rule.traceFields(.offline) == [TraceField("interface", .string("none"))])
    let up = Rule.traceFields(Self.cellular).map(\.key)
    #expect(up == ["interface", "down", "up", "latency", "expensive", "constrained"])
  }

  /// (step, session, effects between the trace and the tail).
  static let cutTable: [(String, NetworkState, SessionConfiguration, [Effect])] = [
    (
      "to an allowed interface: retry there at once, queued again ahead", cellular, background,
      [.interrupt(uid: 3, reason: "interfaceChanged", retryNow: true), .requeueAhead(uid: 3)]
    ),
    (
      "a default session's task: cut (it fails), never queued again", cellular, foreground,
      [.interrupt(uid: 3, reason: "interfaceChanged", retryNow: true)]
    ),
    (
      "to an interface the session may not use: cut, backoff", cellular, wifiOnly,
      [.interrupt(uid: 3, reason: "interfaceChanged", retryNow: false)]
    ),
    (
      "the network is lost: cut, backoff", .offline, background,
      [.interrupt(uid: 3, reason: "networkLost", retryNow: false)]
    ),
    (
      "same interface, now one the session may not use: cut", constrainedWifi, unconstrainedOnly,
      [.interrupt(uid: 3, reason: "interfaceNotAllowed", retryNow: false)]
    ),
    ("same interface, still allowed: nothing cut", constrainedWifi, background, []),
  ]

  @Test("a step cuts the transfers the new network cannot carry", arguments: cutTable)
  func cuts(_ name: String, _ next: NetworkState, _ configuration: SessionConfiguration, _ middle: [Effect]) {
    let (effects, _) = Self.run(from: Self.wifi, to: next, [Self.transfer(3, configuration)])
    #expect(effects == [.trace(.networkChange, Rule.traceFields(next))] + middle + Self.tail, "\(name)")
  }

  @Test("tasks retrying on a new interface queue again in resume order, after every cut")
  func retryOrder() {
    let transfers = [
      Self.transfer(1, Self.background, resumed: 7), Self.transfer(2, Self.wifiOnly, resumed: 1),
      Self.transfer(4, Self.background, resumed: 2),
    ]
    let (effects, scanned) = Self.run(from: Self.wifi, to: Self.cellular, transfers)
    #expect(scanned)
    #expect(
      effects == [
        .trace(.networkChange, Rule.traceFields(Self.cellular)),
        .interrupt(uid: 1, reason: "interfaceChanged", retryNow: true),
        .interrupt(uid: 2, reason: "interfaceChanged", retryNow: false),
        .interrupt(uid: 4, reason: "interfaceChanged", retryNow: true),
        .requeueAhead(uid: 4), .requeueAhead(uid: 1),
      ] + Self.tail)
  }
}
