import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The response's rooms alone: (the server's answer, the task, the app) -> (effects, state after),
/// for `ConnectedRule` and `RedirectDecidedRule`, on an `Engine` built without a `Simulation`.
@Suite("Rules: an attempt's response arrives")
struct ConnectedRuleTests {
  static let url = TransferWorld.url
  static let moved = TransferWorld.moved

  @Test("a 200 puts the download's body on the downlink, its progress and the links armed")
  func downloadBody() {
    let world = TransferWorld([ServerResource(url: Self.url, size: 1_000)])
    let task = world.connecting("f")
    #expect(world.connected(task) == [.armProgress(uid: task.uid), .rescheduleLinks])
    #expect(task.machine.state == .transferring(up: false))
    #expect(task.statusCode == 200)
    #expect(world.engine.links.activeFlows.down == 1)
  }

  @Test("an upload's body goes on the uplink")
  func uploadBody() {
    let world = TransferWorld([ServerResource(url: Self.url, size: 0, method: "POST")])
    let task = world.connecting("u", .upload(fromFile: true, size: 5_000))
    #expect(world.connected(task) == [.armProgress(uid: task.uid), .rescheduleLinks])
    #expect(task.machine.state == .transferring(up: true))
    #expect(world.engine.links.activeFlows.up == 1)
  }

  @Test("an empty body finishes the task at once, with nothing on a link")
  func emptyBody() {
    let world = TransferWorld([ServerResource(url: Self.url, size: 0)])
    let task = world.connecting("f")
    #expect(world.connected(task) == [.finish(uid: task.uid)])
    #expect(world.engine.links.activeFlows.down == 0)
  }

  @Test("a stalled server stalls the body as it joins: its idle timer armed, no progress")
  func stalledServer() {
    let world = TransferWorld(
      [ServerResource(url: Self.url, size: 1_000)],
      faults: [.stall(from: .zero, to: SimTime.zero + .seconds(60), target: .url(Self.url))])
    let task = world.connecting("f")
    let effects = world.connected(task)
    #expect(
      effects == [
        .trace(.taskStalled, [TraceField("task", .string("f")), TraceField("bytes", .int(0))]),
        .armRequestTimeout(
          uid: task.uid, generation: task.machine.generation,
          after: task.session.configuration.timeoutIntervalForRequest),
        .armProgress(uid: task.uid), .rescheduleLinks,
      ])
    #expect(world.engine.links.activeFlows.down == 0)
  }

  @Test("an active drop fault cuts the connection: the background task backs off, the links re-armed")
  func dropped() {
    let world = TransferWorld(
      [ServerResource(url: Self.url, size: 1_000)],
      faults: [.dropConnection(at: .zero, target: .url(Self.url), times: 1)])
    world.engine.links.activateDrop(0)
    let task = world.connecting("f")
    let effects = world.connected(task)
    #expect(
      effects.first
        == .trace(
          .taskInterrupted,
          [
            TraceField("task", .string("f")), TraceField("reason", .string("connectionDropped")),
            TraceField("bytes", .int(0)),
          ]))
    #expect(effects.last == .rescheduleLinks)
    guard case .backingOff = task.machine.state else {
      Issue.record("not backing off: \(task.machine.state)")
      return
    }
    // One drop only: the next attempt connects.
    let droppedAgain = world.engine.links.takeDrop(for: Self.url)
    #expect(!droppedAgain)
  }

  @Test("a redirect is followed: traced, the next request one round trip later")
  func redirect() {
    let world = TransferWorld([
      ServerResource(url: Self.url, size: 0, redirectTo: Self.moved),
      ServerResource(url: Self.moved, size: 10),
    ])
    let task = world.connecting("f")
    #expect(
      world.connected(task) == [
        .trace(
          .taskRedirect,
          [
            TraceField("task", .string("f")), TraceField("from", .string(Self.url.string)),
            TraceField("to", .string(Self.moved.string)),
          ]),
        .schedule(
          .connected(uid: task.uid, generation: task.machine.generation), at: SimTime.zero + world.latency * 2
        ),
      ])
    #expect(task.currentURL == Self.moved)
    #expect(task.redirectsInARow == 1)
    #expect(task.machine.state == .connecting)
  }

  @Test("past maxRedirects in a row the task fails with -1007, still holding its connection")
  func redirectLoop() {
    let world = TransferWorld([
      ServerResource(url: Self.url, size: 0, redirectTo: Self.moved),
      ServerResource(url: Self.moved, size: 0, redirectTo: Self.url),
    ])
    let task = world.connecting("f")
    for _ in 0..<ConnectedRule.maxRedirects { _ = world.connected(task) }
    #expect(task.redirectsInARow == 16)
    #expect(
      world.connected(task) == [
        .failHoldingConnection(uid: task.uid, code: .httpTooManyRedirects), .rescheduleLinks,
      ])
  }

  @Test("a default session's running app is asked about a redirect; the task stays connecting")
  func redirectAsksApp() {
    let world = TransferWorld([ServerResource(url: Self.url, size: 0, redirectTo: Self.moved)])
    _ = world.engine.lifecycle.userLaunch()
    let task = world.connecting("f", sessionKind: .default)
    #expect(world.connected(task) == [.schedule(.deliver(sessionIndex: 0), at: .zero)])
    #expect(task.session.pending.count == 1)
    if case .willPerformHTTPRedirection(let asked, let target, let generation) = task.session.pending.first {
      #expect(asked === task && target == Self.moved && generation == task.machine.generation)
    } else {
      Issue.record("no redirect question queued")
    }
    #expect(task.currentURL == Self.url)
    #expect(task.machine.state == .connecting)
  }

  @Test("while invariants are checked, the response is observed first")
  func observed() {
    let world = TransferWorld([ServerResource(url: Self.url, size: 1_000)])
    world.engine.observing = true
    let task = world.connecting("f")
    #expect(
      world.connected(task) == [
        .observe(.response(uid: task.uid, status: 200)), .armProgress(uid: task.uid), .rescheduleLinks,
      ])
  }

  // MARK: The app's answer about a redirect

  /// The resource answers 301 with no body.
  @Test("the app's answer follows the redirect or takes the 3xx as the response", arguments: [true, false])
  func redirectDecided(_ follow: Bool) {
    let world = TransferWorld([ServerResource(url: Self.url, size: 0, status: 301, redirectTo: Self.moved)])
    let task = world.connecting("f", sessionKind: .default)
    let effects = world.effects {
      RedirectDecidedRule.apply(
        task, to: Self.moved, follow: follow, generation: task.machine.generation, engine: world.engine,
        into: &$0)
    }
    if follow {
      #expect(effects.count == 2)
      #expect(task.currentURL == Self.moved)
      #expect(task.statusCode == nil)
    } else {
      #expect(effects == [.finish(uid: task.uid)])
      #expect(task.currentURL == Self.url)
      #expect(task.statusCode == 301)
    }
  }

  @Test("an answer for an attempt that ended since changes nothing")
  func staleAnswer() {
    let world = TransferWorld([ServerResource(url: Self.url, size: 0, status: 301, redirectTo: Self.moved)])
    let task = world.connecting("f", sessionKind: .default)
    let generation = task.machine.generation
    _ = world.engine.tasks[task].machine.interrupted(at: .zero, retry: world.engine.policy.retry)
    let effects = world.effects {
      RedirectDecidedRule.apply(
        task, to: Self.moved, follow: true, generation: generation, engine: world.engine, into: &$0)
    }
    #expect(effects.isEmpty)
    #expect(task.currentURL == Self.url)
  }
}
