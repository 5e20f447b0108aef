import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the task objects' `resume()`, `suspend()`, `cancel()` and
/// `cancel(byProducingResumeData:)` do: the engine's task, or for a task the bridge refused,
/// Foundation's behaviour (it completes with its error once resumed). Each does nothing once the
/// task's process or its `Simulation` is gone (the engine's task may be gone with it), as code of
/// a dead process never runs on a device; `host` says so once.
extension BridgedSession {
  func resume(_ core: TaskCore, _ task: BridgedTaskObject) {
    guard let host else { return }
    host.noteActivity()
    host.neverResumed.handled(core)
    if let engineTask = core.engine {
      engineTask.resume()
      task.publishChanges()
      return
    }
    // A refused task completes with its error, as Foundation's does, after `resume()`.
    guard core.refusedState == .suspended, let simulation = host.simulation else { return }
    core.refusedState = .running
    task.publishChanges()
    simulation.schedule(at: simulation.now) { [weak self] _ in
      guard let self, let task = self.refusedTask(core) else { return }
      core.refusedState = .completed
      self.deliver {
        task.publishChanges()
        self.complete(task, core, core.refusal)
      }
    }
  }

  func refusedTask(_ core: TaskCore) -> BridgedTaskObject? { refusedTasks[ObjectIdentifier(core)] }

  func suspend(_ core: TaskCore, _ task: BridgedTaskObject) {
    guard let host else { return }
    host.noteActivity()
    core.engine?.suspend()
    task.publishChanges()
  }

  func cancel(_ core: TaskCore, _ task: BridgedTaskObject) {
    guard let host else { return }
    host.noteActivity()
    host.neverResumed.handled(core)
    if let engineTask = core.engine {
      engineTask.cancel()
    } else if core.refusedState == .suspended {
      core.refusedState = .canceling
    }
    task.publishChanges()
  }

  func cancelProducingResumeData(
    _ core: TaskCore, _ task: BridgedTaskObject, _ completion: @escaping (Data?) -> Void
  ) {
    guard let host else { return }
    host.noteActivity()
    host.neverResumed.handled(core)
    guard let engineTask = core.engine else { return post { completion(nil) } }
    var produced: Data?
    engineTask.cancel(byProducingResumeData: { produced = $0 })
    task.publishChanges()
    let data = produced.flatMap {
      host.resumeStore.publish(
        $0, container: host.container, iosVersion: host.simulation?.deviceModel.iosVersion ?? .newest,
        request: core.originalRequest)
    }
    post { completion(data) }
  }
}
