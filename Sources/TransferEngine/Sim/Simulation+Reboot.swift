import SimKernel

/// A device restart (behavior.md, "Device restart"): the app's process ends, transfers in
/// flight are cut, and nothing runs until the user first unlocks the device.
extension Simulation {
  /// The device restarts now; the user unlocks it `reboot.unlockAfter` later (or at a `launch`).
  public func rebootDevice() {
    let restart = links.restart()
    let unlockAt = now + policy.reboot.unlockAfter
    emit(.deviceReboot, [TraceField("unlockAt", .duration(unlockAt.sinceStart))])
    if lifecycle.state != .notRunning {
      _ = lifecycle.terminate(byUser: false)
      emit(.appTerminate, [TraceField("reason", .string("reboot"))])
      // Default sessions' tasks vanish with the process, as at any termination.
      processEnded()
    }
    for name in extensions.endAll() { extensionEnded(name, reason: "reboot") }
    if policy.reboot.keepsBackgroundTasks {
      // Cut in flight; each retries (from its offset when it can) after the first unlock.
      var retrying: [SimURLSessionTask] = []
      for task in activeTransfers() where interrupt(task, reason: "reboot", retryNow: true) {
        retrying.append(task)
      }
      for task in retrying.sorted(by: { $0.resumeSequence < $1.resumeSequence }) { _ = daemon.insert(task) }
    } else {
      for record in daemon.sessionRecords where record.isBackground {
        for task in record.tasks where !task.isFinished { vanish(task, reason: "deviceRestarted") }
      }
    }
    rescheduleLinks()
    scheduler.schedule(.deviceUnlock(restart: restart), at: unlockAt)
    reevaluateAllWaiting()
  }

  /// The first unlock after a restart (`Rules/DeviceUnlockRule.swift`).
  func unlockDevice() {
    var effects = takeEffectBuffer()
    DeviceUnlockRule.apply(to: &links, into: &effects)
    interpret(effects)
  }

  /// True between a restart and the first unlock after it.
  public var deviceLockedSinceRestart: Bool { links.lockedSinceRestart }
}
