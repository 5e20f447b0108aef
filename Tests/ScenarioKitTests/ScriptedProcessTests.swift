import Foundation
import SimKernel
import Testing
import TransferEngine

@testable import ScenarioKit

/// The scripted app is made afresh at every launch: the first process's object is gone after a
/// termination, while what it keeps in its store (task names, resume data) carries on.
@Suite struct ScriptedProcessTests {
  static let text = """
    {"name": "p", "duration": "1h",
     "server": {"resources": [{"url": "https://example.com/a.bin", "size": "100MB", "etag": "a"}]},
     "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
     "timeline": [{"at": "0s", "do": "launch"}]}
    """

  @Test("each launch makes a new app object; the old one is released at termination")
  func freshPerLaunch() throws {
    let scenario = try ScenarioLoader.load(data: Array(Self.text.utf8), file: "p.json")
    let sim = Simulation(seed: 1, device: scenario.device, server: scenario.server)
    let store = ScriptedAppStore(spec: scenario.app, simulation: sim)
    sim.install(factory: store.makeApp)
    weak var first: ScriptedApp?
    sim.launchApp()
    first = sim.currentApp as? ScriptedApp
    #expect(first != nil)
    store.perform(
      .download(TaskRequest(session: "S", url: "https://example.com/a.bin", name: "a")), path: "t")
    sim.run(until: SimTime(.seconds(5)))
    sim.terminateApp()
    #expect(first == nil)
    sim.launchApp()
    let second = try #require(sim.currentApp as? ScriptedApp)
    #expect(second !== first)
    // The second process cancels the first one's task by its name, with resume data it keeps.
    store.perform(.cancel(task: "a", produceResumeData: true), path: "t2")
    store.perform(.resumeFromData(task: "a", name: "b"), path: "t3")
    sim.run(until: SimTime(.hours(1)))
    #expect(store.runError == nil)
    let events = sim.trace.events
    #expect(events.contains { $0.kind == "task.cancelled" && $0["task"] == .string("a") })
    #expect(events.contains { $0.kind == "task.finished" && $0["task"] == .string("b") })
  }

  @Test("an app action while the app is not running stops the run with a message naming the entry")
  func notRunning() throws {
    let scenario = try ScenarioLoader.load(data: Array(Self.text.utf8), file: "p.json")
    let sim = Simulation(seed: 1, device: scenario.device, server: scenario.server)
    let store = ScriptedAppStore(spec: scenario.app, simulation: sim)
    sim.install(factory: store.makeApp)
    store.perform(.getAllTasks(session: "S"), path: "timeline[3]")
    #expect(store.runError?.hasPrefix("timeline[3]: the app is notRunning") == true)
  }

  /// The loader takes two names that differ only in their Unicode form as two names (its
  /// duplicate check compares bytes), and so does the trace: the app must too.
  @Test("the app finds a task by its name's bytes: 'é' composed and decomposed are two tasks")
  func namesByBytes() throws {
    let composed = "\u{E9}"
    let decomposed = "e\u{301}"
    let text = """
      {"name": "forms", "duration": "1h",
       "server": {"resources": [{"url": "https://h/a", "size": "500MB", "etag": "a"},
                                {"url": "https://h/b", "size": "500MB", "etag": "b"}]},
       "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://h/a", "name": "\(composed)"},
                    {"at": "2s", "do": "download", "session": "S", "url": "https://h/b", "name": "\(decomposed)"},
                    {"at": "3s", "do": "cancel", "task": "\(composed)", "produceResumeData": true},
                    {"at": "4s", "do": "resumeFromData", "task": "\(composed)", "name": "again"}]}
      """
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "forms.json"))
    #expect(result.runError == nil)
    func ended(_ kind: String, _ name: String) -> Bool {
      result.trace.events.contains { $0.kind == kind && $0["task"]?.description.hasSameUTF8(name) == true }
    }
    #expect(ended("task.cancelled", composed) && !ended("task.cancelled", decomposed))
    #expect(ended("task.finished", decomposed) && !ended("task.finished", composed))
    // The resumed task continues the composed one's bytes (its URL is /a).
    let again = result.trace.events.first { $0.kind == "task.created" && $0["task"] == .string("again") }
    #expect(again?["url"]?.description == "https://h/a")
  }

  /// Session identifiers too: on a device, identifiers in two Unicode forms name two sessions,
  /// each with its own daemon record, task numbers, connections, wake and completion handler.
  @Test("two session identifiers that differ only in their Unicode form are two sessions")
  func sessionsByBytes() throws {
    let composed = "\u{E9}"
    let decomposed = "e\u{301}"
    let text = """
      {"name": "forms", "duration": "1h",
       "server": {"resources": [{"url": "https://h/a", "size": "200MB", "etag": "a"},
                                {"url": "https://h/b", "size": "200MB", "etag": "b"}]},
       "app": {"sessions": [
         {"identifier": "\(composed)", "kind": "background", "httpMaximumConnectionsPerHost": 1},
         {"identifier": "\(decomposed)", "kind": "background", "httpMaximumConnectionsPerHost": 1}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "\(composed)", "url": "https://h/a", "name": "a"},
                    {"at": "1s", "do": "download", "session": "\(decomposed)", "url": "https://h/b", "name": "b"},
                    {"at": "2s", "do": "terminate"}]}
      """
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "forms.json"))
    #expect(result.runError == nil)
    // Not one session made twice: no duplicateSessionIdentifier lint, at launch or at the wake.
    #expect(!result.trace.events.contains { $0.kind == "lint" })
    func events(_ kind: String, session: String) -> [TraceEvent] {
      result.trace.events.filter {
        $0.kind == kind && $0["session"]?.description.hasSameUTF8(session) == true
      }
    }
    for identifier in [composed, decomposed] {
      // Each session numbers its own tasks from 1 and has its own connection to the host.
      let started = events("task.started", session: identifier)
      #expect(started.count == 1 && started.first?["taskIdentifier"] == .int(1))
      #expect(started.first?.time == SimTime(.seconds(1)))
      // The wake hands the relaunched app each session's events, and each handler comes back.
      #expect(events("delegate.handleEvents", session: identifier).count == 1)
      #expect(events("app.completionHandlerCalled", session: identifier).count == 1)
    }
  }
}
