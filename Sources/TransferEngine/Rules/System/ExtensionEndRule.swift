import SimKernel

/// Rule: an extension's process ends (behavior.md, "App extensions"): the system ends it after
/// the user left (`endExtension`), or the device restarts.
///
/// Its session objects die with it: each record it held detaches, the tasks that needed the
/// process (data tasks, uploads from data) fail with -997, and the containing app may be owed a
/// wake for those sessions. A stale end (the user came back, or the run ended already) does
/// nothing.
enum ExtensionEndRule {
  /// The system's end of run `run`, `extensionEndsAfter` after the user left.
  static func apply(run: Int, engine: Engine, into effects: inout EffectBuffer) {
    guard let name = engine.extensions.end(run: run) else { return }
    ended(name, reason: "system", engine: engine, into: &effects)
  }

  /// The process of extension `name` is gone (`reason` as traced: `system`, `reboot`).
  static func ended(_ name: String, reason: String, engine: Engine, into effects: inout EffectBuffer) {
    effects.append(
      .trace(.extensionTerminate, [TraceField("name", .string(name)), TraceField("reason", .string(reason))]))
    let owner = SessionOwner.appExtension(name)
    // Only the records attached to some extension, in record order (`SessionWorkIndex`).
    engine.daemon.sessionWork.inExtension.forEach { index in
      let record = engine.daemon.sessionRecords[index]
      guard record.attached?.owner == owner else { return }
      effects.append(.detachFromApp(sessionIndex: record.index))
      for task in record.unfinishedTasksNeedingAppProcess() {
        effects.append(.disconnect(uid: task.uid))
      }
    }
    effects.append(.rescheduleLinks)
    effects.append(.requestWakeCheck)
  }
}
