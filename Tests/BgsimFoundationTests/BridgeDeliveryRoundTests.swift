import BgsimFoundation
import Foundation
import Testing

/// Files handed over in a round of deliveries (several downloads finished while the app was
/// suspended), and while other downloads are still moving: the bridge sizes each next file
/// while the app runs the call before it. Each file must still be exactly its download's size,
/// empty and unread, whichever inode served it.
@Suite struct BridgeDeliveryRoundTests {
  /// Starts `files` (URL, size) together a minute after launch, with the app active; with
  /// `leaves`, the user leaves the app a second later, so they finish while it is suspended and
  /// are delivered in one round at the wake. `prepare` sets up the app's download delegate.
  func run(
    _ files: [(String, Int64)], leaves: Bool, prepare: @escaping (PlainDownloadDelegate) -> Void = { _ in }
  ) -> (Simulation, [String], String) {
    let server = ServerModel(
      resources: files.map { ServerResource(url: SimURL($0.0)!, size: $0.1, etag: "\"v1\"") })
    let sim = Simulation(seed: 9, device: .wifi, server: server)
    sim.installApp { PlainAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.minutes(1))) { sim in
      guard let app = sim.currentAppDelegate as? PlainAppDelegate else { return }
      prepare(app.downloads)
      for file in files { app.startDownload(file.0) }
    }
    if leaves { sim.schedule(at: SimTime(.minutes(1)) + .seconds(1)) { $0.backgroundApp() } }
    var log: [String] = []
    sim.schedule(at: SimTime(.hours(2))) { sim in
      log = (sim.currentAppDelegate as? PlainAppDelegate)?.downloads.log ?? []
    }
    sim.run(until: SimTime(.hours(3)))
    return (sim, log, sim.appContainerDirectory!.path)
  }

  func size(_ path: String) -> Int64? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
  }

  /// Large enough that the transfers outlast the app's seconds in the background.
  static let sizes: [Int64] = [300_000_000, 70_000_000, 500_000_000, 90_000_000, 120_000_000, 40_000_000]

  /// Every file of the round has its own download's size, however the sizes alternate.
  @Test func aRoundOfDeliveriesHandsEachFileAtItsOwnSize() {
    let files = Self.sizes.enumerated().map { ("https://example.com/f\($0.offset).bin", $0.element) }
    let (sim, log, container) = run(files, leaves: true)
    #expect(log.filter { $0.hasPrefix("finished") }.count == files.count)
    for (index, expected) in Self.sizes.enumerated() {
      #expect(log.contains("finished f\(index).bin size=\(expected)"))
      #expect(size(container + "/Documents/f\(index).bin") == expected)
    }
    // One round: every file handed over at the same instant, after the app was suspended.
    let finished = sim.trace.events.filter { $0.kind == "delegate.didFinishDownloading" }
    let suspended = sim.trace.events.first { $0.kind == "app.suspend" }
    #expect(Set(finished.map(\.time)).count == 1)
    #expect(suspended.map { $0.time < finished[0].time } == true)
    #expect(!sim.trace.events.contains { $0.kind == "lint" })
  }

  /// In a round, an inode the app read in place is freed when its call returns, and may serve
  /// the next file: that file must be unread again, so one the app leaves alone is still lost.
  @Test func aFileReadInPlaceEarlierInTheRoundLeavesTheNextOneUnread() {
    let files: [(String, Int64)] = [
      ("https://example.com/a.bin", 300_000_000), ("https://example.com/b.bin", 700_000_000),
      ("https://example.com/c.bin", 900_000_000),
    ]
    let (sim, log, _) = run(files, leaves: true) { downloads in
      downloads.readsByName = ["a.bin": .inPlace, "c.bin": .later]
    }
    #expect(log.filter { $0.hasPrefix("finished") }.count == 3)
    let lost = sim.trace.events.filter { $0.kind == "lint" && $0["rule"] == .string("downloadedFileLost") }
    #expect(lost.count == 1)
    #expect(lost.first?["task"] == .string("com.example.downloads#3"))
  }

  /// An inode the app wrote into, freed earlier in the round, is emptied before it serves a
  /// later file: the app never sees an earlier file's bytes.
  @Test func aFileWrittenIntoEarlierInTheRoundLeavesNoBytesBehind() throws {
    let files: [(String, Int64)] = (1...4).map { ("https://example.com/\($0)/item", Int64(100_000_000 * $0)) }
    let (sim, log, container) = run(files, leaves: true) { downloads in
      downloads.writesInto = 3
    }
    #expect(log.filter { $0.hasPrefix("finished") }.count == 4)
    // The first three files were written into, each freed by the next; the last must be zeros.
    let path = container + "/Documents/item"
    #expect(size(path) == 400_000_000)
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    let start = try handle.read(upToCount: 65_536) ?? Data()
    try handle.close()
    #expect(start.count == 65_536)
    #expect(start.allSatisfy { $0 == 0 })
    withExtendedLifetime(sim) {}
  }

  /// Downloads finishing one by one while others still move, with the app active: the file
  /// sized ahead is a guess (the transfer that ends first), and the app cancelling that one
  /// makes the guess wrong. Every file still has its own size.
  @Test func downloadsFinishingWhileOthersMoveEachGetTheirOwnSize() {
    let files = Self.sizes.enumerated().map { ("https://example.com/g\($0.offset).bin", $0.element) }
    let (sim, log, container) = run(files, leaves: false) { downloads in
      // When g5.bin (the smallest) is handed over, g1.bin is the transfer expected to end
      // next, and its file is sized ahead: the app cancels it there and then.
      downloads.onFinish = { session, name in
        guard name == "g5.bin" else { return }
        session.getAllTasks { tasks in
          tasks.first { $0.originalRequest?.url?.lastPathComponent == "g1.bin" }?.cancel()
        }
      }
    }
    #expect(log.filter { $0.hasPrefix("finished") }.count == files.count - 1)
    #expect(log.contains("failed NSURLErrorDomain -999"))
    for (index, expected) in Self.sizes.enumerated() where index != 1 {
      #expect(log.contains("finished g\(index).bin size=\(expected)"))
      #expect(size(container + "/Documents/g\(index).bin") == expected)
    }
    #expect(!sim.trace.events.contains { $0.kind == "lint" })
  }
}
