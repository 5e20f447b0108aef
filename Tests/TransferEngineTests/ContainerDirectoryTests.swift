import Foundation
import SimKernel
import Testing
import TransferEngine

/// An app that writes a state file at its first launch and reads it back at every later one.
private final class FileApp: AppUnderTest {
  var readBack: [String?] = []
  func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
    let file = URL(fileURLWithPath: app.containerDirectory).appendingPathComponent("Documents/state.txt")
    if let text = try? String(contentsOf: file, encoding: .utf8) {
      readBack.append(text)
    } else {
      readBack.append(nil)
      try? FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try? Data("written by launch 1".utf8).write(to: file)
    }
  }
  func handleEventsForBackgroundURLSession(
    _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler
  ) { completionHandler() }
}

/// The container for a Swift `AppUnderTest`: one real directory per simulation that survives the
/// app's processes and goes with the simulation.
@Suite struct ContainerDirectoryTests {
  @Test func aFileWrittenBeforeTerminationIsThereAtTheNextLaunch() {
    var apps: [FileApp] = []
    var path = ""
    do {
      let sim = Simulation(seed: 1)
      sim.install(factory: {
        let app = FileApp()
        apps.append(app)
        return app
      })
      sim.launchApp()
      sim.terminateApp()
      sim.launchApp()
      sim.forceQuitApp()
      sim.launchApp()
      path = sim.containerDirectory
      #expect(FileManager.default.fileExists(atPath: path + "/Documents/state.txt"))
    }
    #expect(apps.count == 3)
    #expect(apps.map { $0.readBack } == [[nil], ["written by launch 1"], ["written by launch 1"]])
    // Released with the simulation.
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func eachSimulationHasItsOwnAndKeepingItLeavesItOnDisk() throws {
    var kept = ""
    do {
      let a = Simulation(seed: 1)
      let b = Simulation(seed: 1)
      #expect(a.containerDirectory != b.containerDirectory)
      #expect(a.containerDirectory == a.containerDirectory)
      a.keepsContainer = true
      kept = a.containerDirectory
    }
    defer { try? FileManager.default.removeItem(atPath: kept) }
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: kept, isDirectory: &isDirectory) && isDirectory.boolValue)
  }
}
