import SimKernel

/// Builds a world (a scenario file) from a log that carries the user's actions and the network
/// changes, as `BgsimRecorder` writes them, so a recorded day on a phone can be calibrated
/// without writing a scenario.
///
/// What the log cannot say is assumed, and the assumptions are the documented defaults: every
/// session is a background session; each URL is a resource of the size the app received (1 MB
/// when unknown); the device is plugged in unless the log records power; network rates are the
/// interface defaults; the process died just after its last observed event when the next launch
/// is a new process. A task created within a second after a delegate callback of another task
/// is that callback's reaction; any other task is created by the timeline at its observed time.
public enum WorldFromLog {
  /// The scenario JSON text for `log`.
  public static func json(_ log: [TraceEvent], logFile: String) throws(CalibrationError) -> String {
    let events = log.compactMap(ObservableTrace.project)
    guard let first = events.first(where: { $0.kind == "app.launch" }) else {
      throw CalibrationError(
        "\(logFile): no app.launch, so no world can be built from it; give a WORLD.json, "
          + "or record from the app's launch (BgsimRecorder.applicationDidFinishLaunching)")
    }
    guard first["reason"] == .string("user") else {
      throw CalibrationError(
        "\(logFile): the first launch is a background launch; a world built from a log starts with the user's "
          + "launch, so give a WORLD.json or record from a user launch")
    }
    var network: [String] = []
    var power: [String] = []
    var timeline: [String] = []
    var reactions: [String] = []
    var sessions: [String] = []
    var sizes: [String: Int64] = [:]
    var urls: [String] = []
    var uploads: Set<String> = []
    var launched = false
    var lastProcessEvent = SimTime.zero
    /// The latest delegate callback about a task: (event name for `on`, task, time).
    var lastCallback: (String, String, SimTime)?
    func at(_ t: SimTime) -> String { JSONText.quoted(t.sinceStart.formatted) }
    for event in events {
      let t = event.time
      switch event.kind {
      case "network.change":
        var step = "{\"at\": \(at(t)), \"interface\": \(event["interface"]?.json ?? "\"none\"")"
        if event["interface"] != .string("none") {
          for key in ["expensive", "constrained"] {
            if let v = event[key] { step += ", \(JSONText.quoted(key)): \(v.json)" }
          }
        }
        network.append(step + "}")
        continue
      case "power.change":
        var step = "{\"at\": \(at(t))"
        for key in ["charging", "battery", "lowPowerMode"] {
          if let v = event[key] { step += ", \(JSONText.quoted(key)): \(v.json)" }
        }
        power.append(step + "}")
        continue
      case "app.launch":
        if launched {
          // A launch is a new process: the last one ended after its last observed event.
          let end = lastProcessEvent + .milliseconds(1)
          timeline.append("{\"at\": \(at(end < t ? end : t)), \"do\": \"terminate\"}")
        }
        launched = true
        if event["reason"] == .string("user") { timeline.append("{\"at\": \(at(t)), \"do\": \"launch\"}") }
        lastCallback = nil
      case "app.foreground":
        timeline.append("{\"at\": \(at(t)), \"do\": \"launch\"}")
        lastCallback = nil
      case "app.background":
        timeline.append("{\"at\": \(at(t)), \"do\": \"background\"}")
        lastCallback = nil
      case "delegate.didFinishDownloading", "delegate.didComplete":
        if case .string(let task)? = event["task"] {
          lastCallback = (
            event.kind == "delegate.didComplete" ? "didComplete" : "didFinishDownloading", task, t
          )
        }
      case "task.created":
        guard case .string(let name)? = event["task"], case .string(let session)? = event["session"],
          case .string(let url)? = event["url"]
        else {
          throw CalibrationError(
            "\(logFile): a task.created at \(t.sinceStart.formatted) lacks task, session or url; "
              + "the recorder writes all three")
        }
        let isUpload = (event["taskKind"] ?? event["kind"]) == .string("upload")
        if !sessions.contains(session) { sessions.append(session) }
        if !urls.contains(url) { urls.append(url) }
        if isUpload { uploads.insert(url) }
        var action =
          "{\"do\": \(isUpload ? "\"upload\"" : "\"download\""), \"session\": \(JSONText.quoted(session)), "
        action += "\"url\": \(JSONText.quoted(url)), \"name\": \(JSONText.quoted(name))"
        if isUpload { action += ", \"from\": \"file\", \"size\": \"1MB\"" }
        action += "}"
        if let (callback, parent, when) = lastCallback, t - when <= .seconds(1) {
          reactions.append(
            "{\"event\": \"\(callback)\", \"task\": \(JSONText.quoted(parent)), \"times\": 1, \"do\": [\(action)]}"
          )
        } else {
          timeline.append("{\"at\": \(at(t)), " + action.dropFirst())
        }
      default: break
      }
      if case .string(let task)? = event["task"], case .int(let bytes)? = event["bytes"],
        event.kind == "delegate.didFinishDownloading"
      {
        sizes[task] = bytes
      }
      lastProcessEvent = t
    }
    // Resource sizes: what a task of that URL received.
    var urlSize: [String: Int64] = [:]
    for event in events where event.kind == "task.created" {
      if case .string(let url)? = event["url"], case .string(let name)? = event["task"],
        let size = sizes[name]
      {
        urlSize[url] = urlSize[url] ?? size
      }
    }
    let resources = urls.map { url in
      var r = "{\"url\": \(JSONText.quoted(url)), \"size\": \(urlSize[url] ?? 1_000_000)"
      if uploads.contains(url) { r += ", \"method\": \"POST\"" }
      return r + ", \"etag\": \"v1\"}"
    }
    if network.isEmpty { network.append("{\"at\": \"0s\", \"interface\": \"wifi\"}") }
    if power.isEmpty { power.append("{\"at\": \"0s\", \"charging\": true}") }
    let end = (events.last?.time ?? .zero) + .hours(1)
    let name =
      logFile.split(separator: "/").last.map { String($0.split(separator: ".").first ?? $0) } ?? "log"
    var out = "{\n"
    out += "  \"name\": \(JSONText.quoted("world-from-" + name)),\n"
    out += "  \"description\": \(JSONText.quoted("built by bgsim calibrate from \(logFile)")),\n"
    out += "  \"seed\": 1,\n"
    out += "  \"duration\": \(JSONText.quoted(end.sinceStart.formatted)),\n"
    out +=
      "  \"device\": {\n    \"network\": [\n      " + network.joined(separator: ",\n      ") + "\n    ],\n"
    out += "    \"power\": [\n      " + power.joined(separator: ",\n      ") + "\n    ]\n  },\n"
    out += "  \"server\": {\"resources\": [\n    " + resources.joined(separator: ",\n    ") + "\n  ]},\n"
    out += "  \"app\": {\n"
    out += "    \"sessions\": ["
    out += sessions.map { "{\"identifier\": \(JSONText.quoted($0)), \"kind\": \"background\"}" }.joined(
      separator: ", ")
    out += "],\n"
    out +=
      "    \"behavior\": {\"on\": [\n      " + reactions.joined(separator: ",\n      ") + "\n    ]}\n  },\n"
    out += "  \"timeline\": [\n    " + timeline.joined(separator: ",\n    ") + "\n  ]\n"
    out += "}\n"
    return out
  }
}
