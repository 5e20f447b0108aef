import Foundation
import SimKernel
import TransferEngine

/// Reads a scenario file into a validated `Scenario`, reporting every problem at once.
///
/// The steps: read at most `maxFileSize` bytes, check UTF-8 and parse JSON (`JSONParser`),
/// decode each section (collecting problems instead of stopping), then check cross-references
/// (sessions, task names, URLs) once everything is known.
public enum ScenarioLoader {
  /// The keys a scenario's top-level object may have (besides `x-...` notes), in the order the
  /// format describes them. `$schema` names the JSON Schema editors use for completion; the
  /// loader only checks that it is a string.
  public static let topLevelKeys = [
    "$schema", "name", "description", "seed", "duration", "device", "server", "policy", "app", "timeline",
    "expect", "random",
  ]

  /// Largest file accepted: scenarios are hand-written and small, and refusing early keeps a
  /// wrong argument (a log, a disk image) from taking memory and time.
  public static let maxFileSize = 8 * 1024 * 1024

  /// Loads the file at `path`; messages name the file as `path` is written. With `swiftApp`, the
  /// file is the world for your Swift app (`ScenarioRunner.run(_:installingApp:)`): the app makes
  /// the tasks, so a `{"task": ...}` expectation may name one no timeline entry creates (the
  /// trace names an app's tasks `<session>#<taskIdentifier>`).
  public static func load(path: String, swiftApp: Bool = false) throws(ScenarioErrors) -> Scenario {
    try load(data: try read(path: path), file: path, swiftApp: swiftApp)
  }

  /// Loads a scenario from bytes; `file` is the name messages use; `swiftApp` as in `load(path:)`.
  public static func load<Bytes: Collection<UInt8>>(data: Bytes, file: String, swiftApp: Bool = false)
    throws(ScenarioErrors) -> Scenario
  {
    let root = try parse(data, file: file)
    let context = DecodeContext(file: file, tasksComeFromSwiftApp: swiftApp)
    let scenario = decodeScenario(root, file: file, context: context)
    if let scenario, context.problems.isEmpty { return scenario }
    throw ScenarioErrors(context.sortedProblems)
  }

  /// Loads a JSON object of policy knobs, as a scenario's `policy` section or the output of
  /// `bgsim policy --defaults`; knobs left out keep their defaults.
  public static func loadPolicy<Bytes: Collection<UInt8>>(data: Bytes, file: String) throws(ScenarioErrors)
    -> Policy
  {
    let root = try parse(data, file: file)
    let context = DecodeContext(file: file)
    let policy = ValueType<Policy>.policy.decode(root, "policy", context)
    if let policy, context.problems.isEmpty { return policy }
    throw ScenarioErrors(context.sortedProblems)
  }

  private static func fileProblem(_ file: String, _ message: String) -> ScenarioErrors {
    ScenarioErrors([ScenarioProblem(kind: .file, file: file, path: "", position: nil, message: message)])
  }

  /// Reads the file, refusing directories, unreadable files and files over the size limit
  /// before reading them. Public for commands that also fingerprint the bytes (`sweep`).
  public static func read(path: String) throws(ScenarioErrors) -> Data {
    // An empty argument (an unset shell variable) would print as ": error: no such file".
    guard !path.isEmpty else {
      throw fileProblem("''", "an empty path names no file; give the scenario file's path")
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw fileProblem(path, "no such file")
    }
    if isDirectory.boolValue { throw fileProblem(path, "is a directory; expected a scenario file (.json)") }
    // A FIFO or a device would block the read forever (or never end): only regular files are read.
    var status = stat()
    if stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
      throw fileProblem(
        path, "is not a regular file (a pipe, socket or device); expected a scenario file (.json)")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    if size > maxFileSize { throw tooLarge(path, size) }
    guard let handle = FileHandle(forReadingAtPath: path) else { throw fileProblem(path, "cannot be read") }
    defer { try? handle.close() }
    let data = (try? handle.read(upToCount: maxFileSize + 1)) ?? Data()
    if data.count > maxFileSize { throw tooLarge(path, data.count) }
    return data
  }

  private static func tooLarge(_ file: String, _ size: Int) -> ScenarioErrors {
    fileProblem(
      file, "the file is \(size) bytes; scenario files are limited to \(maxFileSize) bytes (8 MiB)")
  }

  private static func parse<Bytes: Collection<UInt8>>(_ data: Bytes, file: String) throws(ScenarioErrors)
    -> JSONValue
  {
    if data.count > maxFileSize { throw tooLarge(file, data.count) }
    do {
      return try JSONParser.parse(Array(data))
    } catch {
      throw ScenarioErrors([
        ScenarioProblem(
          kind: .file, file: file, path: "", position: error.position, message: error.description)
      ])
    }
  }

  /// The top level, then the checks that need the whole file.
  private static func decodeScenario(_ root: JSONValue, file: String, context: DecodeContext) -> Scenario? {
    guard
      var r = ObjectReader(root, path: "", context: context, expected: "a JSON object describing a scenario")
    else { return nil }
    _ = r.optional("$schema", .string)
    let name = r.required("name", .name("the scenario's name"))
    let description = r.optional("description", .string)
    // Before every section, so that their instants may be times of day.
    let startsAt = r.optional("startsAt", .startsAt)
    context.startOfDay = startsAt.flatMap(TimeOfDay.start)
    let seed = r.optional("seed", .seed)
    let duration = r.optional("duration", .duration)
    let device = r.optional("device", .device)
    let server = r.optional("server", .server)
    let policy = r.optional("policy", .policy)
    let app = r.optional("app", .app)
    let timeline = r.optional("timeline", .timeline)
    let expectations = r.optional("expect", .expectations)
    let random = r.optional("random", .random)
    r.finish()

    let defaults = Scenario(file: file, name: "")
    let resolvedDuration = duration ?? defaults.duration
    context.references.check(duration: resolvedDuration, context: context)
    guard let name else { return nil }
    let sorted = (timeline ?? []).enumerated()
      .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    var scenario = Scenario(
      file: file, name: name, description: description ?? "", seed: seed ?? 0,
      duration: resolvedDuration,
      device: device ?? defaults.device, server: server ?? defaults.server,
      policy: policy ?? Policy.defaults(for: context.iosVersion),
      app: app ?? defaults.app, timeline: sorted, expectations: expectations ?? [], random: random)
    scenario.startsAt = startsAt
    // The device's clock reads `startsAt` (taken as UTC) at time 0.
    if let epoch = startsAt.flatMap(TimeOfDay.epochSeconds) { scenario.device.clockAtStart = epoch }
    return scenario
  }
}
