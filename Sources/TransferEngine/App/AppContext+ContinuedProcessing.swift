import SimKernel

extension AppContext {
  /// `BGTaskScheduler.shared.submit(_:)` of a `BGContinuedProcessingTaskRequest` (iOS 26): work
  /// the user started that may go on in the background under the system's progress UI. Allowed
  /// only in the foreground; runs at once when there is room, else queues (`.queue`) or is
  /// refused with `immediateRunIneligible` (`.fail`). `launchHandler` runs when the task starts.
  @discardableResult
  public func submitContinuedProcessing(
    identifier: String, title: String, subtitle: String = "", strategy: ContinuedProcessingStrategy = .queue,
    launchHandler: @escaping (AppContext, String) -> Void
  ) -> ContinuedProcessingSubmission {
    simulation.submitContinuedProcessing(
      identifier: identifier, title: title, subtitle: subtitle, strategy: strategy, launch: launchHandler)
  }

  /// The running task's `expirationHandler`: runs when the system expires it (no progress for
  /// `continuedProcessing.progressWindow`) or the user stops it.
  public func setContinuedProcessingExpirationHandler(
    _ identifier: String, _ handler: ((AppContext) -> Void)?
  ) {
    simulation.continued.setExpiration(identifier, handler)
  }

  /// The task's `progress`: `completedUnitCount` and `totalUnitCount`. Only a rising
  /// `completed` counts as progress for the expiry window.
  public func reportContinuedProgress(_ identifier: String, completed: Int64, total: Int64) {
    simulation.reportContinuedProgress(identifier, completed: completed, total: total)
  }

  /// `setTaskCompleted(success:)`: the task ends. A task that is not running is ignored.
  public func completeContinuedProcessing(_ identifier: String, success: Bool) {
    simulation.completeContinuedProcessing(identifier, success: success)
  }
}
