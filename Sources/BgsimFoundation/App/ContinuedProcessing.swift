import Foundation
import SimKernel
import TransferEngine

/// `BGContinuedProcessingTaskRequest` (iOS 26) for a simulated app: work the user started that
/// may go on in the background under the system's progress UI.
public final class ContinuedProcessingTaskRequest: @unchecked Sendable {
  /// The task's identifier (`BGTaskSchedulerPermittedIdentifiers` on a device).
  public let identifier: String
  /// What the system's progress UI shows.
  public var title: String
  /// The line under the title.
  public var subtitle: String
  /// What happens when the task cannot run at once; `.queue` as on a device.
  public var strategy: ContinuedProcessingStrategy = .queue

  /// A request; the app submits it from the foreground.
  public init(identifier: String, title: String, subtitle: String) {
    self.identifier = identifier
    self.title = title
    self.subtitle = subtitle
  }
}

/// `BGTaskScheduler.Error` for a refused submission: `code` is its `BGTaskScheduler.Error.Code`.
public struct ContinuedProcessingSubmitError: Error, Equatable, Sendable {
  /// Why the system refused the request.
  public let reason: ContinuedProcessingError
  /// `BGTaskScheduler.Error.Code`'s raw value (4 for `immediateRunIneligible`).
  public var code: Int { reason.code }
}

/// `BGContinuedProcessingTask`: the running task the launch handler gets. Report progress
/// through `progress` (a rising `completedUnitCount`), end it with `setTaskCompleted(success:)`.
public final class ContinuedProcessingTask: @unchecked Sendable {
  /// The request's identifier.
  public let identifier: String
  /// The request's title, shown in the system's progress UI.
  public let title: String
  /// The request's subtitle, shown under the title.
  public let subtitle: String
  /// `ProgressReporting`'s progress: each change of its unit counts reaches the system at once.
  public let progress: Progress
  /// Runs when the system expires the task (no progress for the window) or the user stops it;
  /// call `setTaskCompleted(success: false)` in it.
  public var expirationHandler: (() -> Void)?
  weak var process: BridgeProcess?

  init(identifier: String, title: String, subtitle: String, process: BridgeProcess) {
    self.identifier = identifier
    self.title = title
    self.subtitle = subtitle
    self.process = process
    let progress = ReportingProgress(totalUnitCount: 0)
    self.progress = progress
    progress.onChange = { [weak self] in self?.report() }
  }

  /// `setTaskCompleted(success:)`: the task ends; calls after the first do nothing.
  public func setTaskCompleted(success: Bool) {
    guard let simulation = process?.liveHost?.simulation else { return }
    AppContext(simulation: simulation).completeContinuedProcessing(identifier, success: success)
  }

  private func report() {
    guard let simulation = process?.liveHost?.simulation else { return }
    AppContext(simulation: simulation).reportContinuedProgress(
      identifier, completed: progress.completedUnitCount, total: progress.totalUnitCount)
  }
}

/// A `Progress` that tells its task when the app changes its unit counts.
final class ReportingProgress: Progress, @unchecked Sendable {
  var onChange: (() -> Void)?

  override var completedUnitCount: Int64 {
    get { super.completedUnitCount }
    set {
      super.completedUnitCount = newValue
      onChange?()
    }
  }

  override var totalUnitCount: Int64 {
    get { super.totalUnitCount }
    set {
      super.totalUnitCount = newValue
      onChange?()
    }
  }
}

extension SimulatedApplication {
  /// `BGTaskScheduler.shared.submit(_:)` of a continued-processing request, with the handler
  /// `register(forTaskWithIdentifier:using:launchHandler:)` would give. Throws
  /// `ContinuedProcessingSubmitError` when the system refuses it (`immediateRunIneligible` for a
  /// `.fail` request that cannot run now, `notPermitted` from the background). The launch and
  /// expiration handlers run on the main queue at the simulated instant they are due.
  public func submit(
    _ request: ContinuedProcessingTaskRequest, launchHandler: @escaping (ContinuedProcessingTask) -> Void
  ) throws(ContinuedProcessingSubmitError) {
    guard let process, let simulation = process.liveHost?.simulation else {
      host?.noteCallFromDeadProcess()
      throw ContinuedProcessingSubmitError(reason: .unavailable)
    }
    let result = AppContext(simulation: simulation).submitContinuedProcessing(
      identifier: request.identifier, title: request.title, subtitle: request.subtitle,
      strategy: request.strategy
    ) { [weak process] app, identifier in
      guard let process, process.liveHost != nil else { return }
      let task = ContinuedProcessingTask(
        identifier: identifier, title: request.title, subtitle: request.subtitle, process: process)
      app.setContinuedProcessingExpirationHandler(identifier) { [weak process] _ in
        guard let process, let handler = task.expirationHandler else { return }
        process.runAppCode(handler)
      }
      process.runAppCode { launchHandler(task) }
    }
    if case .failed(let reason) = result { throw ContinuedProcessingSubmitError(reason: reason) }
  }
}

extension BridgeProcess {
  /// Runs a handler the engine calls: at once when app code is already running (a submission
  /// that starts its task), else as app code entered from the engine, drained before time moves.
  fileprivate func runAppCode(_ work: () -> Void) {
    if isDraining { work() } else { enter(work) }
  }
}
