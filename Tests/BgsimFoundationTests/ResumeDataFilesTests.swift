import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Resume data as download managers read it: decoded with the calls Tiercel's `ResumeDataHelper`
/// makes (a keyed archive first, then a property list), and its partial file looked for at
/// `NSTemporaryDirectory()` plus its name, as on a device.
@Suite struct ResumeDataFilesTests {
  static let episode = "https://example.com/episode.mp3"

  /// Tiercel's sequence: `NSKeyedUnarchiver(forReadingWith:)`, the root object under the key
  /// devices write and then under `NSKeyedArchiveRootObjectKey`, `finishDecoding()`, and only
  /// if that found nothing, `PropertyListSerialization` with mutable containers. Tiercel calls
  /// `decodeTopLevelObject(of:forKey:)`, which swift-corelibs-foundation marks unavailable in
  /// favour of `decodeObject(of:forKey:)` (what a Linux port of it calls).
  static func libraryDictionary(_ data: Data) -> NSDictionary? {
    var object: NSDictionary?
    let unarchiver = NSKeyedUnarchiver(forReadingWith: data)
    #if canImport(Darwin)
      do {
        object = try unarchiver.decodeTopLevelObject(
          of: NSDictionary.self, forKey: "NSKeyedArchiveRootObjectKey")
        if object == nil {
          object = try unarchiver.decodeTopLevelObject(
            of: NSDictionary.self, forKey: NSKeyedArchiveRootObjectKey)
        }
      } catch {}
    #else
      object = unarchiver.decodeObject(of: NSDictionary.self, forKey: "NSKeyedArchiveRootObjectKey")
      if object == nil {
        object = unarchiver.decodeObject(of: NSDictionary.self, forKey: NSKeyedArchiveRootObjectKey)
      }
    #endif
    unarchiver.finishDecoding()
    if object == nil {
      object =
        (try? PropertyListSerialization.propertyList(
          from: data, options: .mutableContainersAndLeaves, format: nil))
        as? NSDictionary
    }
    return object
  }

  /// The partial file's name as a library reads it (version 2 resume data).
  static func tempFileName(_ data: Data) -> String? {
    libraryDictionary(data)?["NSURLSessionResumeInfoTempFileName"] as? String
  }

  static func inTemporaryDirectory(_ name: String) -> String {
    let tmp = NSTemporaryDirectory()
    return tmp.hasSuffix("/") ? tmp + name : tmp + "/" + name
  }

  func world() -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.episode)!, size: 500_000_000, etag: "\"e1\"")
    ])
    return Simulation(seed: 5, device: .wifi, server: server)
  }

  @Test func aLibraryDecodesTheBridgesResumeDataAndFindsItsPartialFileInNSTemporaryDirectory() throws {
    var sim: Simulation? = world()
    sim?.installApp { PlainAppDelegate($0) }
    var foundBeforeResume = false
    var foundAfterResume = true
    var name: String?
    var bytes: Int64?
    sim?.schedule(at: .zero) { $0.launchApp() }
    sim?.schedule(at: SimTime(.seconds(1))) { sim in
      (sim.currentAppDelegate as? PlainAppDelegate)?.startDownload(Self.episode)
    }
    sim?.schedule(at: SimTime(.seconds(21))) { $0.forceQuitApp() }
    sim?.schedule(at: SimTime(.minutes(5))) { $0.launchApp() }
    sim?.schedule(at: SimTime(.minutes(6))) { sim in
      guard let app = sim.currentAppDelegate as? PlainAppDelegate,
        let data = try? Data(contentsOf: app.downloads.documents.appendingPathComponent("resume.data"))
      else { return }
      name = Self.tempFileName(data)
      bytes = (Self.libraryDictionary(data)?["NSURLSessionResumeBytesReceived"] as? NSNumber)?.int64Value
      if let name {
        foundBeforeResume = FileManager.default.fileExists(atPath: Self.inTemporaryDirectory(name))
      }
      #expect(app.resumeFromSavedData())
      if let name {
        foundAfterResume = FileManager.default.fileExists(atPath: Self.inTemporaryDirectory(name))
      }
    }
    sim?.run(until: SimTime(.minutes(7)))
    let partial = try #require(name)
    #expect(partial.hasPrefix("CFNetworkDownload_"))
    #expect((bytes ?? 0) > 0)
    #expect(foundBeforeResume, "the partial file is where a device has it while the resume data is unused")
    #expect(!foundAfterResume, "resuming consumes the partial file")
    sim = nil
    #expect(!FileManager.default.fileExists(atPath: Self.inTemporaryDirectory(partial)))
  }

  @Test func thePartialFileInNSTemporaryDirectoryGoesWithTheSimulation() throws {
    var sim: Simulation? = world()
    sim?.installApp { PlainAppDelegate($0) }
    var name: String?
    sim?.schedule(at: .zero) { $0.launchApp() }
    sim?.schedule(at: SimTime(.seconds(1))) { sim in
      (sim.currentAppDelegate as? PlainAppDelegate)?.startDownload(Self.episode)
    }
    sim?.schedule(at: SimTime(.seconds(21))) { $0.forceQuitApp() }
    // The error (and its resume data, which the app saves) comes at the next launch.
    sim?.schedule(at: SimTime(.minutes(1))) { $0.launchApp() }
    sim?.run(until: SimTime(.minutes(2)))
    let documents = try #require(sim?.appContainerDirectory).appendingPathComponent("Documents")
    let data = try Data(contentsOf: documents.appendingPathComponent("resume.data"))
    name = Self.tempFileName(data)
    let partial = try #require(name)
    #expect(FileManager.default.fileExists(atPath: Self.inTemporaryDirectory(partial)))
    sim = nil
    #expect(!FileManager.default.fileExists(atPath: Self.inTemporaryDirectory(partial)))
  }

  /// Two simulations side by side (tests run in parallel) never share a partial file name.
  @Test func partialFileNamesAreUniquePerSimulation() throws {
    func partialName() throws -> String? {
      let sim = world()
      sim.installApp { PlainAppDelegate($0) }
      sim.schedule(at: .zero) { $0.launchApp() }
      sim.schedule(at: SimTime(.seconds(1))) { sim in
        (sim.currentAppDelegate as? PlainAppDelegate)?.startDownload(Self.episode)
      }
      sim.schedule(at: SimTime(.seconds(21))) { $0.forceQuitApp() }
      sim.schedule(at: SimTime(.minutes(1))) { $0.launchApp() }
      sim.run(until: SimTime(.minutes(2)))
      let documents = try #require(sim.appContainerDirectory).appendingPathComponent("Documents")
      return Self.tempFileName(try Data(contentsOf: documents.appendingPathComponent("resume.data")))
    }
    let first = try #require(try partialName())
    let second = try #require(try partialName())
    #expect(first != second)
  }

  @Test func theEncodingFollowsTheIOSVersion() throws {
    #expect(ResumeDataEncoding.forIOS(majorVersion: 10) == .propertyList)
    #expect(ResumeDataEncoding.forIOS(majorVersion: 11) == .propertyList)
    #expect(ResumeDataEncoding.forIOS(majorVersion: 12) == .keyedArchive)
    #expect(ResumeDataEncoding.forIOS(majorVersion: 17) == .keyedArchive)
    #expect(ResumeDataEncoding.newest == .keyedArchive)
    let record = ResumeDataRecord(
      url: URL(string: Self.episode)!, bytesReceived: 4_096, tempFileName: "CFNetworkDownload_1.tmp",
      entityTag: "\"e1\"", serverDownloadDate: nil, token: 1, sessionIdentifier: "s")
    let archived = ResumeDataFormat.encode(record, encoding: .keyedArchive)
    let plain = ResumeDataFormat.encode(record, encoding: .propertyList)
    let archive = try #require(
      try PropertyListSerialization.propertyList(from: archived, options: [], format: nil) as? [String: Any])
    #expect(archive["$archiver"] as? String == "NSKeyedArchiver")
    let top = try #require(archive["$top"] as? [String: Any])
    #expect(top["NSKeyedArchiveRootObjectKey"] != nil)
    let flat = try #require(
      try PropertyListSerialization.propertyList(from: plain, options: [], format: nil) as? [String: Any])
    #expect(flat["$archiver"] == nil)
    #expect(flat["NSURLSessionResumeInfoTempFileName"] as? String == "CFNetworkDownload_1.tmp")
    // The bridge reads both, and the XML property list a repairing library writes back.
    #expect(ResumeDataFormat.decode(archived) == .success(record))
    #expect(ResumeDataFormat.decode(plain) == .success(record))
    let repaired = try PropertyListSerialization.data(fromPropertyList: flat, format: .xml, options: 0)
    #expect(ResumeDataFormat.decode(repaired) == .success(record))
    // A library's keyed-archive-first reading finds the dictionary in the archive.
    #expect(Self.libraryDictionary(archived)?["NSURLSessionResumeBytesReceived"] as? NSNumber == 4_096)
    #expect(Self.tempFileName(archived) == "CFNetworkDownload_1.tmp")
  }

  /// An archive that says it is one but whose objects are wrong fails to decode, never traps.
  @Test func aBrokenArchiveIsAProblemNotATrap() throws {
    let broken: [String: Any] = [
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["NSKeyedArchiveRootObjectKey": "x"],
      "$objects": ["$null", 5],
    ]
    let data = try PropertyListSerialization.data(fromPropertyList: broken, format: .binary, options: 0)
    guard case .failure = ResumeDataFormat.decode(data) else {
      Issue.record("a broken archive decoded")
      return
    }
  }
}
