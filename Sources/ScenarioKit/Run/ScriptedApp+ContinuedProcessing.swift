import TransferEngine

/// The scripted app's continued-processing actions. Its expiration handler is a correct app's:
/// it calls `setTaskCompleted(success: false)`; its launch handler runs the reactions to
/// `continuedProcessingStarted`.
extension ScriptedApp {
  func performContinuedProcessing(_ action: AppAction) {
    let context = AppContext(simulation: simulation)
    switch action {
    case .submitContinuedProcessing(let identifier, let title, let subtitle, let strategy):
      context.submitContinuedProcessing(
        identifier: identifier, title: title, subtitle: subtitle, strategy: strategy
      ) { app, identifier in
        app.setContinuedProcessingExpirationHandler(identifier) { app in
          app.completeContinuedProcessing(identifier, success: false)
        }
        self.react(to: .continuedProcessingStarted, task: identifier)
      }
    case .reportContinuedProgress(let identifier, let add, let total):
      guard let now = simulation.continuedProgress(identifier) else { return }
      let (completed, overflow) = now.completed.addingReportingOverflow(add)
      context.reportContinuedProgress(
        identifier, completed: overflow ? Int64.max : completed, total: total ?? now.total)
    case .completeContinuedProcessing(let identifier, let success):
      context.completeContinuedProcessing(identifier, success: success)
    default:
      return
    }
  }
}
