import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether code runs on the main thread, asked several times around every delegate call.
/// swift-corelibs-foundation answers `Thread.isMainThread` with two system calls (`getpid` and
/// `gettid`); a thread never changes, so its answer is kept in a thread-local slot after the
/// first question.
enum MainThread {
  private static let slot: pthread_key_t = {
    var key = pthread_key_t()
    // Without a slot (the process ran out of keys) every question goes to Foundation.
    return pthread_key_create(&key, nil) == 0 ? key : invalidSlot
  }()
  private static let invalidSlot = pthread_key_t.max
  /// What the slot holds: a tag, not an address.
  private static let isMain = 1
  private static let isOther = 2

  static var isCurrent: Bool {
    let slot = slot
    guard slot != invalidSlot else { return Thread.isMainThread }
    if let known = pthread_getspecific(slot) { return Int(bitPattern: known) == isMain }
    let main = Thread.isMainThread
    pthread_setspecific(slot, UnsafeRawPointer(bitPattern: main ? isMain : isOther))
    return main
  }
}
