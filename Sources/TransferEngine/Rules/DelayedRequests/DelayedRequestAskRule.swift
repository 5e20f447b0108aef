import SimKernel

/// Rule: admission holds a task for its `willBeginDelayedRequest` question (behavior.md,
/// "Delayed requests"): a background task with an `earliestBeginDate`, once everything else would
/// let it start, first asks a delegate that implements the method whether to go on.
///
/// Asked once: the question is queued for the app and the task waits with reason
/// `delayedRequest` until the answer. A background session the app is not running with owes the
/// app one wake for the question (`DelayedRequestPolicy.wakesApp` decides whether it is woken);
/// a woken app that does not take it is not woken again and again for it.
enum DelayedRequestAskRule {
  static func apply(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    guard task.delayedRequest == .notAsked else { return }
    engine.tasks[task].delayedRequest = .asked
    let session = task.session
    engine.queueDelegateEvent(.willBeginDelayedRequest(task), for: session, into: &effects)
    if session.isBackground && !(engine.lifecycle.state.isRunning && session.appSession != nil) {
      session.owesWake(true)
    }
    engine.requestWakeCheck(into: &effects)
  }
}
