import SimKernel

/// Rule: the device restarts (behavior.md, "Device restart").
///
/// The restart is traced with the first unlock's time; the app's process ends (`reboot`), as do
/// the extensions'. Once they are gone (`.restartCutsTransfers`, answered by `cutTransfers`) the
/// transfers in flight are cut: with `reboot.keepsBackgroundTasks` each background transfer
/// retries after the unlock (from its offset when it can), queued again in resume order; without
/// it every background task is lost (`deviceRestarted`). Nothing starts until the first unlock,
/// which is scheduled; then every waiting task is decided again.
enum RebootRule {
  /// Restarts the device in the engine's links, ends the app's and the extensions' processes, and
  /// appends what follows.
  static func apply(engine: Engine, into effects: inout EffectBuffer) {
    let restart = engine.links.restart()
    let unlockAt = engine.now + engine.policy.reboot.unlockAfter
    effects.append(.trace(.deviceReboot, [TraceField("unlockAt", .duration(unlockAt.sinceStart))]))
    if engine.lifecycle.state != .notRunning {
      _ = engine.lifecycle.terminate(byUser: false)
      effects.append(.trace(.appTerminate, [TraceField("reason", .string("reboot"))]))
      // Default sessions' tasks vanish with the process, as at any termination.
      effects.append(.processEnded)
    }
    for name in engine.extensions.endAll() { effects.append(.extensionEndedByRestart(name: name)) }
    effects.append(.restartCutsTransfers(restart: restart, unlockAt: unlockAt))
  }

  /// A transfer or unfinished background task, as the rule sees it.
  struct Task: Equatable {
    var uid: Int32
    /// Its place in resume order, which orders the retries after the unlock.
    var resumeSequence: Int
    var isBackground: Bool
  }

  /// The processes are gone: cuts what the engine still runs (`restart`'s unlock at `unlockAt`).
  static func cutTransfers(
    restart: UInt32, unlockAt: SimTime, engine: Engine, into effects: inout EffectBuffer
  ) {
    let keeps = engine.policy.reboot.keepsBackgroundTasks
    let tasks: [Task]
    if keeps {
      tasks = engine.daemon.activeTransfers().map {
        Task(uid: $0.uid, resumeSequence: $0.resumeSequence, isBackground: $0.session.isBackground)
      }
    } else {
      tasks = engine.daemon.sessionRecords.filter(\.isBackground).flatMap { record in
        record.tasks.filter { !$0.isFinished }.map {
          Task(uid: $0.uid, resumeSequence: $0.resumeSequence, isBackground: true)
        }
      }
    }
    cutTransfers(keepsBackgroundTasks: keeps, tasks, restart: restart, unlockAt: unlockAt, into: &effects)
  }

  /// With `keepsBackgroundTasks`, `tasks` are the transfers in flight (uid order), each cut to
  /// retry; without, the unfinished background tasks (session by session), each lost.
  static func cutTransfers(
    keepsBackgroundTasks: Bool, _ tasks: [Task], restart: UInt32, unlockAt: SimTime,
    into effects: inout EffectBuffer
  ) {
    if keepsBackgroundTasks {
      for task in tasks { effects.append(.interrupt(uid: task.uid, reason: "reboot", retryNow: true)) }
      // A default session's transfer fails instead of retrying; only a background one queues again.
      for task in tasks.filter(\.isBackground).sorted(by: { $0.resumeSequence < $1.resumeSequence }) {
        effects.append(.requeueAhead(uid: task.uid))
      }
    } else {
      for task in tasks { effects.append(.vanish(uid: task.uid, reason: "deviceRestarted")) }
    }
    effects.append(.rescheduleLinks)
    effects.append(.schedule(.deviceUnlock(restart: restart), at: unlockAt))
    effects.append(.reevaluateWaiting)
  }
}
