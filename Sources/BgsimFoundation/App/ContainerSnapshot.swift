import Foundation

/// What the app's container holds (each path's size and modification time), taken when a process
/// ends and compared at the next launch: a difference means code of a terminated process (a real
/// thread, `asyncAfter` on wall-clock time) wrote to it, which cannot happen on a device.
struct ContainerSnapshot: Equatable {
  struct Entry: Equatable {
    var isDirectory: Bool
    var size: Int64
    var modified: Date?
  }
  private(set) var entries: [String: Entry] = [:]

  /// Folders the bridge itself writes while the app is not running (the system's delivery
  /// folders, the partial files resume data names) are left out.
  static func isBridgeOwned(_ relativePath: String) -> Bool {
    relativePath.hasPrefix("Library/Caches/com.apple.nsurlsessiond")
      || (relativePath.hasPrefix("tmp/CFNetworkDownload_bgsim") && relativePath.hasSuffix(".tmp"))
  }

  init(of root: URL) {
    let keys: [URLResourceKey] = [.isDirectoryKey, .fileSizeKey, .contentModificationDateKey]
    guard
      let walker = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: keys, options: [], errorHandler: { _, _ in true })
    else { return }
    let prefix = root.standardizedFileURL.path + "/"
    for case let url as URL in walker {
      let path = url.standardizedFileURL.path
      guard path.hasPrefix(prefix) else { continue }
      let relative = String(path.dropFirst(prefix.count))
      if ContainerSnapshot.isBridgeOwned(relative) { continue }
      let values = try? url.resourceValues(forKeys: Set(keys))
      let isDirectory = values?.isDirectory ?? false
      entries[relative] = Entry(
        isDirectory: isDirectory, size: Int64(values?.fileSize ?? 0),
        modified: isDirectory ? nil : values?.contentModificationDate)
    }
  }

  /// The first path (in sorted order) that was added, removed or changed since `earlier`.
  func firstChange(since earlier: ContainerSnapshot) -> String? {
    let paths = Set(entries.keys).union(earlier.entries.keys).sorted()
    return paths.first { entries[$0] != earlier.entries[$0] }
  }
}
