import Foundation

/// Digests of the files an exploration compares: FNV-1a 64 over the bytes, written in hex.
///
/// A file over `wholeFileLimit` is digested by its size and its first and last `edgeBytes`: the
/// simulated downloads are sparse files of hundreds of megabytes, and reading them whole at every
/// run would cost more than the runs themselves.
public enum ContentDigest {
  /// Files up to this size (4 MiB) are digested whole.
  public static let wholeFileLimit = 4 << 20
  /// How much of each end of a larger file is digested (1 MiB).
  public static let edgeBytes = 1 << 20

  /// The digest of the file at `url`, or nil when it cannot be read.
  public static func ofFile(at url: URL) -> String? {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd() else { return nil }
    var hash = FNV1a()
    hash.add(String(size))
    try? handle.seek(toOffset: 0)
    if size <= UInt64(wholeFileLimit) {
      hash.add(bytes: (try? handle.readToEnd()) ?? Data())
    } else {
      hash.add(bytes: (try? handle.read(upToCount: edgeBytes)) ?? Data())
      try? handle.seek(toOffset: size - UInt64(edgeBytes))
      hash.add(bytes: (try? handle.read(upToCount: edgeBytes)) ?? Data())
    }
    return hash.hex
  }

  /// The digest of a text.
  public static func ofText(_ text: String) -> String {
    var hash = FNV1a()
    hash.add(text)
    return hash.hex
  }

  /// Every regular file under `directory`, by its path below it with `prefix` in front
  /// (`Documents/ep42.mp3` for prefix `Documents`), with its digest; sorted by path, so the result
  /// never depends on the order the file system lists them in. Paths come from the enumerator
  /// relative to `directory`, so a symbolic link in the directory's own path (`/var` is
  /// `/private/var` on Darwin) cannot change them.
  public static func files(under directory: URL, prefix: String = "") -> [(path: String, digest: String)] {
    guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
    var result: [(String, String)] = []
    while let relative = walker.nextObject() as? String {
      let url = directory.appendingPathComponent(relative)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      let path = prefix.isEmpty ? relative : prefix + "/" + relative
      result.append((path, ofFile(at: url) ?? "unreadable"))
    }
    return result.sorted { $0.0 < $1.0 }
  }
}

/// The 64-bit FNV-1a hash (no dependency, the same on every platform).
struct FNV1a {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(bytes: Data) {
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* 0x100_0000_01b3
    }
  }

  mutating func add(_ text: String) {
    for byte in text.utf8 {
      value ^= UInt64(byte)
      value = value &* 0x100_0000_01b3
    }
    value ^= 0xff
    value = value &* 0x100_0000_01b3
  }

  var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
