import SimKernel

/// The app's extensions' processes. An extension runs while the user is in it; the system ends
/// it soon after the user leaves (`Policy.extensionEndsAfter`). Its background sessions' work
/// goes on in the daemon and their events go to the containing app (behavior.md, "App
/// extensions"). Runs are numbered so a stale end (the user came back) does nothing.
struct ExtensionProcesses {
  /// The extensions running now, by name (its bytes, as the loader tells names apart), with the
  /// number of their run.
  private var running: [WrittenKey: Int] = [:]
  /// Runs the user has left, waiting for the system to end them: run number -> name.
  private var closing: [Int: WrittenKey] = [:]
  private var nextRun = 0

  func isRunning(_ name: String) -> Bool { running[WrittenKey(name)] != nil }

  /// Starts a run of `name`; false when it is already running (the user is back in it: a
  /// pending end is called off).
  mutating func open(_ name: String) -> Bool {
    let name = WrittenKey(name)
    if let run = running[name] {
      closing[run] = nil
      return false
    }
    nextRun += 1
    running[name] = nextRun
    return true
  }

  /// The user left `name`: the run to end later, or nil when it is not running or already left.
  mutating func close(_ name: String) -> Int? {
    let name = WrittenKey(name)
    guard let run = running[name], closing[run] == nil else { return nil }
    closing[run] = name
    return run
  }

  /// The system ends run `run`: its name, or nil when that run already ended or the user came back.
  mutating func end(run: Int) -> String? {
    guard let name = closing.removeValue(forKey: run), running[name] == run else { return nil }
    running[name] = nil
    return name.text
  }

  /// A device restart ends every extension: their names, sorted by their bytes (one order on
  /// every run, even for names `String` takes as equal).
  mutating func endAll() -> [String] {
    defer {
      running = [:]
      closing = [:]
    }
    return running.keys.sorted().map(\.text)
  }
}
