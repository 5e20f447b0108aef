import Foundation

/// The end of a simulated process and of a whole simulation, as app code that outlives them sees
/// it: calls then do nothing, and say so once.
enum ProcessRelease {
  private static let key = "bgsim.processRelease"

  /// Runs `release` (the bridge dropping a dead process's objects) marked on this thread, so
  /// calls the app's `deinit`s make meanwhile are known for what they are and not linted.
  static func during(_ release: () -> Void) {
    let dictionary = Thread.current.threadDictionary
    let outer = dictionary[key] != nil
    dictionary[key] = true
    release()
    if !outer { dictionary.removeObject(forKey: key) }
  }

  /// True while this thread releases a dead process's objects.
  static var isUnderWay: Bool { Thread.current.threadDictionary[key] != nil }

  /// A call on an object whose `Simulation` was released (app code on its own queue outlived the
  /// test): it does nothing, and says so once per object on standard error, as no trace is left.
  static func noteCallAfterSimulation(_ object: String) {
    let message =
      "BgsimFoundation: \(object) was used after its Simulation was released (app code on its own queue "
      + "or thread outlived the test); the call does nothing. Wait for that work before the test ends.\n"
    FileHandle.standardError.write(Data(message.utf8))
  }
}
