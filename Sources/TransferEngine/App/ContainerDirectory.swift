#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The app's sandbox on disk for a Swift app (`AppUnderTest`, or one written against Foundation
/// through BgsimFoundation): one real directory per simulation, made on first use, that survives
/// terminations, force quits and relaunches (the process dies, its container does not). Removed
/// when the simulation is released unless kept. Its path never reaches the trace, so it may
/// differ between runs.
final class ContainerDirectory {
  let path: String
  var keep = false

  init() {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-containers")
    let url = base.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  deinit {
    guard !keep else { return }
    try? FileManager.default.removeItem(atPath: path)
  }
}

extension AppContext {
  /// The app's container directory: what `FileManager`'s Documents and Library stand for. Files
  /// written here are there after a termination and the next launch, as on a device.
  public var containerDirectory: String { simulation.containerDirectory }
}
