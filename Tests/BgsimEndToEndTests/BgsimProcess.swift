import Foundation
import Testing

/// What one run of the built `bgsim` printed and returned.
struct BgsimResult: Sendable {
  var stdout: String
  var stderr: String
  var status: Int32
}

/// Runs the `bgsim` binary that `swift test` built, in a fresh temporary directory that holds
/// the fixture files, so messages name files by short relative paths.
struct BgsimSandbox {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bgsim-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// Writes a fixture at `path` (relative, intermediate directories created).
  func write(_ path: String, _ bytes: [UInt8]) throws {
    let url = directory.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
  }

  func write(_ path: String, _ text: String) throws { try write(path, Array(text.utf8)) }

  /// Runs `bgsim arguments...` here. Output goes to files, not pipes, so a large output can
  /// never block the child.
  func run(_ arguments: [String], in workingDirectory: URL? = nil, environment: [String: String]? = nil)
    throws
    -> BgsimResult
  {
    let process = Process()
    process.executableURL = try Self.executable()
    process.arguments = arguments
    process.currentDirectoryURL = workingDirectory ?? directory
    if let environment {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = directory.appendingPathComponent(".stdout")
    let err = directory.appendingPathComponent(".stderr")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    process.waitUntilExit()
    return BgsimResult(
      stdout: try String(contentsOf: out, encoding: .utf8),
      stderr: try String(contentsOf: err, encoding: .utf8),
      status: process.terminationStatus)
  }

  /// The package's root folder (holding `Scenarios/`), found from this source file's path.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  func remove() { try? FileManager.default.removeItem(at: directory) }

  /// The built binary: `BGSIM_EXECUTABLE` when set; else beside the test bundle (SwiftPM puts
  /// both in `.build/<triple>/<config>/`: on Linux the bundle is the running executable, on
  /// macOS an `.xctest` bundle loaded by `xctest`); else the package's `.build/debug`, found
  /// from this source file's path.
  static func executable() throws -> URL {
    var candidates: [URL] = []
    if let override = ProcessInfo.processInfo.environment["BGSIM_EXECUTABLE"], !override.isEmpty {
      candidates.append(URL(fileURLWithPath: override))
    }
    let bundles = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") } + [Bundle.main]
    for bundle in bundles {
      let place = bundle.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent()
      candidates.append(place.appendingPathComponent("bgsim"))
    }
    if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
      candidates.append(executable.deletingLastPathComponent().appendingPathComponent("bgsim"))
    }
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    candidates.append(packageRoot.appendingPathComponent(".build/debug/bgsim"))
    guard
      let found = candidates.first(where: {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory)
          && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: $0.path)
      })
    else {
      throw BgsimNotFound(searched: candidates.map(\.path))
    }
    return found
  }
}

struct BgsimNotFound: Error, CustomStringConvertible {
  var searched: [String]
  var description: String { "the bgsim binary was not found; searched \(searched.joined(separator: ", "))" }
}
