import SimKernel
import Testing

@testable import TransferEngine

/// The app lifecycle and the rate limiter alone, table-driven; no `Simulation`.
@Suite("Lifecycle and rate-limiter machines")
struct LifecycleMachineTests {
  enum Input: String, CaseIterable, CustomStringConvertible {
    case userLaunch, userBackground, suspend, terminate, forceQuit, wake
    var description: String { rawValue }
  }

  static func lifecycle(in state: AppState, forceQuit: Bool = false) -> AppLifecycle {
    var l = AppLifecycle()
    if forceQuit { _ = l.terminate(byUser: true) }
    switch state {
    case .notRunning: break
    case .foreground: _ = l.userLaunch()
    case .background:
      _ = l.userLaunch()
      _ = l.userBackground()
    case .suspended:
      _ = l.userLaunch()
      _ = l.userBackground()
      _ = l.suspend()
    }
    return l
  }

  /// (from, input, to, accepted).
  static let table: [(AppState, Input, AppState, Bool)] = [
    (.notRunning, .userLaunch, .foreground, true),
    (.background, .userLaunch, .foreground, true),
    (.foreground, .userLaunch, .foreground, false),
    (.foreground, .userBackground, .background, true),
    (.background, .userBackground, .background, false),
    (.background, .suspend, .suspended, true),
    (.foreground, .suspend, .foreground, false),
    (.suspended, .terminate, .notRunning, true),
    (.notRunning, .terminate, .notRunning, false),
    (.foreground, .forceQuit, .notRunning, true),
    (.suspended, .wake, .background, true),
    (.notRunning, .wake, .background, true),
    (.foreground, .wake, .foreground, false),
  ]

  @Test("each input from each relevant state", arguments: table.indices)
  func transition(_ index: Int) {
    let (from, input, to, accepted) = Self.table[index]
    var l = Self.lifecycle(in: from)
    let generation = l.generation
    let result: Bool
    switch input {
    case .userLaunch: result = l.userLaunch() != .alreadyForeground
    case .userBackground: result = l.userBackground()
    case .suspend: result = l.suspend()
    case .terminate: result = l.terminate(byUser: false)
    case .forceQuit: result = l.terminate(byUser: true)
    case .wake: result = l.wake() != nil
    }
    #expect(result == accepted)
    #expect(l.state == to)
    #expect((l.generation != generation) == accepted)
  }

  @Test("a force quit blocks background launches until the user launches the app")
  func forceQuitBlocksWake() {
    var l = Self.lifecycle(in: .notRunning, forceQuit: true)
    #expect(l.forceQuit)
    let r22 = l.wake()
    #expect(r22 == nil)
    let r23 = l.userLaunch()
    #expect(r23 == .launched)
    #expect(!l.forceQuit)
  }

  @Test("rate limiter: wake grows 60 s, x2, capped; reset returns to 0 once")
  func rateLimiter() {
    var r = RateLimiter(policy: RateLimiterPolicy(maxDelay: .seconds(200)))
    #expect(r.idleResetTime == nil)
    let r24 = r.wake(at: .zero)
    #expect(r24 == .seconds(60))
    #expect(r.expiry == SimTime(.seconds(60)))
    #expect(r.idleResetTime == SimTime(.seconds(120)))
    let r101 = r.wake(at: SimTime(.seconds(10)))
    #expect(r101 == .seconds(120))
    let r102 = r.wake(at: SimTime(.seconds(20)))
    #expect(r102 == .seconds(200))
    #expect(r.delayAtWake == [.seconds(60), .seconds(120), .seconds(200)])
    let generation = r.generation
    let r103 = r.reset(at: SimTime(.seconds(30)))
    #expect(r103)
    #expect(r.delay == .zero && r.generation != generation)
    let r104 = r.reset(at: SimTime(.seconds(40)))
    #expect(!r104)
    let r105 = r.wake(at: SimTime(.seconds(50)))
    #expect(r105 == .seconds(60))
  }
}
