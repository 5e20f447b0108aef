import SimKernel

/// Rule: a continued-processing task's stall check comes due (behavior.md, "Continued
/// processing").
///
/// A stale check does nothing; one that finds progress within the window is armed again for the
/// window's end after the last advance. A task whose progress did not advance for
/// `progressWindow` expires: linted `continuedTaskNeverCompleted` when it reported all its units
/// (it only forgot `setTaskCompleted`), `continuedTaskExpired` otherwise.
enum ContinuedStallCheckRule {
  static func apply(generation: UInt32, engine: Engine, into effects: inout EffectBuffer) {
    let window = engine.policy.continuedProcessing.progressWindow
    switch engine.continued.stallCheck(generation: generation, now: engine.now, window: window) {
    case .stale: return
    case .rearm(let at): effects.append(.schedule(.continuedStallCheck(generation: generation), at: at))
    case .expire(let identifier):
      guard let entry = engine.continued.entry(identifier) else { return }
      if entry.total > 0 && entry.completed >= entry.total {
        effects.append(
          .lint(
            .continuedTaskNeverCompleted,
            "continued-processing task '\(identifier)' reported all \(entry.total) units done but never called "
              + "setTaskCompleted, so the system expired it after \(window); "
              + "call setTaskCompleted(success: true) when the work ends", []))
      } else {
        effects.append(
          .lint(
            .continuedTaskExpired,
            "continued-processing task '\(identifier)' reported no progress for "
              + "\(window) (at \(entry.completed) of \(entry.total)), so the "
              + "system expired it; advance progress.completedUnitCount more often (smaller units of work)",
            []))
      }
      engine.expireContinued(identifier, reason: "noProgress", ending: .expired, into: &effects)
    }
  }
}
