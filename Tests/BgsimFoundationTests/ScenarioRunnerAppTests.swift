import BgsimFoundation
import Foundation
import Testing

@Suite struct ScenarioRunnerAppTests {
  func write(_ json: String) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bgsim-bridge-\(getpid())-\(json.count).json")
    try Data(json.utf8).write(to: file)
    return file.path
  }

  static let world = """
    "seed": 4, "duration": "2h",
    "device": {"network": [{"at": "0s", "interface": "wifi", "down": "20Mbps"}]},
    "server": {"resources": [{"url": "https://example.com/book.zip", "size": "500MB", "etag": "v1"}]},
    """

  @Test func theFilesWorldRunsTheSwiftApp() throws {
    let path = try write(
      """
      {"name": "relaunch", \(Self.world)
       "timeline": [{"at": "0s", "do": "launch"}, {"at": "2s", "do": "background"}, {"at": "1m", "do": "terminate"}],
       "expect": [{"trace": "delegate.didComplete task=com.example.downloads#1 error=none", "count": 1},
                  {"app": "backgroundLaunches", "equals": 1},
                  {"trace": ["app.launch reason=background", "delegate.didFinishDownloading task=com.example.downloads#1",
                             "app.completionHandlerCalled session=com.example.downloads"], "inOrder": true},
                  {"lint": "completionHandlerNeverCalled", "present": false}]}
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try ScenarioRunner.run(file: path) { app in
      PlainAppDelegate(app, startsAtUserLaunch: "https://example.com/book.zip")
    }
    #expect(result.failedExpectations.isEmpty)
    #expect(result.passed)
  }

  @Test func taskExpectationsNameTheSwiftAppsTasks() throws {
    let path = try write(
      """
      {"name": "task-expectations", \(Self.world)
       "timeline": [{"at": "0s", "do": "launch"}, {"at": "2s", "do": "background"}],
       "expect": [{"task": "com.example.downloads#1", "state": "completed", "by": "5m"},
                  {"task": "com.example.downloads#1", "status": 200},
                  {"task": "com.example.downloads#1", "startsAfter": "0s"},
                  {"task": "com.example.downloads#2", "state": "completed"}]}
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try ScenarioRunner.run(file: path) { app in
      PlainAppDelegate(app, startsAtUserLaunch: "https://example.com/book.zip")
    }
    #expect(result.runError == nil)
    // The app's one task is named as the trace names it; a task it never made fails, by name.
    #expect(result.expectations.map(\.passed) == [true, true, true, false])
    #expect(result.failedExpectations.first?.found.contains("never created") == true)
    // The same file is refused when the file's own scripted app is to make the tasks.
    #expect(throws: ScenarioErrors.self) { try ScenarioLoader.load(path: path) }
    #expect(try ScenarioLoader.load(path: path, swiftApp: true).expectations.count == 4)
  }

  /// Issue 24: a glob expectation over the Swift app's tasks must not pass when the app started
  /// none of them; it fails and names the glob.
  @Test func aGlobThatMatchesNoTaskFailsNamingIt() throws {
    let path = try write(
      """
      {"name": "glob-without-tasks", \(Self.world)
       "timeline": [{"at": "0s", "do": "launch"}, {"at": "2s", "do": "background"}],
       "expect": [{"task": "com.example.downloads#*", "all": true, "state": "completed"},
                  {"task": "ep-#*", "any": true, "status": 200}]}
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try ScenarioRunner.run(file: path) { PlainAppDelegate($0) }
    #expect(result.runError == nil)
    #expect(result.expectations.map(\.passed) == [false, false])
    #expect(
      result.expectations.map(\.found) == [
        "no task matches 'com.example.downloads#*'", "no task matches 'ep-#*'",
      ])
    #expect(!result.passed)
  }

  @Test func timelineEntriesThatScriptTheAppAreRefused() throws {
    let path = try write(
      """
      {"name": "scripted", \(Self.world)
       "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://example.com/book.zip", "name": "b"}],
       "expect": []}
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      _ = try ScenarioRunner.run(file: path) { PlainAppDelegate($0) }
      Issue.record("a scripted download was accepted")
    } catch {
      #expect(error.lines.count == 1)
      #expect(error.lines.first?.contains("timeline[1].do: 'download' scripts the app") == true)
    }
  }
}
