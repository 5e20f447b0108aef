import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files `didFinishDownloadingTo` hands the app: a fresh path per call, in the container's
/// delivery folder, holding a sparse file of the download's size.
///
/// Each file is a hard link to an inode of a small pool the bridge keeps beside the container.
/// An app moves the file into its container and usually deletes it later (or overwrites it with
/// the next download); the inode then has only the pool's link left and is reused for a later
/// delivery, emptied and resized. So a run creates and deletes a handful of inodes instead of
/// one per download: on file systems that scan recently freed inodes at every creation (ext4
/// without a journal) thousands of create/delete pairs cost seconds (`bgsim bench bridge`).
///
/// What an app can notice: the file's link count is 2 while it holds it, and an app that deletes
/// a delivered file but keeps it open may see it emptied by a later delivery (on a device the
/// open file keeps its content). Where hard links fail (a file system without them) every
/// delivery gets a new file, as before.
final class DeliveryFiles: @unchecked Sendable {
  let directory: URL
  private let directoryPath: String
  private let poolPath: String
  private var directoriesMade = false
  private var poolWorks = true
  /// Pool inodes, oldest first; the first few are checked for reuse at each delivery.
  private var pool: [Int] = []
  /// Where the next reuse check starts in `pool`, which is a ring: moving an inode "to the back"
  /// is advancing this index, so a pool that grows (an app that keeps every file) costs no
  /// shifting of the array per delivery.
  private var poolStart = 0
  private var poolCount = 0
  private static let reuseChecks = 4

  init(container: URL) {
    directory = container.appendingPathComponent("Library/Caches/com.apple.nsurlsessiond/Downloads")
    directoryPath = directory.path
    // A sibling of the container: on its file system (hard links need that), outside the app's view.
    poolPath = container.path + ".deliveries"
  }

  /// Makes the `number`th delivered file: `size` bytes that take no disk space, access time at
  /// the epoch so that `wasTaken(_:)` can tell whether the app read it.
  func make(number: Int, size: Int64) -> (url: URL, path: String) {
    if !directoriesMade {
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      poolWorks = mkdir(poolPath, 0o700) == 0 || errno == EEXIST
      directoriesMade = true
    }
    // Built from the folder's path: `appendingPathComponent` costs several times more per call.
    let path = directoryPath + "/CFNetworkDownload_\(number).tmp"
    if poolWorks, let inode = reusableInode() ?? newInode() {
      // Where hard links are refused (not merely a leftover file at `path`), stop trying.
      if link(poolFile(inode), path) != 0 && errno != EEXIST { poolWorks = false }
    }
    // Empties a reused inode (or the file at `path` when linking failed) and resizes it.
    AppContainer.writeSparseFile(atPath: path, size: size, unread: true)
    return (URL(filePath: path, directoryHint: .notDirectory), path)
  }

  private func poolFile(_ inode: Int) -> String { poolPath + "/\(inode)" }

  /// A pool inode only the pool still links to (the app let go of it), moved to the back.
  private func reusableInode() -> Int? {
    guard !pool.isEmpty else { return nil }
    for step in 0..<min(pool.count, Self.reuseChecks) {
      let index = (poolStart + step) % pool.count
      var info = stat()
      guard stat(poolFile(pool[index]), &info) == 0 else { continue }
      if info.st_nlink == 1 {
        // To the back of the ring: swapped to the front slot, which the start then passes.
        let inode = pool[index]
        pool.swapAt(index, poolStart)
        poolStart = (poolStart + 1) % pool.count
        return inode
      }
    }
    // Inodes the app keeps go to the back, so the next check looks at others.
    if pool.count > Self.reuseChecks { poolStart = (poolStart + 1) % pool.count }
    return nil
  }

  /// A new, empty pool inode.
  private func newInode() -> Int? {
    let inode = poolCount
    let fd = open(poolFile(inode), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else {
      poolWorks = false
      return nil
    }
    _ = close(fd)
    poolCount += 1
    pool.append(inode)
    return inode
  }

  /// What became of a delivered file when the call returned: gone (the app moved it) or read
  /// in place (its access time moved off the epoch) count as taken. One `stat`. Relies on the
  /// file system updating access times (Linux's default `relatime` does; on a volume mounted
  /// `noatime` a file read in place counts as lost).
  static func wasTaken(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return true }
    #if canImport(Darwin)
      return info.st_atimespec.tv_sec != 0
    #else
      return info.st_atim.tv_sec != 0
    #endif
  }

  /// The pool goes with the simulation (the bridge's host), even when the container is kept:
  /// the app's own links to its inodes stay, with their content.
  deinit {
    guard directoriesMade else { return }
    try? FileManager.default.removeItem(atPath: poolPath)
  }
}
