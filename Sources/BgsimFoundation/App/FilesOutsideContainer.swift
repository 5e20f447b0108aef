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
    guard !isLinted, Self.find(under: container.path, budget: Int.max, where: isIt) == nil else { return }
    lint(task: task, verb: "moved", path: Self.findInHostFolders(where: isIt), simulation: simulation)
  }

  /// Lints a delivered file the app read and deleted in its call (`DeliveryFiles.departure`)
  /// when a copy of it is in the host's folders: a regular file of its size whose status changed
  /// since `since` (seconds since 1970, real time), and none such in `container`. A move to
  /// another file system is a copy and a delete, which leaves no inode to follow. A file the app
  /// only read and then deleted has no copy, so it is named only where the copy is found.
  func checkCopy(size: Int64, since: Int, container: URL, simulation: Simulation?, task: String) {
    let isIt: (stat) -> Bool = {
      ($0.st_mode & S_IFMT) == S_IFREG && Int64($0.st_size) == size && Self.changeSeconds($0) >= since
    }
    guard !isLinted, Self.find(under: container.path, budget: Int.max, where: isIt) == nil,
      let path = Self.findInHostFolders(where: isIt)
    else { return }
    lint(task: task, verb: "copied (or moved to another file system)", path: path, simulation: simulation)
  }

  private var isLinted: Bool {
    lock.lock()
    defer { lock.unlock() }
    return linted
  }

  /// Lints once per simulation, naming `path` when the file was found in a host folder.
  private func lint(task: String, verb: String, path: String?, simulation: Simulation?) {
    lock.lock()
    let first = !linted
    linted = true
    lock.unlock()
    guard first, let simulation else { return }
    let place = path.map { "to '\($0)'" } ?? "out of the app's container"
    simulation.bridgeLint(
      .fileOutsideContainer,
      "the app \(verb) the file delivered for task '\(task)' \(place): in a simulation NSHomeDirectory() "
        + "and FileManager's documents, caches and application-support folders are the host's, not the "
        + "app's container, so the file left the simulated device; build paths from "
        + "SimulatedApplication.containerDirectory instead",
      [TraceField("task", .string(task))] + (path.map { [TraceField("path", .string($0))] } ?? []))
  }

  /// The first file `isIt` picks in the host folders, looking at up to 2,000 entries in each.
  static func findInHostFolders(where isIt: (stat) -> Bool) -> String? {
    for folder in hostFolders() {
      if let found = find(under: folder, budget: 2_000, where: isIt) { return found }
    }
    return nil
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
  /// looking at no more than `budget` entries, shallower folders first (an app keeps its files
  /// a level or two down, and a budget spent on one deep tree would miss them).
  static func find(under root: String, budget: Int, where isIt: (stat) -> Bool) -> String? {
    var folders = [root]
    var next = 0
    var seen = 0
    while next < folders.count {
      let folder = folders[next]
      next += 1
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
