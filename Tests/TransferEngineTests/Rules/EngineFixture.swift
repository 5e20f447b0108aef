import Foundation
import SimKernel

@testable import TransferEngine

/// An `Engine` with session records and tasks made directly, for rules' table tests: no
/// `Simulation`, no app.
struct EngineFixture {
  let engine: Engine

  init(backgroundAppRefresh: Bool = true, policy: Policy = .defaults) {
    var device = DeviceModel.wifi
    device.backgroundAppRefresh = backgroundAppRefresh
    engine = Engine(policy: policy, device: device, server: ServerModel())
  }

  /// A session record, attached to a session object of `owner` unless `attached` is false.
  @discardableResult
  func session(
    _ identifier: String, kind: SessionConfiguration.Kind = .background, owner: SessionOwner = .app,
    attached: Bool = true
  ) -> DaemonSession {
    var configuration = SessionConfiguration(identifier: identifier, kind: kind)
    if owner != .app { configuration.sharedContainerIdentifier = "group.example" }
    let record = engine.daemon.addSession(configuration, simulation: nil)
    if attached {
      record.attach(
        SimURLSession(
          configuration: configuration, delegate: nil, record: record, simulation: nil, owner: owner))
    }
    return record
  }

  /// A task of `kind` in `record`, created (not resumed).
  @discardableResult
  func task(_ name: String, _ kind: SimURLSessionTask.Kind, in record: DaemonSession) -> SimURLSessionTask {
    let task = SimURLSessionTask(
      in: engine.tasks, taskIdentifier: record.nextIdentifier(), kind: kind,
      url: SimURL("https://example.com/\(name)")!, session: record, name: name, createdInBackground: false,
      resumeFrom: nil)
    record.add(task)
    engine.daemon.addTask(task)
    return task
  }
}
