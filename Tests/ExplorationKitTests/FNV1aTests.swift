import Foundation
import Testing

@testable import ExplorationKit

/// The digest hashes runs of zero bytes in one step; it must give exactly what FNV-1a gives
/// byte by byte, or every shipped exploration's digests (and kill points) would change.
@Suite struct FNV1aTests {
  /// FNV-1a 64 one byte at a time, as its definition says.
  static func reference(_ bytes: [UInt8]) -> UInt64 {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* 0x100_0000_01b3
    }
    return value
  }

  static func hashed(_ bytes: [UInt8]) -> UInt64 {
    var hash = FNV1a()
    hash.add(bytes: Data(bytes))
    return hash.value
  }

  @Test func knownVectors() {
    #expect(Self.hashed([]) == 0xcbf2_9ce4_8422_2325)
    #expect(Self.hashed(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
    #expect(Self.hashed(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
  }

  @Test func zeroRunsGiveWhatByteByByteGives() {
    // Zero runs of every length around the 8-byte steps, at both ends and between other bytes.
    for run in [1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4097] {
      let zeros = [UInt8](repeating: 0, count: run)
      for bytes in [zeros, zeros + [7], [7] + zeros, [1, 2] + zeros + [3] + zeros + [4, 0]] {
        #expect(Self.hashed(bytes) == Self.reference(bytes), "run \(run), \(bytes.count) bytes")
      }
    }
  }

  @Test func mixedBytesGiveWhatByteByByteGives() {
    var random = DigestTestBytes(seed: 42)
    for length in [0, 1, 5, 64, 999, 70_000] {
      // About half the bytes zero, in runs of varied length.
      let bytes = (0..<length).map { _ -> UInt8 in
        random.next() % 3 == 0 ? UInt8(truncatingIfNeeded: random.next()) : 0
      }
      #expect(Self.hashed(bytes) == Self.reference(bytes), "\(length) bytes")
    }
  }

  /// The digest of a file as its definition says: FNV-1a over its size in decimal (then 0xff),
  /// then its bytes, or its first and last `edgeBytes` when it is over `wholeFileLimit`.
  static func referenceDigest(_ bytes: [UInt8]) -> String {
    var size = FNV1a()
    size.add(String(bytes.count))
    let edge = ContentDigest.edgeBytes
    let read =
      bytes.count <= ContentDigest.wholeFileLimit
      ? bytes : Array(bytes[..<edge]) + Array(bytes[(bytes.count - edge)...])
    var value = size.value
    for byte in read {
      value ^= UInt64(byte)
      value = value &* 0x100_0000_01b3
    }
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  @Test(arguments: [100_000, ContentDigest.wholeFileLimit + 3 * ContentDigest.edgeBytes])
  func filesDigestAsTheirBytesDoWrittenOrSparse(size: Int) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bgsim-fnv-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // Islands of data: at the start, across the end of the first edge (of a large file), in the
    // middle, at the end.
    let islands: [(offset: Int, bytes: [UInt8])] = [
      (5, [9, 0, 3]), (min(ContentDigest.edgeBytes, size / 3) - 2, [1, 2, 3, 4]), (size / 2, [77]),
      (size - 2, [200, 0]),
    ]
    var bytes = [UInt8](repeating: 0, count: size)
    for island in islands {
      bytes.replaceSubrange(island.offset..<island.offset + island.bytes.count, with: island.bytes)
    }
    // Written whole (no holes), and sparse (the zeros never written: holes the file system reports).
    let dense = folder.appendingPathComponent("dense.bin")
    try Data(bytes).write(to: dense)
    let sparse = folder.appendingPathComponent("sparse.bin")
    #expect(FileManager.default.createFile(atPath: sparse.path, contents: nil))
    let handle = try FileHandle(forWritingTo: sparse)
    try handle.truncate(atOffset: UInt64(size))
    for island in islands {
      try handle.seek(toOffset: UInt64(island.offset))
      try handle.write(contentsOf: Data(island.bytes))
    }
    try handle.close()
    let expected = Self.referenceDigest(bytes)
    #expect(ContentDigest.ofFile(at: dense) == expected)
    #expect(ContentDigest.ofFile(at: sparse) == expected)
  }

  @Test func anEmptyAndAMissingFile() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-fnv-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(ContentDigest.ofFile(at: url) == nil)
    try Data().write(to: url)
    #expect(ContentDigest.ofFile(at: url) == Self.referenceDigest([]))
  }
}

/// A small deterministic generator for the test's bytes.
private struct DigestTestBytes {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 33
  }
}

/// What the digest does with files that are not regular files.
@Suite struct ContentDigestSpecialFileTests {
  /// A FIFO the app left in its container is named unreadable at once: opening it for reading
  /// must not wait for a writer (the exploration would hang), and it is never read.
  @Test func aFIFOIsUnreadableWithoutWaiting() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bgsim-fifo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("pipe")
    try #require(mkfifo(fifo.path, 0o600) == 0)
    try Data([1, 2, 3]).write(to: directory.appendingPathComponent("file"))
    #expect(ContentDigest.ofFile(at: fifo) == nil)
    let files = ContentDigest.files(under: directory)
    #expect(files.map(\.path) == ["file", "pipe"])
    #expect(files.last?.digest == "unreadable")
    #expect(files.first?.digest == ContentDigest.ofFile(at: directory.appendingPathComponent("file")))
  }
}
