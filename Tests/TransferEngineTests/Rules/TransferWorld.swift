import Foundation
import SimKernel

@testable import TransferEngine

/// An `Engine` on Wi-Fi serving given resources, with tasks brought to their attempt through their
/// state machines: the transfer rooms' table tests, with no `Simulation`.
struct TransferWorld {
  static let url = SimURL("https://files.example/a")!
  static let moved = SimURL("https://files.example/b")!
  let engine: Engine

  init(_ resources: [ServerResource], faults: [ServerFault] = []) {
    engine = Engine(
      policy: .defaults, device: .wifi, server: ServerModel(resources: resources, faults: faults))
    _ = engine.links.apply(NetworkState(interface: .wifi), now: .zero)
  }

  /// The one-way latency of the network: an attempt's round trip is two of these.
  var latency: SimDuration { engine.links.network.latency }

  /// A task of `kind` for `url` in a session `identifier` of `sessionKind` (made on first use,
  /// attached to a session object), resumed: waiting for admission.
  func waiting(
    _ name: String, _ kind: SimURLSessionTask.Kind = .download, url: SimURL = url,
    session identifier: String = "s", sessionKind: SessionConfiguration.Kind = .background
  ) -> SimURLSessionTask {
    let record =
      engine.daemon.sessionRecords.first { $0.identifier == identifier }
      ?? {
        let configuration = SessionConfiguration(identifier: identifier, kind: sessionKind)
        let record = engine.daemon.addSession(configuration, simulation: nil)
        record.attach(
          SimURLSession(
            configuration: configuration, delegate: nil, record: record, simulation: nil, owner: .app))
        return record
      }()
    let task = SimURLSessionTask(
      in: engine.tasks, taskIdentifier: record.nextIdentifier(), kind: kind, url: url,
      session: record, name: name, createdInBackground: false, resumeFrom: nil)
    record.add(task)
    engine.daemon.addTask(task)
    _ = engine.tasks[task].machine.resume()
    return task
  }

  /// `waiting`, then admitted: its attempt is connecting.
  func connecting(
    _ name: String, _ kind: SimURLSessionTask.Kind = .download, url: SimURL = url,
    sessionKind: SessionConfiguration.Kind = .background
  ) -> SimURLSessionTask {
    let task = waiting(name, kind, url: url, sessionKind: sessionKind)
    _ = engine.tasks[task].machine.admit(at: engine.now)
    return task
  }

  /// The effects of `rule` on a fresh buffer.
  func effects(_ rule: (inout EffectBuffer) -> Void) -> [Effect] {
    var buffer = EffectBuffer()
    rule(&buffer)
    return buffer.effects
  }

  /// The response headers of `task` arrive (`ConnectedRule`).
  func connected(_ task: SimURLSessionTask) -> [Effect] {
    effects { ConnectedRule.apply(task, engine: engine, skipsAuthentication: false, into: &$0) }
  }

  /// Moves the clock to the next completion of the `up` direction and runs `LinkCompletedRule`.
  func completeLink(up: Bool) -> [Effect] {
    if let at = engine.links.nextCompletion(up: up) { engine.scheduler.advance(to: at) }
    return effects { LinkCompletedRule.apply(up: up, engine: engine, into: &$0) }
  }
}
