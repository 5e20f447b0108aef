import Foundation
import Testing

@testable import BgsimFoundation

@Suite struct ResumeDataFormatTests {
  let record = ResumeDataRecord(
    url: URL(string: "https://example.com/ep1.mp3")!, bytesReceived: 12_345,
    tempFileName: "CFNetworkDownload_7.tmp", entityTag: "\"v1\"", serverDownloadDate: nil, token: 7,
    sessionIdentifier: "podcasts")

  func plist(_ data: Data) throws -> [String: Any] {
    try #require(
      try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any])
  }

  @Test func writesDarwinKeysAsABinaryPlistForIOS11() throws {
    let data = ResumeDataFormat.encode(record, encoding: .forIOS(majorVersion: 11))
    #expect(Array(data.prefix(8)) == Array("bplist00".utf8))
    let dict = try plist(data)
    #expect(ResumeDataFormat.integer(dict["NSURLSessionResumeInfoVersion"]) == 2)
    #expect(dict["NSURLSessionDownloadURL"] as? String == "https://example.com/ep1.mp3")
    #expect(ResumeDataFormat.integer(dict["NSURLSessionResumeBytesReceived"]) == 12_345)
    #expect(dict["NSURLSessionResumeInfoTempFileName"] as? String == "CFNetworkDownload_7.tmp")
    #expect(dict["NSURLSessionResumeEntityTag"] as? String == "\"v1\"")
    #expect(dict["NSURLSessionResumeServerDownloadDate"] == nil)
    #expect(dict["NSURLSessionResumeCurrentRequest"] is Data)
    #expect(dict["NSURLSessionResumeOriginalRequest"] is Data)
  }

  @Test func theNewestIOSWritesAKeyedArchive() throws {
    let dict = try plist(ResumeDataFormat.encode(record))
    #expect(dict["$archiver"] as? String == "NSKeyedArchiver")
    #expect(ResumeDataFormat.decode(ResumeDataFormat.encode(record)) == .success(record))
  }

  @Test func roundTripsThroughDisk() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-resume-\(getpid()).plist")
    defer { try? FileManager.default.removeItem(at: file) }
    try ResumeDataFormat.encode(record).write(to: file)
    #expect(ResumeDataFormat.decode(try Data(contentsOf: file)) == .success(record))
  }

  @Test func lastModifiedValidatorRoundTrips() {
    var dated = record
    dated.entityTag = nil
    dated.serverDownloadDate = "Thu, 01 Jan 2026 00:00:00 GMT"
    #expect(ResumeDataFormat.decode(ResumeDataFormat.encode(dated)) == .success(dated))
  }

  @Test func garbageIsAProblemNotATrap() {
    #expect(ResumeDataFormat.decode(Data()) == .failure(.notAPropertyList))
    #expect(
      ResumeDataFormat.decode(Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 1, 2, 3]))
        == .failure(.notAPropertyList))
    let good = ResumeDataFormat.encode(record)
    #expect(ResumeDataFormat.decode(good.prefix(good.count - 5)) == .failure(.notAPropertyList))
    // Old-style text plists parse as a string: not a dictionary.
    #expect(ResumeDataFormat.decode(Data("hello".utf8)) == .failure(.notADictionary))
  }

  @Test func everyBrokenKeyIsNamed() throws {
    func mutated(_ change: (inout [String: Any]) -> Void) throws -> Data {
      var dict = try plist(ResumeDataFormat.encode(record, encoding: .propertyList))
      change(&dict)
      return try PropertyListSerialization.data(fromPropertyList: dict, format: .binary, options: 0)
    }
    #expect(
      ResumeDataFormat.decode(try mutated { $0["NSURLSessionResumeInfoVersion"] = 3 })
        == .failure(.unsupportedVersion))
    #expect(
      ResumeDataFormat.decode(try mutated { $0["NSURLSessionResumeInfoVersion"] = nil })
        == .failure(.unsupportedVersion))
    #expect(
      ResumeDataFormat.decode(try mutated { $0["NSURLSessionDownloadURL"] = 5 })
        == .failure(.badKey("NSURLSessionDownloadURL")))
    #expect(
      ResumeDataFormat.decode(try mutated { $0["NSURLSessionResumeBytesReceived"] = -1 })
        == .failure(.badKey("NSURLSessionResumeBytesReceived")))
    #expect(
      ResumeDataFormat.decode(try mutated { $0["NSURLSessionResumeInfoTempFileName"] = "../../etc/passwd" })
        == .failure(.badKey("NSURLSessionResumeInfoTempFileName")))
    #expect(
      ResumeDataFormat.decode(try mutated { $0["NSURLSessionResumeEntityTag"] = Data([1]) })
        == .failure(.badKey("NSURLSessionResumeEntityTag")))
    #expect(
      ResumeDataFormat.decode(try mutated { $0["BgsimResumeToken"] = nil }) == .failure(.notFromSimulation))
    #expect(
      ResumeDataFormat.decode(try mutated { $0["BgsimResumeDataVersion"] = 99 })
        == .failure(.notFromSimulation))
  }

  /// A binary property list of four objects: a dictionary {key: value}, the string "a", and
  /// `value` and `other` as given (marker bytes), by hand, as damaged resume data may hold them.
  static func binaryPropertyList(key: UInt8, value: [UInt8], other: [UInt8]) -> Data {
    var bytes = Array("bplist00".utf8)
    let dictionary: [UInt8] = [0xD1, key, 2]
    let string: [UInt8] = [0x51, 0x61]
    var offsets: [UInt8] = []
    for object in [dictionary, string, value, other] {
      offsets.append(UInt8(bytes.count))
      bytes += object
    }
    let table = UInt64(bytes.count)
    bytes += offsets
    bytes += [0, 0, 0, 0, 0, 0, 1, 1]
    for field in [UInt64(4), 0, table] {
      bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: field >> ($0 * 8)) }
    }
    return Data(bytes)
  }

  /// swift-corelibs-foundation traps (a bad pointer dereference while bridging) on a binary
  /// property list holding a set of a collection, or a dictionary keyed by a collection: the
  /// bridge refuses both before Foundation reads them. CI once crashed on random damage that
  /// made such a set, in `randomBytesNeverTrap`.
  @Test func setsAndCollectionKeysAreRefusedBeforeFoundationReadsThem() {
    let setOfAnArray = Self.binaryPropertyList(key: 1, value: [0xC1, 3], other: [0xA0])
    let arrayAsAKey = Self.binaryPropertyList(key: 3, value: [0x51, 0x62], other: [0xA0])
    #expect(ResumeDataFormat.decode(setOfAnArray) == .failure(.notAPropertyList))
    #expect(ResumeDataFormat.decode(arrayAsAKey) == .failure(.notAPropertyList))
    // The same shape with a string where the set was is a property list (not resume data).
    let plain = Self.binaryPropertyList(key: 1, value: [0x51, 0x62], other: [0xA0])
    #expect(ResumeDataFormat.decode(plain) != .failure(.notAPropertyList))
  }

  @Test(arguments: ResumeDataEncoding.allCases)
  func randomBytesNeverTrap(encoding: ResumeDataEncoding) {
    var generator = SplitMix64(seed: 11)
    let good = ResumeDataFormat.encode(record, encoding: encoding)
    for _ in 0..<2_000 {
      var bytes = [UInt8](good)
      for _ in 0..<4 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      if case .success(let parsed) = ResumeDataFormat.decode(Data(bytes)) {
        #expect(parsed.bytesReceived >= 0)
      }
    }
  }
}

/// A tiny deterministic generator (SplitMix64) so the mutation tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
