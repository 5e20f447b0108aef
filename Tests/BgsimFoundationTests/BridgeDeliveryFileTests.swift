import BgsimFoundation
import Foundation
import Testing

/// `didFinishDownloadingTo` files are hard links into a pool of reused inodes (`DeliveryFiles`):
/// a file the app keeps must never change, and one it lets go of is reused.
@Suite struct BridgeDeliveryFileTests {
  /// Downloads `files` (URL, size) one a minute, with the app active; the app moves each file to
  /// Documents under the URL's last path component, replacing what was there. `beforeDownload`
  /// gets each download's index just before it starts.
  func run(
    _ files: [(String, Int64)], beforeDownload: @escaping (Int, Simulation) -> Void = { _, _ in }
  ) -> (Simulation, [String], String) {
    let server = ServerModel(
      resources: files.map { ServerResource(url: SimURL($0.0)!, size: $0.1, etag: "\"v1\"") })
    let sim = Simulation(seed: 4, device: .wifi, server: server)
    sim.installApp { PlainAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    for (index, file) in files.enumerated() {
      sim.schedule(at: SimTime(.minutes(Int64(index) + 1))) { sim in
        beforeDownload(index, sim)
        (sim.currentAppDelegate as? PlainAppDelegate)?.startDownload(file.0)
      }
    }
    var log: [String] = []
    sim.schedule(at: SimTime(.minutes(Int64(files.count) + 5))) { sim in
      log = (sim.currentAppDelegate as? PlainAppDelegate)?.downloads.log ?? []
    }
    sim.run(until: SimTime(.minutes(Int64(files.count) + 10)))
    return (sim, log, sim.appContainerDirectory!.path)
  }

  func size(_ path: String) -> Int64? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
  }

  @Test func filesTheAppKeepsNeverChangeWhenLaterDownloadsArrive() {
    let (sim, log, container) = run([
      ("https://example.com/a.bin", 300_000), ("https://example.com/b.bin", 700_000),
      ("https://example.com/c.bin", 5_000),
    ])
    #expect(
      log == [
        "finished a.bin size=300000", "completed 200", "finished b.bin size=700000", "completed 200",
        "finished c.bin size=5000", "completed 200",
      ])
    #expect(size(container + "/Documents/a.bin") == 300_000)
    #expect(size(container + "/Documents/b.bin") == 700_000)
    #expect(size(container + "/Documents/c.bin") == 5_000)
    withExtendedLifetime(sim) {}
  }

  @Test func aFileTheAppReplacedIsReusedWithTheNextDownloadsSize() throws {
    let (sim, log, container) = run([
      ("https://example.com/1/item", 300_000), ("https://example.com/2/item", 700_000),
      ("https://example.com/3/item", 5_000), ("https://example.com/4/item", 900_000),
    ])
    #expect(
      log == [
        "finished item size=300000", "completed 200", "finished item size=700000", "completed 200",
        "finished item size=5000", "completed 200", "finished item size=900000", "completed 200",
      ])
    #expect(size(container + "/Documents/item") == 900_000)
    // The app holds one file at a time: two inodes serve all four deliveries.
    let pool = try FileManager.default.contentsOfDirectory(atPath: container + ".deliveries")
    #expect(pool.count == 2)
    #expect(!sim.trace.events.contains { $0.kind == "lint" })
  }

  /// An inode the app wrote into is emptied before a later delivery reuses it: the new file
  /// holds zeros only, never the bytes of an earlier one.
  @Test func aReusedFileTheAppWroteIntoHoldsNoOldBytes() throws {
    let files: [(String, Int64)] = [
      ("https://example.com/1/item", 300_000), ("https://example.com/2/item", 700_000),
      ("https://example.com/3/item", 5_000),
    ]
    let (sim, log, container) = run(files) { index, sim in
      guard index == 1 else { return }
      // The first file, kept in Documents, is written into before the next download replaces it.
      let handle = try? FileHandle(
        forWritingTo: sim.appContainerDirectory!.appendingPathComponent("Documents/item"))
      try? handle?.write(contentsOf: Data(repeating: 0x41, count: 8_192))
      try? handle?.close()
    }
    #expect(log.count == 6)
    // Two inodes served three deliveries: the third reused the one written into.
    #expect(try FileManager.default.contentsOfDirectory(atPath: container + ".deliveries").count == 2)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: container + "/Documents/item"))
    #expect(bytes.count == 5_000)
    #expect(bytes.allSatisfy { $0 == 0 })
    withExtendedLifetime(sim) {}
  }

  /// A reused inode the app read in place is made unread again: a later download the app leaves
  /// alone still counts as lost (`downloadedFileLost`), however the inode was used before.
  @Test func aReusedFileTheAppReadBeforeCountsAsUnreadAgain() throws {
    let files: [(String, Int64)] = [
      ("https://example.com/a.bin", 300_000), ("https://example.com/b.bin", 700_000),
    ]
    let (sim, log, container) = run(files) { index, sim in
      // The first file is read in the call and left in place; the second is read only later,
      // from the main queue, after the system deleted it.
      (sim.currentAppDelegate as? PlainAppDelegate)?.downloads.reads = index == 0 ? .inPlace : .later
    }
    #expect(log.count == 4)
    // One inode served both deliveries: the app let go of the first.
    #expect(try FileManager.default.contentsOfDirectory(atPath: container + ".deliveries").count == 1)
    let lost = sim.trace.events.filter { $0.kind == "lint" && $0["rule"] == .string("downloadedFileLost") }
    #expect(lost.count == 1)
    #expect(lost.first?["task"] == .string("com.example.downloads#2"))
  }

  /// The first pool inodes are resized through descriptors the pool keeps open (8), later ones
  /// by name: an app that keeps more files than that gets every one at its own size.
  @Test func filesPastThePoolsOpenDescriptorsKeepTheirSizes() throws {
    let files: [(String, Int64)] = (0..<12).map {
      ("https://example.com/kept\($0).bin", Int64(1_000 + 7 * $0))
    }
    let (sim, log, container) = run(files)
    #expect(log.count == 2 * files.count)
    for index in 0..<12 {
      #expect(size(container + "/Documents/kept\(index).bin") == Int64(1_000 + 7 * index))
    }
    // One inode per kept file.
    #expect(try FileManager.default.contentsOfDirectory(atPath: container + ".deliveries").count == 12)
    #expect(!sim.trace.events.contains { $0.kind == "lint" })
  }

  /// An app that clears its caches deletes the system's delivery folder inside them: the next
  /// delivery makes it again instead of handing the app a file that is not there.
  @Test func aDeliveryAfterTheAppClearedItsCachesStillHasItsFile() {
    let files: [(String, Int64)] = [
      ("https://example.com/a.bin", 300_000), ("https://example.com/b.bin", 700_000),
    ]
    let (sim, log, container) = run(files) { index, sim in
      guard index == 1 else { return }
      let caches = sim.appContainerDirectory!.appendingPathComponent("Library/Caches")
      #expect((try? FileManager.default.removeItem(at: caches)) != nil)
    }
    #expect(
      log == ["finished a.bin size=300000", "completed 200", "finished b.bin size=700000", "completed 200"])
    #expect(size(container + "/Documents/b.bin") == 700_000)
    withExtendedLifetime(sim) {}
  }

  @Test func thePoolGoesWithTheSimulation() {
    var pool: String?
    do {
      let (sim, _, container) = run([("https://example.com/a.bin", 1_000)])
      pool = container + ".deliveries"
      withExtendedLifetime(sim) { #expect(FileManager.default.fileExists(atPath: pool!)) }
    }
    #expect(!FileManager.default.fileExists(atPath: pool!))
  }
}
