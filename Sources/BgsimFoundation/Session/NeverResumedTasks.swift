import SimKernel
import TransferEngine

/// Tasks the app made and has not resumed: a task does nothing until `resume()`, and a manager
/// that recreates its tasks (from resume data after a force quit, say) and forgets to resume them
/// loses the downloads without any error. Each such task is the lint `taskNeverResumed`, once:
/// when its process ends with it unresumed, or once it has waited `grace` of simulated time, at
/// the next moment the simulation enters the bridge (a delegate call, a launch, an app timer).
/// Kept by the host, so a task outlives the process objects that made it.
final class NeverResumedTasks: @unchecked Sendable {
  /// How long a task may wait for `resume()` before it is linted while its process lives.
  static let grace = SimDuration.minutes(10)

  private struct Waiting {
    weak var core: TaskCore?
    let number: Int
    let createdAt: SimTime
    let task: String
    let url: String
  }
  private var waiting: [ObjectIdentifier: Waiting] = [:]
  private var made = 0

  /// A task the bridge made for the app (refused tasks, which never run, are not counted).
  func made(_ core: TaskCore, at now: SimTime) {
    guard let engine = core.engine else { return }
    made += 1
    waiting[ObjectIdentifier(core)] = Waiting(
      core: core, number: made, createdAt: now, task: engine.name, url: engine.originalURL.string)
  }

  /// `resume()` was called (or the task was cancelled): it is no longer waiting.
  func handled(_ core: TaskCore) {
    if !waiting.isEmpty { waiting[ObjectIdentifier(core)] = nil }
  }

  /// Lints the tasks that waited `grace`, or every waiting one when the process ended.
  func check(_ simulation: Simulation?, processEnded: Bool) {
    guard !waiting.isEmpty, let simulation else { return }
    let now = simulation.now
    let due = waiting.filter { _, entry in
      guard let core = entry.core, core.engine?.state == .suspended else { return true }
      return processEnded || now - entry.createdAt >= Self.grace
    }
    for (key, entry) in due.sorted(by: { $0.value.number < $1.value.number }) {
      waiting[key] = nil
      guard let core = entry.core, core.engine?.state == .suspended else { continue }
      let waited = (now - entry.createdAt).readable
      let when =
        processEnded ? "its process ended \(waited) after the app made it" : "it has waited \(waited)"
      simulation.bridgeLint(
        .taskNeverResumed,
        "task '\(entry.task)' (\(entry.url)) was made and never resumed: \(when). A task does nothing until "
          + "resume() is called; resume the tasks the app recreates (from resume data too), or cancel them",
        [TraceField("task", .string(entry.task))])
    }
  }
}
