import SimKernel

/// The app's own time (behavior.md, "The app's own time"): a callback that does slow work (an
/// unzip, a database write) keeps the app's main thread busy, so the next callbacks wait for it,
/// and during a background wake it uses up the time the wake gives.
///
/// A value owned by `Simulation`: the callback the engine is in now, and until when the app is
/// busy. The facade gates deliveries on it and asks it at the end of a wake's time.
struct AppBusyTime {
  /// The app callback running now, named as Apple names it, and the task it concerns.
  struct Callback: Equatable {
    var name: String
    var task: String?
  }

  /// A stretch of app work: which callback, when it began and how long it takes.
  struct Stretch: Equatable {
    var callback: Callback
    var began: SimTime
    var took: SimDuration
    var until: SimTime
  }

  /// The callback the engine is in (nil between callbacks: app code run from a timer or a test).
  var current: Callback?
  /// The latest stretch of work; the app is busy while `until` is after now.
  private(set) var latest: Stretch?
  /// The system wanted to suspend the app while a callback ran (app code in it ended the last
  /// thing that held the app: `endBackgroundTask`, `setTaskCompleted`): it does when the
  /// callback returns, so the rest of the callback runs in a running app (behavior.md,
  /// "Background task assertions": bgsim's assumption, no source says when it lands).
  private var suspensionAfterCallback = false

  /// The system wants to suspend the app: true when it may, false while a callback runs (the
  /// suspension then waits for the callback to return).
  mutating func maySuspend() -> Bool {
    guard current != nil else { return true }
    suspensionAfterCallback = true
    return false
  }

  /// The outermost callback returned: true (once) when a suspension waited for it.
  mutating func takeSuspensionAfterCallback() -> Bool {
    defer { suspensionAfterCallback = false }
    return suspensionAfterCallback
  }

  /// The app spends `duration` in the current callback from `now`; returns the stretch. Work
  /// spent twice in one callback adds up; work spent while busy starts when the app is free.
  mutating func spend(_ duration: SimDuration, now: SimTime) -> Stretch {
    let callback = current ?? Callback(name: "app code", task: nil)
    if var stretch = latest, stretch.until > now, stretch.callback == callback {
      stretch.took = stretch.took + duration
      stretch.until = stretch.until + duration
      latest = stretch
      return stretch
    }
    let start = max(now, latest?.until ?? now)
    let stretch = Stretch(callback: callback, began: now, took: duration, until: start + duration)
    latest = stretch
    return stretch
  }

  /// The stretch that keeps the app busy at `now`, if any.
  func busy(at now: SimTime) -> Stretch? {
    guard let latest, latest.until > now else { return nil }
    return latest
  }

  /// The process ended: its work dies with it.
  mutating func processEnded() {
    latest = nil
    current = nil
    suspensionAfterCallback = false
  }
}

extension AppBusyTime.Stretch {
  /// Lint `slowCallback`'s message and fields when the watchdog kills the app at `now` for this
  /// stretch, the wake having given the app `had` of background time.
  func watchdogLint(had: SimDuration, now: SimTime) -> (message: String, fields: [TraceField]) {
    let about = callback.task.map { " for '\($0)'" } ?? ""
    var fields: [TraceField] = []
    if let task = callback.task { fields.append(TraceField("task", .string(task))) }
    let message =
      "\(callback.name)\(about) takes \(took) of the app's own time, but the wake gives the app \(had) "
      + "of background time (\(now - began) were left when the callback began), so the watchdog "
      + "killed the app (0x8badf00d) and the events after it wait for the next launch; move the file or save "
      + "the data in the callback and do the slow work later (in the foreground, or in a BGProcessingTask)"
    return (message, fields)
  }
}

extension AppContext {
  /// The callback running now takes `duration` of the app's own time: slow work such as
  /// unzipping a download or writing a database in `didFinishDownloadingTo`. Simulated time
  /// does not move while app code runs, so this says how long the work would take on a device.
  /// The app's next callbacks wait until it is done, and during a background wake the time
  /// counts against the wake's `completionHandlerTimeout`: work still running when that is up
  /// gets the app killed by the watchdog (lint `slowCallback`). Zero or less does nothing.
  public func spend(_ duration: SimDuration) {
    simulation.appSpends(duration)
  }
}

extension DelegateEvent {
  /// The delegate method the event calls, as Apple names it, and the task it concerns.
  var callback: (name: String, task: String?) {
    switch self {
    case .didResumeAtOffset(let task, _, _): return ("didResumeAtOffset", task.name)
    case .didWriteData(let task, _, _): return ("didWriteData", task.name)
    case .didFinishDownloading(let task): return ("didFinishDownloadingTo", task.name)
    case .didReceiveData(let task, _): return ("didReceiveData", task.name)
    case .didSendBodyData(let task, _, _): return ("didSendBodyData", task.name)
    case .didComplete(let task, _): return ("didCompleteWithError", task.name)
    case .didBecomeInvalid: return ("didBecomeInvalidWithError", nil)
    case .willPerformHTTPRedirection(let task, _, _): return ("willPerformHTTPRedirection", task.name)
    case .willBeginDelayedRequest(let task): return ("willBeginDelayedRequest", task.name)
    case .didReceiveChallenge(let task, _, _): return ("didReceiveChallenge", task.name)
    }
  }
}
