/// Rule: the system suspends a background app (behavior.md, "App lifecycle"): `backgroundRunTime`
/// after the user left it, at the end of a wake, when a completion-handler timeout fires, or when
/// the last assertion or continued-processing task that held it ends.
///
/// Only an app in the background is suspended. A running continued-processing task holds it, so
/// does an open background-task assertion, and so does an app callback still running (its code
/// ended the last of the others); each remembers that the system wanted to suspend (asked in
/// that order: a task that holds the app leaves the assertions untouched). Otherwise the app is
/// suspended: traced, a background session's data tasks are disconnected, the wake in progress
/// ends, default sessions' transfers pause, and a wake check is asked for.
enum SystemSuspendRule {
  /// Suspends the app if it is in the background and nothing holds it, and appends what follows.
  static func apply(
    lifecycle: inout AppLifecycle, continued: inout ContinuedProcessingTasks,
    assertions: inout BackgroundAssertions, callbacks: inout AppBusyTime, into effects: inout EffectBuffer
  ) {
    guard lifecycle.state == .background, continued.maySuspend(), assertions.maySuspend(),
      callbacks.maySuspend(), lifecycle.suspend()
    else { return }
    effects.append(.trace(.appSuspend, []))
    effects.append(.disconnectBackgroundDataTasks)
    effects.append(.endWake)
    effects.append(.pauseDefaultTransfers)
    effects.append(.requestWakeCheck)
  }
}
