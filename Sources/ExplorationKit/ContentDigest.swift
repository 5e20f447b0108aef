import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// The digest of the regular file at `url`, or nil when it cannot be read or is not a regular
  /// file. The app owns its container, so a FIFO or a link to a device may be there: it is
  /// opened without waiting for a writer (`O_NONBLOCK`) and never read.
  public static func ofFile(at url: URL) -> String? {
    let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { _ = close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 0 else { return nil }
    let size = Int64(info.st_size)
    var hash = FNV1a()
    hash.add(String(size))
    if size <= Int64(wholeFileLimit) {
      SparseReader(fd: fd).hash(0..<size, into: &hash)
    } else {
      let edge = Int64(edgeBytes)
      SparseReader(fd: fd).hash(0..<edge, into: &hash)
      SparseReader(fd: fd).hash((size - edge)..<size, into: &hash)
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
///
/// Bytes are hashed through a raw buffer, and a run of zero bytes in one step: XOR with zero
/// changes nothing, so `n` zeros multiply the state by the prime to the `n`th power (the same
/// value as hashing them one by one). The simulated downloads are sparse, so almost every byte
/// an exploration digests is zero (`bgsim bench explore` spent three quarters of its time here,
/// one byte at a time through `Data`'s iterator).
struct FNV1a {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x100_0000_01b3

  mutating func add(bytes: Data) {
    bytes.withUnsafeBytes { add(raw: $0) }
  }

  mutating func add(raw bytes: UnsafeRawBufferPointer) {
    let count = bytes.count
    var state = value
    var index = 0
    while index < count {
      let byte = bytes[index]
      if byte != 0 {
        state ^= UInt64(byte)
        state = state &* Self.prime
        index += 1
        continue
      }
      var end = index + 1
      while end + 8 <= count && bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self) == 0 { end += 8 }
      while end < count && bytes[end] == 0 { end += 1 }
      state = state &* Self.primePower(end - index)
      index = end
    }
    value = state
  }

  /// `count` zero bytes, as many steps of the hash as one.
  mutating func addZeros(_ count: Int) {
    value = value &* Self.primePower(count)
  }

  /// The prime to the `exponent`th power, modulo 2^64 (by squaring).
  static func primePower(_ exponent: Int) -> UInt64 {
    var result: UInt64 = 1
    var base = prime
    var rest = exponent
    while rest > 0 {
      if rest & 1 == 1 { result = result &* base }
      base = base &* base
      rest >>= 1
    }
    return result
  }

  mutating func add(_ text: String) {
    for byte in text.utf8 {
      value ^= UInt64(byte)
      value = value &* Self.prime
    }
    value ^= 0xff
    value = value &* Self.prime
  }

  var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
