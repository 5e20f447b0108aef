import Foundation
import Testing
// README-BEGIN
import TransferEngine

final class MyDownloader: AppUnderTest, SimURLSessionDelegate {
  var session: SimURLSession?
  var handler: BackgroundCompletionHandler?

  func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
    session = try? app.makeSession(configuration: .background(withIdentifier: "S"), delegate: self)
    if reason == .user { try? session?.downloadTask(with: "https://example.com/x.zip").resume() }
  }
  func handleEventsForBackgroundURLSession(
    _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler
  ) { handler = completionHandler }
  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didFinishDownloadingTo location: DownloadedFile
  ) { location.move(to: "Documents/x.zip") }
  func urlSessionDidFinishEvents(forBackgroundURLSession session: SimURLSession) { handler?() }
}

func runExample() -> [TraceEvent] {
  let server = ServerModel(resources: [
    ServerResource(url: SimURL("https://example.com/x.zip")!, size: 300_000_000)
  ])
  let sim = Simulation(seed: 7, device: .wifi, server: server)
  sim.install(factory: { MyDownloader() })  // a fresh app object at every launch
  sim.launchApp()
  sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
  sim.schedule(at: SimTime(.seconds(30))) { $0.terminateApp() }
  sim.run(until: SimTime(.hours(2)))
  return sim.trace.events.filter { $0.kind == "app.launch" || $0.kind == "task.finished" }
}
// README-END

@Suite struct ReadmeExampleTests {
  @Test func theExampleRunsAsTheReadmeSaysAndIsPrintedThere() throws {
    let lines = runExample().map {
      "\($0.kind) \($0["reason"]?.description ?? $0["task"]?.description ?? "")"
    }
    #expect(lines == ["app.launch user", "task.finished S#1", "app.launch background"])
    let here = #filePath
    let source = try String(contentsOfFile: here, encoding: .utf8)
    let example = try #require(
      source.components(separatedBy: "// README-BEGIN\n").last?.components(separatedBy: "// README-END").first
    )
    let readmePath =
      here.components(separatedBy: "/Tests/").dropLast().joined(separator: "/Tests/") + "/README.md"
    let readme = try String(contentsOfFile: readmePath, encoding: .utf8)
    #expect(
      readme.contains("```swift\n" + example + "```"),
      "README.md's Swift example must be this file's README block")
  }
}
