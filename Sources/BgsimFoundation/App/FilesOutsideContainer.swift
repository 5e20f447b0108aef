import Foundation
import TransferEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file on disk by identity: what a delivered file still is after the app renamed it.
struct FileIdentity: Hashable {
  let device: UInt64
  let inode: UInt64

  init(device: UInt64, inode: UInt64) {
    self.device = device
    self.inode = inode
  }

  /// The identity of the file at `path` (not following a final symbolic link).
  init?(path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    self.init(info)
  }

  /// The identity `info` describes.
  init(_ info: stat) {
    self.init(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
  }
}

/// Names the files an app puts outside its container. In a simulation the app's home
/// (`NSHomeDirectory()`, `FileManager`'s documents, caches and application-support folders) is
/// the developer's, not the container: the bridge cannot change it for one simulation without
/// changing it for the whole test process. A delivered file the app moved there would land in
/// the developer's own folders, so the bridge looks where the first delivered files of each
/// process went (a walk of the container; later files are not followed, to keep deliveries cheap)
/// and lints `fileOutsideContainer`, once per simulation, with the path when it finds it.
final class FilesOutsideContainer: @unchecked Sendable {
  /// Deliveries checked per process: an app moves every file the same way.
  static let checksPerProcess = 3
  private let lock = NSLock()
  private var checks: [Int: Int] = [:]
  private var linted = false

  /// Whether a delivery of process `number` is still to be checked (counts it).
  func shouldCheck(process number: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard !linted, checks[number, default: 0] < Self.checksPerProcess else { return false }
    checks[number, default: 0] += 1
    return true
  }

  /// Lints a moved delivered file that is not in `container`.
  func check(_ moved: FileIdentity, container: URL, simulation: Simulation?, task: String) {
    let isIt: (stat) -> Bool = { FileIdentity($0) == moved }
    guard Self.find(under: container.path, budget: Int.max, where: isIt) == nil else { return }
    lint(task: task, verb: "moved", simulation: simulation, where: isIt)
  }

  /// Lints a delivered file the app read and deleted in its call (`DeliveryFiles.copiedAwaySize`)
  /// when no file of its size was written into `container` since `since` (seconds since 1970,
  /// real time): the copy is elsewhere. A move to another file system is such a copy: it keeps no
  /// inode to follow, so the copy is known by its size and its fresh status-change time.
  func checkCopy(size: Int64, since: Int, container: URL, simulation: Simulation?, task: String) {
    let isIt: (stat) -> Bool = {
      ($0.st_mode & S_IFMT) == S_IFREG && Int64($0.st_size) == size && Self.changeSeconds($0) >= since
    }
    guard Self.find(under: container.path, budget: Int.max, where: isIt) == nil else { return }
    lint(task: task, verb: "copied (or moved to another file system)", simulation: simulation, where: isIt)
  }

  /// Lints once per simulation, naming the host folder's file that `isIt` picks, if any.
  private func lint(task: String, verb: String, simulation: Simulation?, where isIt: @escaping (stat) -> Bool)
  {
    lock.lock()
    let first = !linted
    linted = true
    lock.unlock()
    guard first, let simulation else { return }
    let found = Self.hostFolders().lazy.compactMap { Self.find(under: $0, budget: 2_000, where: isIt) }.first
    let place = found.map { "to '\($0)'" } ?? "out of the app's container"
    simulation.bridgeLint(
      .fileOutsideContainer,
      "the app \(verb) the file delivered for task '\(task)' \(place): in a simulation NSHomeDirectory() "
        + "and FileManager's documents, caches and application-support folders are the host's, not the "
        + "app's container, so the file left the simulated device; build paths from "
        + "SimulatedApplication.containerDirectory instead",
      [TraceField("task", .string(task))] + (found.map { [TraceField("path", .string($0))] } ?? []))
  }

  /// The status-change time's seconds: set by the system when a file is made, never by the app.
  static func changeSeconds(_ info: stat) -> Int {
    #if canImport(Darwin)
      return Int(info.st_ctimespec.tv_sec)
    #else
      return Int(info.st_ctim.tv_sec)
    #endif
  }

  /// The path of the first entry under `root` that `isIt` picks (not following symbolic links),
  /// looking at no more than `budget` entries.
  static func find(under root: String, budget: Int, where isIt: (stat) -> Bool) -> String? {
    var folders = [root]
    var seen = 0
    while let folder = folders.popLast() {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
      for name in names.sorted() {
        seen += 1
        if seen > budget { return nil }
        let path = folder + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0 else { continue }
        if isIt(info) { return path }
        if (info.st_mode & S_IFMT) == S_IFDIR { folders.append(path) }
      }
    }
    return nil
  }

  /// The host folders an app's `FileManager` calls name, where a moved file usually lands.
  static func hostFolders() -> [String] {
    let kinds: [FileManager.SearchPathDirectory] = [
      .documentDirectory, .cachesDirectory, .applicationSupportDirectory,
    ]
    var folders = kinds.compactMap { FileManager.default.urls(for: $0, in: .userDomainMask).first?.path }
    folders.append(NSHomeDirectory())
    return folders
  }
}
