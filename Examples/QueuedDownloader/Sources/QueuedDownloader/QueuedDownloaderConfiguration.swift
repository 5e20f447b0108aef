import Foundation

/// How a `QueuedDownloader` behaves. The two `plants...` switches put back bugs teams really
/// ship, so tests can show a simulation finds them; the default configuration has neither.
public struct QueuedDownloaderConfiguration: Sendable {
  /// The background session's identifier (fixed: the system reattaches tasks by it).
  public var sessionIdentifier: String
  /// Downloads running at once; the rest wait in the manager's queue.
  public var maxConcurrentDownloads: Int
  /// Seconds from a change to the task list being written (a debounce, as Tiercel does).
  public var saveDelay: TimeInterval
  /// Planted bug (a): the waiting queue lives in memory only, so after the process dies the
  /// relaunched manager no longer knows what was left and the queue stalls.
  public var plantsInMemoryQueue: Bool
  /// Planted bug (b): after a force quit the cancelled downloads wait for the user to tap
  /// Resume instead of resuming at once from the resume data in the errors.
  public var plantsForceQuitWaitsForTap: Bool

  public init(
    sessionIdentifier: String = "com.example.queued.downloads", maxConcurrentDownloads: Int = 3,
    saveDelay: TimeInterval = 0.2, plantsInMemoryQueue: Bool = false, plantsForceQuitWaitsForTap: Bool = false
  ) {
    self.sessionIdentifier = sessionIdentifier
    self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
    self.saveDelay = saveDelay
    self.plantsInMemoryQueue = plantsInMemoryQueue
    self.plantsForceQuitWaitsForTap = plantsForceQuitWaitsForTap
  }
}

/// Where one download stands, as the user sees it.
public enum DownloadState: Equatable, Sendable, CustomStringConvertible {
  case waiting, downloading, paused, done
  case failed(code: Int)

  public var description: String {
    switch self {
    case .waiting: "waiting"
    case .downloading: "downloading"
    case .paused: "paused"
    case .done: "done"
    case .failed(let code): "failed(\(code))"
    }
  }

  /// Reads a state back from the task list (nil for a line this version does not know).
  init?(text: Substring) {
    switch text {
    case "waiting": self = .waiting
    case "downloading": self = .downloading
    case "paused": self = .paused
    case "done": self = .done
    default:
      guard text.hasPrefix("failed("), text.hasSuffix(")"),
        let code = Int(text.dropFirst("failed(".count).dropLast())
      else { return nil }
      self = .failed(code: code)
    }
  }
}
