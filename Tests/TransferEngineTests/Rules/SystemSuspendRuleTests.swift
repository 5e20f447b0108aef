import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The system's suspension of the app alone: (app state, what holds it, input) -> effects, with
/// no `Simulation`.
@Suite("Rules: the system suspends the app")
struct SystemSuspendRuleTests {
  enum Start: String, CustomStringConvertible {
    case notRunning, foreground, background, suspended
    var description: String { rawValue }

    var lifecycle: AppLifecycle {
      var lifecycle = AppLifecycle()
      if self == .notRunning { return lifecycle }
      _ = lifecycle.userLaunch()
      if self == .foreground { return lifecycle }
      _ = lifecycle.userBackground()
      if self == .suspended { _ = lifecycle.suspend() }
      return lifecycle
    }
  }

  static let suspends: [Effect] = [
    .trace(.appSuspend, []), .disconnectBackgroundDataTasks, .endWake, .pauseDefaultTransfers,
    .requestWakeCheck,
  ]

  /// (app state, a continued-processing task runs, an assertion is open) -> (effects, state after,
  /// the task deferred the suspension, the assertion deferred it).
  static let table: [(Start, Bool, Bool, [Effect], AppState, Bool, Bool)] = [
    (.background, false, false, suspends, .suspended, false, false),
    (.background, false, true, [], .background, false, true),
    (.background, true, false, [], .background, true, false),
    // The running task is asked first: the assertion does not hear of this suspension.
    (.background, true, true, [], .background, true, false),
    (.foreground, false, false, [], .foreground, false, false),
    (.foreground, true, true, [], .foreground, false, false),
    (.suspended, false, false, [], .suspended, false, false),
    (.notRunning, false, false, [], .notRunning, false, false),
  ]

  @Test("the app is suspended only from the background and when nothing holds it", arguments: table)
  func suspend(
    _ start: Start, _ taskRuns: Bool, _ assertionOpen: Bool, _ expected: [Effect], _ after: AppState,
    _ taskDeferred: Bool, _ assertionDeferred: Bool
  ) {
    var lifecycle = start.lifecycle
    var continued = ContinuedProcessingTasks()
    if taskRuns {
      _ = continued.addRunning(
        .init(identifier: "export", title: "Export", subtitle: "", launch: { _, _ in }), now: .zero)
    }
    var assertions = BackgroundAssertions()
    if assertionOpen { _ = assertions.begin(name: "upload") }
    let generation = lifecycle.generation
    var effects = EffectBuffer()
    SystemSuspendRule.apply(
      lifecycle: &lifecycle, continued: &continued, assertions: &assertions, into: &effects)
    #expect(effects.effects == expected)
    #expect(lifecycle.state == after)
    #expect(continued.suspensionDeferred == taskDeferred)
    #expect(assertions.suspensionDeferred == assertionDeferred)
    // A suspension is a transition: the timers armed for the background become stale.
    #expect((lifecycle.generation != generation) == (after != start.lifecycle.state))
  }
}
