import Foundation

/// An answer the app's code gives on the delegate queue (a completion handler it calls, or what
/// it did with a delivered file), read by the bridge after the drain; nil while it has not
/// answered. The bridge's thread and the delegate queue's both touch it, hence the lock.
final class AppAnswer<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value?

  /// Records `answer`, replacing an earlier one.
  func set(_ answer: Value) {
    lock.lock()
    stored = answer
    lock.unlock()
  }

  /// Records `answer` unless the app already answered: a completion handler called twice
  /// counts once.
  func setFirst(_ answer: Value) {
    lock.lock()
    if stored == nil { stored = answer }
    lock.unlock()
  }

  var value: Value? {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
