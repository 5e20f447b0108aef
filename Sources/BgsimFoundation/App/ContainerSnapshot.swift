import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the app's container holds (each path's kind, size and modification time), taken when a
/// process ends and compared at the next launch: a difference means code of a terminated process
/// (a real thread, `asyncAfter` on wall-clock time) wrote to it, which cannot happen on a device.
///
/// Read with one directory listing per folder and one `lstat` per entry: this runs twice per
/// process (`bgsim bench bridge`), and Foundation's enumerator with resource values cost about
/// 80 microseconds an entry. Symbolic links are recorded, not followed.
struct ContainerSnapshot: Equatable {
  struct Entry: Equatable {
    var isDirectory: Bool
    var size: Int64
    /// Zero for folders, whose time changes with what they hold.
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
  }
  private(set) var entries: [String: Entry] = [:]

  /// Folders the bridge itself writes while the app is not running (the system's delivery
  /// folders, the partial files resume data names) are left out.
  static func isBridgeOwned(_ relativePath: String) -> Bool {
    relativePath.hasPrefix("Library/Caches/com.apple.nsurlsessiond")
      || (relativePath.hasPrefix("tmp/CFNetworkDownload_bgsim") && relativePath.hasSuffix(".tmp"))
  }

  init(of root: URL) {
    var folders = [""]
    let rootPath = root.standardizedFileURL.path
    while let folder = folders.popLast() {
      let folderPath = folder.isEmpty ? rootPath : rootPath + "/" + folder
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: folderPath) else { continue }
      for name in names {
        let relative = folder.isEmpty ? name : folder + "/" + name
        if ContainerSnapshot.isBridgeOwned(relative) { continue }
        var info = stat()
        guard lstat(rootPath + "/" + relative, &info) == 0 else { continue }
        let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
        if isDirectory { folders.append(relative) }
        let (seconds, nanoseconds) = isDirectory ? (0, 0) : Self.modificationTime(info)
        entries[relative] = Entry(
          isDirectory: isDirectory, size: isDirectory ? 0 : Int64(info.st_size),
          modifiedSeconds: seconds, modifiedNanoseconds: nanoseconds)
      }
    }
  }

  private static func modificationTime(_ info: stat) -> (Int, Int) {
    #if canImport(Darwin)
      return (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
    #else
      return (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
    #endif
  }

  /// The first path (in sorted order) that was added, removed or changed since `earlier`.
  func firstChange(since earlier: ContainerSnapshot) -> String? {
    let paths = Set(entries.keys).union(earlier.entries.keys).sorted()
    return paths.first { entries[$0] != earlier.entries[$0] }
  }
}
