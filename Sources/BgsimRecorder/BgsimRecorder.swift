import Foundation

/// Records what an app observes of its background transfers to a JSON Lines file in bgsim's
/// trace format, so `bgsim calibrate` can fit the simulator's policy to a real device.
///
/// Each line is one event with `t` (nanoseconds since the recording began), `at` (the same as
/// a duration) and `kind`, with the kinds and field names of `bgsim run --trace-out`, limited
/// to what an app can see. The file's first line, `recorder.start`, holds the wall-clock origin;
/// later launches append to the same file and keep that origin, so a day of launches is one log.
///
/// Thread-safe: delegate queues and the main thread may record at once.
public final class BgsimRecorder: @unchecked Sendable {
  /// Where time comes from: the wall clock in nanoseconds since 1970 (a test may drive its own).
  public struct Clock: Sendable {
    /// Nanoseconds since 1970 now; called once per recorded event.
    public var nanosecondsSince1970: @Sendable () -> Int64
    /// A clock that reads `nanosecondsSince1970`.
    public init(nanosecondsSince1970: @escaping @Sendable () -> Int64) {
      self.nanosecondsSince1970 = nanosecondsSince1970
    }
    /// `Date()`, to the microsecond.
    public static let system = Clock {
      Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()) * 1_000
    }
  }

  /// Why the recorder could not open its file.
  public struct OpenError: Error, CustomStringConvertible {
    public var description: String
  }

  /// The log file, appended to by every launch of the app.
  public let fileURL: URL
  private let clock: Clock
  private let lock = NSLock()
  /// Opened for appending: every write lands at the end, whoever else appends.
  private let descriptor: Int32
  /// Nanoseconds since 1970 of `t` = 0.
  public let origin: Int64
  private var lastT: Int64 = 0

  /// Opens (or creates) the log at `fileURL`, appending to an earlier recording.
  public init(fileURL: URL, clock: Clock = .system) throws {
    self.fileURL = fileURL
    self.clock = clock
    let manager = FileManager.default
    var origin: Int64?
    if let existing = try? Data(contentsOf: fileURL), !existing.isEmpty {
      let firstLine = existing.prefix { $0 != UInt8(ascii: "\n") }
      origin = Self.origin(ofStartLine: firstLine)
      guard origin != nil else {
        throw OpenError(
          description:
            "\(fileURL.path) does not begin with a recorder.start line; give the recorder a new file")
      }
      if existing.last != UInt8(ascii: "\n") {
        throw OpenError(description: "\(fileURL.path) ends in a partial line; give the recorder a new file")
      }
    } else {
      try? manager.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      guard manager.createFile(atPath: fileURL.path, contents: nil) else {
        throw OpenError(description: "cannot create \(fileURL.path)")
      }
    }
    let descriptor = open(fileURL.path, O_WRONLY | O_APPEND)
    guard descriptor >= 0 else { throw OpenError(description: "cannot open \(fileURL.path) for writing") }
    self.descriptor = descriptor
    if let origin {
      self.origin = origin
      lastT = max(0, clock.nanosecondsSince1970() - origin)
    } else {
      let now = clock.nanosecondsSince1970()
      self.origin = now
      append(
        "{\"t\": 0, \"at\": \"0s\", \"kind\": \"recorder.start\", \"unixNanoseconds\": \(now), "
          + "\"format\": \"bgsim trace, format version 1\"}\n")
    }
  }

  deinit { close(descriptor) }

  /// A log in the app's Application Support folder: `bgsim-recording.jsonl`.
  public static func defaultFileURL() -> URL {
    let base =
      FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
      ?? FileManager.default.temporaryDirectory
    return base.appendingPathComponent("bgsim-recording.jsonl")
  }

  // MARK: The app delegate's calls

  /// `application(_:didFinishLaunchingWithOptions:)`: `inBackground` when the system launched
  /// the app for its background sessions (`application.applicationState == .background`).
  public func applicationDidFinishLaunching(inBackground: Bool) {
    record("app.launch", [("reason", .string(inBackground ? "background" : "user"))])
  }

  /// `applicationWillEnterForeground(_:)`.
  public func applicationWillEnterForeground() { record("app.foreground", []) }

  /// `applicationDidEnterBackground(_:)`.
  public func applicationDidEnterBackground() { record("app.background", []) }

  /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`: records the call
  /// and returns the handler to store, which records `app.completionHandlerCalled` when called.
  public func handleEvents(
    forBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void
  ) -> () -> Void {
    record("delegate.handleEvents", [("session", .string(identifier))])
    return { [self] in
      record("app.completionHandlerCalled", [("session", .string(identifier))])
      completionHandler()
    }
  }

  /// A network path the app observed (an `NWPathMonitor` update): `interface` is `wifi`,
  /// `cellular`, `wired` or `none`.
  public func networkPathChanged(interface: String, expensive: Bool, constrained: Bool) {
    if interface == "none" {
      record("network.change", [("interface", .string(interface))])
    } else {
      record(
        "network.change",
        [
          ("interface", .string(interface)), ("expensive", .bool(expensive)),
          ("constrained", .bool(constrained)),
        ])
    }
  }

  /// Power as the app sees it (`UIDevice.batteryState`, `batteryLevel`, Low Power Mode).
  public func powerChanged(charging: Bool, battery: Double, lowPowerMode: Bool) {
    record(
      "power.change",
      [("charging", .bool(charging)), ("battery", .number(battery)), ("lowPowerMode", .bool(lowPowerMode))])
  }

  // MARK: Session and task events, by value (the delegate proxy calls these)

  /// The `taskKind` of `task.created`, as the simulation's trace names it.
  public enum TaskKind: String, Sendable {
    /// A download task.
    case download
    /// An upload task.
    case upload
    /// A data task (body in memory).
    case data
  }

  /// A task the app created (before `resume()`).
  public func taskCreated(name: String, session: String, taskIdentifier: Int, url: String, kind: TaskKind) {
    record(
      "task.created",
      [
        ("task", .string(name)), ("session", .string(session)),
        ("taskIdentifier", .int(Int64(taskIdentifier))),
        ("url", .string(url)), (RecorderFields.taskKind, .string(kind.rawValue)),
      ])
  }

  /// A download or upload task the app created (before `resume()`).
  public func taskCreated(name: String, session: String, taskIdentifier: Int, url: String, isUpload: Bool) {
    taskCreated(
      name: name, session: session, taskIdentifier: taskIdentifier, url: url,
      kind: isUpload ? .upload : .download)
  }

  /// `didWriteData`: a download's progress, as `delegate.didWriteData`.
  public func didWriteData(task: String, totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
    record(
      "delegate.didWriteData",
      [
        ("task", .string(task)), ("totalBytesWritten", .int(totalBytesWritten)),
        ("totalBytesExpectedToWrite", .int(totalBytesExpectedToWrite)),
      ])
  }

  /// `didFinishDownloadingTo`: the file the download delivered, its size and the task's description.
  public func didFinishDownloading(task: String, bytes: Int64, description: String?) {
    var fields: [(String, RecordedValue)] = [("task", .string(task)), ("bytes", .int(bytes))]
    if let description { fields.append(("description", .string(description))) }
    record("delegate.didFinishDownloading", fields)
  }

  /// A data task's body (or an upload's response body), `bytes` in all, as `delegate.didReceiveData`.
  public func didReceiveData(task: String, bytes: Int64) {
    record("delegate.didReceiveData", [("task", .string(task)), ("bytes", .int(bytes))])
  }

  /// `didResumeAtOffset`: a download continued from resume data.
  public func didResumeAtOffset(task: String, offset: Int64, expectedTotalBytes: Int64) {
    record(
      "delegate.didResumeAtOffset",
      [("task", .string(task)), ("offset", .int(offset)), ("total", .int(expectedTotalBytes))])
  }

  /// `didCompleteWithError`: `error` nil for success (then `status`, the HTTP status, if any).
  public func didComplete(task: String, error: RecordedError?, status: Int?) {
    var fields: [(String, RecordedValue)] = [("task", .string(task))]
    if let error {
      fields.append(("error", .string(error.name)))
      fields.append(("code", .int(Int64(error.code))))
      if let reason = error.cancelReason { fields.append(("reason", .string(reason))) }
      if let offset = error.resumeDataOffset { fields.append(("resumeDataOffset", .int(offset))) }
    } else {
      fields.append(("error", .string("none")))
      if let status { fields.append(("status", .int(Int64(status)))) }
    }
    record("delegate.didComplete", fields)
  }

  /// `didBecomeInvalidWithError`: `error` nil after the app's own invalidation.
  public func didBecomeInvalid(session: String, error: RecordedError?) {
    var fields: [(String, RecordedValue)] = [("session", .string(session))]
    fields.append(("error", .string(error?.name ?? "none")))
    record("delegate.didBecomeInvalid", fields)
  }

  /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`: the woken session's events are all delivered.
  public func didFinishEvents(session: String) {
    record("delegate.didFinishEvents", [("session", .string(session))])
  }

  /// `urlSession(_:taskIsWaitingForConnectivity:)`: the task waits for a network it may use.
  public func taskIsWaitingForConnectivity(task: String) {
    record("delegate.taskIsWaitingForConnectivity", [("task", .string(task))])
  }

  // MARK: Writing

  /// Appends one event, timestamped now (never before the previous event).
  func record(_ kind: String, _ fields: [(String, RecordedValue)]) {
    lock.lock()
    defer { lock.unlock() }
    let t = max(lastT, clock.nanosecondsSince1970() - origin)
    lastT = t
    var line = "{\"t\": \(t), \"at\": \(RecorderText.quoted(RecorderText.duration(t))), "
    line += "\"kind\": \(RecorderText.quoted(kind))"
    for (key, value) in fields { line += ", \(RecorderText.quoted(key)): \(value.json)" }
    line += "}\n"
    append(line)
  }

  /// One `write` per line, so a process killed between events leaves whole lines only. A full
  /// disk loses the line rather than stopping the app.
  private func append(_ line: String) {
    var bytes = Array(line.utf8)
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeMutableBytes { buffer in
        write(descriptor, buffer.baseAddress! + done, buffer.count - done)
      }
      if n <= 0 { return }
      done += n
    }
  }

  static func origin(ofStartLine line: Data) -> Int64? {
    let text = String(decoding: line, as: UTF8.self)
    guard text.contains("\"kind\": \"recorder.start\""), let key = text.range(of: "\"unixNanoseconds\": ")
    else {
      return nil
    }
    return Int64(text[key.upperBound...].prefix { $0 == "-" || $0.isNumber })
  }
}

/// The field name of a task's kind (`download`/`upload`) in `task.created`, as the trace names it.
public enum RecorderFields {
  /// `taskKind`, the key the simulator's trace uses for a task's kind.
  public static let taskKind = "taskKind"
}

/// An error as `didComplete` records it: the `URLError.Code` name, its code, and what the
/// error's user info says.
public struct RecordedError: Sendable, Hashable {
  /// The `URLError.Code` case name (`networkConnectionLost`), as the trace's `error`.
  public var name: String
  /// The error's code (-1005), as the trace's `code`.
  public var code: Int
  /// `NSURLErrorBackgroundTaskCancelledReasonKey` as a name (`userForceQuitApplication`).
  public var cancelReason: String?
  /// Bytes the resume data says were received, when the error carries resume data.
  public var resumeDataOffset: Int64?

  /// An error named `name` with `code`, and what its user info says.
  public init(name: String, code: Int, cancelReason: String? = nil, resumeDataOffset: Int64? = nil) {
    self.name = name
    self.code = code
    self.cancelReason = cancelReason
    self.resumeDataOffset = resumeDataOffset
  }
}

/// A field value of a recorded event.
enum RecordedValue {
  case string(String)
  case int(Int64)
  case number(Double)
  case bool(Bool)

  var json: String {
    switch self {
    case .string(let s): return RecorderText.quoted(s)
    case .int(let i): return String(i)
    case .number(let d): return RecorderText.number(d)
    case .bool(let b): return b ? "true" : "false"
    }
  }
}
