import Dispatch
import Foundation
import Synchronization  // platform-api: ok (Atomic is used only under `#available(macOS 15, iOS 18, *)`)

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A semaphore for the bridge's hand-offs between the simulation's thread and a delegate queue's
/// thread: every delegate call is two of them (`bgsim bench bridge`). One thread waits on a
/// signal at a time, and the bridge signals at most once per wait, so whether extra signals are
/// kept once (the spinning signal) or counted (the plain semaphore) never matters to it.
///
/// A plain semaphore puts the waiter to sleep, and waking it costs two context switches, tens of
/// microseconds on a virtual machine, more than the delegate call itself. The other side usually
/// answers within microseconds (one delegate method, or the engine's work up to the next call),
/// so the spinning signal watches a flag for a short while first and parks on a semaphore only
/// when nothing came: an idle delivery loop costs no CPU. It spins only where there is a second
/// core to answer from, and where `Atomic` exists (Linux, macOS 15, iOS 18); elsewhere the plain
/// semaphore gives the same order at a higher cost.
protocol HandOffSignal: AnyObject, Sendable {
  func signal()
  func wait()
  /// False when `deadline` passed without a signal.
  func wait(until deadline: DispatchTime) -> Bool
}

enum HandOff {
  /// Spinning pays only when the other thread can run meanwhile.
  static let canSpin = ProcessInfo.processInfo.activeProcessorCount > 1

  static func makeSignal() -> HandOffSignal {
    if canSpin, #available(macOS 15, iOS 18, *) { return SpinningSignal() }
    return SemaphoreSignal()
  }

  /// Signals given back after a wait that took their one signal, so they are empty again.
  /// Every delegate call waits on one; making and freeing a signal (and its semaphore) per call
  /// cost more than taking one from here.
  private nonisolated(unsafe) static var spare: [HandOffSignal] = []
  private static let spareLock = NSLock()

  /// An empty signal, reused when one was given back.
  static func takeSignal() -> HandOffSignal {
    spareLock.lock()
    let reused = spare.popLast()
    spareLock.unlock()
    return reused ?? makeSignal()
  }

  /// Gives back a signal whose one signal a wait has taken (never one a wait timed out on:
  /// a late signal would then end the next wait at once).
  static func giveBack(_ signal: HandOffSignal) {
    spareLock.lock()
    if spare.count < 8 { spare.append(signal) }
    spareLock.unlock()
  }
}

final class SemaphoreSignal: HandOffSignal, @unchecked Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  func signal() { semaphore.signal() }
  func wait() { semaphore.wait() }
  func wait(until deadline: DispatchTime) -> Bool { semaphore.wait(timeout: deadline) == .success }
}

@available(macOS 15, iOS 18, *)
final class SpinningSignal: HandOffSignal, @unchecked Sendable {
  /// How long a waiter watches the flag before it parks. Long enough to cover one delegate call
  /// that moves a file, or the engine's events between two calls; short enough that a loop
  /// left waiting gives its core back at once.
  static let spinNanoseconds: UInt64 = 300_000

  private enum State: Int {
    case empty = 0
    case signaled = 1
    /// A waiter sleeps on the semaphore; the signal must wake it.
    case parked = 2
  }

  private let state = Atomic<Int>(State.empty.rawValue)  // platform-api: ok (the class is macOS 15, iOS 18)
  private let semaphore = DispatchSemaphore(value: 0)

  func signal() {
    while true {
      let current = state.load(ordering: .acquiring)
      if current == State.signaled.rawValue { return }
      let next = current == State.parked.rawValue ? State.empty : State.signaled
      if exchange(current, next.rawValue) {
        if current == State.parked.rawValue { semaphore.signal() }
        return
      }
    }
  }

  func wait() { _ = wait(until: .distantFuture) }

  func wait(until deadline: DispatchTime) -> Bool {
    if spin(until: deadline) { return true }
    while !exchange(State.empty.rawValue, State.parked.rawValue) {
      if takeSignal() { return true }
    }
    if semaphore.wait(timeout: deadline) == .success { return true }
    // Timed out: leave the parked state, unless a signal took it meanwhile and is waking us.
    if exchange(State.parked.rawValue, State.empty.rawValue) { return false }
    semaphore.wait()
    return true
  }

  /// Watches the flag for up to `spinNanoseconds` (or until `deadline`, if sooner), letting other
  /// threads of this core run now and then (on a loaded machine the thread to answer may be
  /// waiting for one).
  private func spin(until deadline: DispatchTime) -> Bool {
    let start = DispatchTime.now().uptimeNanoseconds
    let (sum, overflow) = start.addingReportingOverflow(Self.spinNanoseconds)
    let end = min(overflow ? .max : sum, deadline.uptimeNanoseconds)
    var round = 0
    while true {
      for _ in 0..<128 where takeSignal() { return true }
      round += 1
      if round % 2 == 0 { sched_yield() }
      if DispatchTime.now().uptimeNanoseconds >= end { return takeSignal() }
    }
  }

  private func takeSignal() -> Bool {
    state.load(ordering: .relaxed) == State.signaled.rawValue
      && exchange(State.signaled.rawValue, State.empty.rawValue)
  }

  private func exchange(_ expected: Int, _ desired: Int) -> Bool {
    state.compareExchange(expected: expected, desired: desired, ordering: .acquiringAndReleasing).exchanged
  }
}
