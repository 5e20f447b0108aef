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

  /// (app state, a continued-processing task runs, an assertion is open, an app callback runs)
  /// -> (effects, state after, which of the task, the assertion and the callback deferred it).
  static let table: [(Start, Bool, Bool, Bool, [Effect], AppState, Bool, Bool, Bool)] = [
    (.background, false, false, false, suspends, .suspended, false, false, false),
    (.background, false, true, false, [], .background, false, true, false),
    (.background, true, false, false, [], .background, true, false, false),
    // The running task is asked first: the assertion does not hear of this suspension.
    (.background, true, true, false, [], .background, true, false, false),
    // App code ended the last hold inside a callback: the suspension waits for it to return.
    (.background, false, false, true, [], .background, false, false, true),
    // An assertion still open holds the app on its own: the callback does not hear of it.
    (.background, false, true, true, [], .background, false, true, false),
    (.foreground, false, false, false, [], .foreground, false, false, false),
    (.foreground, true, true, true, [], .foreground, false, false, false),
    (.suspended, false, false, false, [], .suspended, false, false, false),
    (.notRunning, false, false, false, [], .notRunning, false, false, false),
  ]

  @Test("the app is suspended only from the background and when nothing holds it", arguments: table)
  func suspend(
    _ start: Start, _ taskRuns: Bool, _ assertionOpen: Bool, _ inCallback: Bool, _ expected: [Effect],
    _ after: AppState, _ taskDeferred: Bool, _ assertionDeferred: Bool, _ callbackDeferred: Bool
  ) {
    var lifecycle = start.lifecycle
    var continued = ContinuedProcessingTasks()
    if taskRuns {
      _ = continued.addRunning(
        .init(identifier: "export", title: "Export", subtitle: "", launch: { _, _ in }), now: .zero)
    }
    var assertions = BackgroundAssertions()
    if assertionOpen { _ = assertions.begin(name: "upload") }
    var callbacks = AppBusyTime()
    if inCallback { callbacks.current = .init(name: "didFinishDownloadingTo", task: "episode") }
    let generation = lifecycle.generation
    var effects = EffectBuffer()
    SystemSuspendRule.apply(
      lifecycle: &lifecycle, continued: &continued, assertions: &assertions, callbacks: &callbacks,
      into: &effects)
    #expect(effects.effects == expected)
    #expect(lifecycle.state == after)
    #expect(continued.suspensionDeferred == taskDeferred)
    #expect(assertions.suspensionDeferred == assertionDeferred)
    #expect(callbacks.takeSuspensionAfterCallback() == callbackDeferred)
    // A suspension is a transition: the timers armed for the background become stale.
    #expect((lifecycle.generation != generation) == (after != start.lifecycle.state))
  }
}
