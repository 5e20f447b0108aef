import SimKernel
import TransferEngine

/// Things a valid scenario may mean but probably does not, which `bgsim validate` warns about
/// (the scenario still loads and runs).
public enum ScenarioWarnings {
  /// One line per warning, `FILE: JSON.path: warning: ...`, in a fixed order.
  public static func check(_ scenario: Scenario) -> [String] {
    var warnings: [String] = []
    let limiter = scenario.policy.rateLimiter
    if let maxDelay = limiter.maxDelay, maxDelay < limiter.firstDelay {
      warnings.append(
        "policy.rateLimiter.maxDelay: warning: maxDelay (\(maxDelay)) is below firstDelay "
          + "(\(limiter.firstDelay)), so every delay is cut to \(maxDelay); did you swap them?")
    }
    let retry = scenario.policy.retry
    if retry.maxBackoff < retry.backoff {
      warnings.append(
        "policy.retry.maxBackoff: warning: maxBackoff (\(retry.maxBackoff)) is below backoff "
          + "(\(retry.backoff)), so every retry waits \(retry.maxBackoff); did you swap them?")
    }
    return warnings.map { "\(scenario.file): \($0)" }
  }
}
