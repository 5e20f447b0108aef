import Dispatch
import Foundation
import Testing

@testable import BgsimFoundation

/// The hand-off signal keeps every signal given for a wait whichever way it waits (spinning,
/// asleep, or the plain semaphore where spinning is not available): these hold for every kind.
@Suite struct HandOffSignalTests {
  static var kinds: [String] {
    var kinds = ["semaphore"]
    if #available(macOS 15, iOS 18, *) { kinds.append("spinning") }
    return kinds
  }

  static func make(_ kind: String) -> HandOffSignal {
    if kind == "spinning", #available(macOS 15, iOS 18, *) { return SpinningSignal() }
    return SemaphoreSignal()
  }

  @Test(arguments: kinds) func aSignalGivenBeforeTheWaitIsKept(kind: String) {
    let signal = Self.make(kind)
    signal.signal()
    #expect(signal.wait(until: .now()))
  }

  /// The spinning signal is binary: two signals before one wait leave nothing for a second wait.
  @Test func spinningSignalsDoNotAccumulate() {
    guard #available(macOS 15, iOS 18, *) else { return }
    let signal = SpinningSignal()
    signal.signal()
    signal.signal()
    #expect(signal.wait(until: .now() + .milliseconds(5)))
    #expect(!signal.wait(until: .now() + .milliseconds(5)))
  }

  /// A wait that times out leaves the signal usable: the next signal reaches the next wait.
  @Test(arguments: kinds) func aTimedOutWaitLeavesTheSignalUsable(kind: String) {
    let signal = Self.make(kind)
    #expect(!signal.wait(until: .now() + .milliseconds(2)))
    signal.signal()
    #expect(signal.wait(until: .now() + .seconds(5)))
  }

  /// A waiter that stopped spinning and sleeps is woken by a signal from another thread.
  @Test(arguments: kinds) func aSleepingWaiterIsWoken(kind: String) {
    let signal = Self.make(kind)
    let signaller = Thread {
      // Well past the spinning signal's spin, so the waiter is asleep by then.
      Thread.sleep(forTimeInterval: 0.02)
      signal.signal()
    }
    signaller.start()
    #expect(signal.wait(until: .now() + .seconds(10)))
  }

  /// Two threads handing a turn back and forth, some turns answered at once and some after the
  /// waiter went to sleep: no turn is lost or taken twice.
  @Test(arguments: kinds) func handOffsBetweenTwoThreadsAreNeverLost(kind: String) {
    let toWorker = Self.make(kind)
    let toCaller = Self.make(kind)
    let rounds = 2_000
    let counter = LockedList<Int>()
    let worker = Thread {
      for round in 0..<rounds {
        toWorker.wait()
        counter.append(round)
        if round % 500 == 0 { Thread.sleep(forTimeInterval: 0.001) }
        toCaller.signal()
      }
    }
    worker.start()
    for round in 0..<rounds {
      toWorker.signal()
      #expect(toCaller.wait(until: .now() + .seconds(30)))
      #expect(counter.values.count == round + 1)
    }
  }
}
