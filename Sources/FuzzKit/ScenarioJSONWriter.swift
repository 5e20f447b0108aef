import ScenarioKit
import SimKernel
import TransferEngine

/// Writes a `Scenario` as scenario-format JSON that `ScenarioLoader` reads back to the same
/// scenario: the fuzzer's failing cases are files anyone can run with `bgsim run`.
///
/// Everything the model holds is written except `expect` (fuzz scenarios have none; the
/// expectations of a loaded file are not written back). Durations use the format's units
/// (`"1h30m"`), sizes are integers of bytes, rates integers of bits per second when whole.
public enum ScenarioJSONWriter {
  /// The scenario as pretty JSON, ending with a newline.
  public static func write(_ scenario: Scenario) -> String {
    render(node(scenario), indent: "") + "\n"
  }

  // MARK: The model as a JSON tree

  static func node(_ s: Scenario) -> JSONNode {
    var members: [(String, JSONNode)] = [
      ("name", .string(s.name)), ("description", .string(s.description)),
      ("seed", .number(String(s.seed))), ("duration", duration(s.duration)),
      ("device", device(s.device)), ("server", server(s.server)),
    ]
    // A policy that differs from the device version's defaults (what the loader starts from).
    if s.policy != Policy.defaults(for: s.device.iosVersion) {
      members.append(("policy", .raw(PolicyJSON.render(s.policy))))
    }
    members.append(("app", app(s.app)))
    members.append(("timeline", .array(s.timeline.map(entry))))
    return .object(members)
  }

  static func duration(_ d: SimDuration) -> JSONNode { .string(d.formatted) }
  static func instant(_ t: SimTime) -> JSONNode { .string(t.sinceStart.formatted) }
  static func int(_ v: Int64) -> JSONNode { .number(String(v)) }
  static func double(_ v: Double) -> JSONNode { .number(JSONText.number(v)) }

  static func rate(_ r: DataRate) -> JSONNode {
    let bps = r.bitsPerSecond
    if bps == bps.rounded() && bps < 9e18 {
      let whole = Int64(bps)
      if whole > 0 && whole % 1_000_000 == 0 { return .string("\(whole / 1_000_000)Mbps") }
      if whole > 0 && whole % 1_000 == 0 { return .string("\(whole / 1_000)kbps") }
      return .string("\(whole)bps")
    }
    return .string("\(bps)bps")
  }

  static func device(_ d: DeviceModel) -> JSONNode {
    let network = d.network.map { step -> JSONNode in
      let n = step.value
      var m: [(String, JSONNode)] = [("at", instant(step.at)), ("interface", .string(n.interface.rawValue))]
      if n.isUp {
        m += [
          ("down", rate(n.down)), ("up", rate(n.up)), ("latency", duration(n.latency)),
          ("expensive", .bool(n.expensive)), ("constrained", .bool(n.constrained)),
        ]
      }
      return .object(m)
    }
    let power = d.power.map { step -> JSONNode in
      .object([
        ("at", instant(step.at)), ("charging", .bool(step.value.charging)),
        ("battery", double(step.value.battery)),
        ("lowPowerMode", .bool(step.value.lowPowerMode)),
      ])
    }
    var members: [(String, JSONNode)] = [
      ("network", .array(network)), ("power", .array(power)),
      ("backgroundAppRefresh", .bool(d.backgroundAppRefresh)),
    ]
    if d.iosVersion != .newest { members.append(("iosVersion", .string(d.iosVersion.description))) }
    return .object(members)
  }

  static func optionalString(_ v: String?) -> JSONNode { v.map { .string($0) } ?? .null }

  static func server(_ s: ServerModel) -> JSONNode {
    let resources = s.resources.map { r -> JSONNode in
      var m: [(String, JSONNode)] = [
        ("url", .string(r.url.string)), ("method", .string(r.method)), ("size", int(r.size)),
      ]
      if let etag = r.etag { m.append(("etag", .string(etag))) }
      if let lastModified = r.lastModified { m.append(("lastModified", .string(lastModified))) }
      m += [("acceptsRanges", .bool(r.acceptsRanges)), ("status", int(Int64(r.status)))]
      if let target = r.redirectTo { m.append(("redirectTo", .string(target.string))) }
      m.append(("responseBody", int(r.responseBody)))
      if r.resumableUploads { m.append(("resumableUploads", .bool(true))) }
      if let draft = r.resumableUploadDraft { m.append(("resumableUploadDraft", int(Int64(draft.rawValue)))) }
      if !r.auth.isEmpty { m.append(("auth", auth(r.auth))) }
      return .object(m)
    }
    let changes = s.changes.map { c -> JSONNode in
      var m: [(String, JSONNode)] = [("at", instant(c.at)), ("url", .string(c.url.string))]
      if let etag = c.etag { m.append(("etag", optionalString(etag))) }
      if let lastModified = c.lastModified { m.append(("lastModified", optionalString(lastModified))) }
      if let size = c.size { m.append(("size", int(size))) }
      if let status = c.status { m.append(("status", int(Int64(status)))) }
      if let ranges = c.acceptsRanges { m.append(("acceptsRanges", .bool(ranges))) }
      if let target = c.redirectTo { m.append(("redirectTo", optionalString(target?.string))) }
      return .object(m)
    }
    let faults = s.faults.map { f -> JSONNode in
      switch f {
      case .dropConnection(let at, let target, let times):
        return .object(
          [("kind", .string("dropConnection")), ("at", instant(at))] + faultTarget(target)
            + [("times", int(Int64(times)))])
      case .status(let from, let to, let target, let status):
        return .object(
          [("kind", .string("status")), ("from", instant(from)), ("to", instant(to))] + faultTarget(target)
            + [("status", int(Int64(status)))])
      case .stall(let from, let to, let target):
        return .object(
          [("kind", .string("stall")), ("from", instant(from)), ("to", instant(to))] + faultTarget(target))
      }
    }
    return .object([
      ("resources", .array(resources)), ("changes", .array(changes)), ("faults", .array(faults)),
    ])
  }

  static func faultTarget(_ t: FaultTarget) -> [(String, JSONNode)] {
    switch t {
    case .url(let url): return [("url", .string(url.string))]
    case .host(let host): return [("host", .string(host))]
    }
  }

  /// One session entry, every field written out.
  static func session(_ c: SessionConfiguration) -> JSONNode {
    var m: [(String, JSONNode)] = [
      ("identifier", .string(c.identifier)), ("kind", .string(c.kind.rawValue)),
      ("discretionary", .bool(c.isDiscretionary)), ("sendsLaunchEvents", .bool(c.sessionSendsLaunchEvents)),
      ("allowsCellularAccess", .bool(c.allowsCellularAccess)),
      ("allowsExpensiveNetworkAccess", .bool(c.allowsExpensiveNetworkAccess)),
      ("allowsConstrainedNetworkAccess", .bool(c.allowsConstrainedNetworkAccess)),
      ("timeoutForRequest", duration(c.timeoutIntervalForRequest)),
      ("timeoutForResource", duration(c.timeoutIntervalForResource)),
    ]
    if let limit = c.httpMaximumConnectionsPerHost {
      m.append(("httpMaximumConnectionsPerHost", int(Int64(limit))))
    }
    m.append(("waitsForConnectivity", .bool(c.waitsForConnectivity)))
    if let group = c.sharedContainerIdentifier { m.append(("sharedContainerIdentifier", .string(group))) }
    return .object(m)
  }

  static func app(_ a: AppSpec) -> JSONNode {
    let sessions = a.sessions.map(session)
    let b = a.behavior
    let reactions = b.reactions.map { r -> JSONNode in
      var m: [(String, JSONNode)] = [("event", .string(r.event.rawValue))]
      if let task = r.task { m.append(("task", .string(task))) }
      if r.firstNumber != 1 { m.append(("firstNumber", int(Int64(r.firstNumber)))) }
      if let times = r.times { m.append(("times", int(Int64(times)))) }
      if let error = r.error { m.append(("error", .string(error.text))) }
      // A reaction that only takes time has no actions, and the format then leaves `do` out.
      if !r.actions.isEmpty || r.takes == nil {
        m.append(("do", .array(r.actions.map { .object(action($0)) })))
      }
      if let takes = r.takes { m.append(("takes", .string(takes.description))) }
      return .object(m)
    }
    var behaviorFields: [(String, JSONNode)] = [
      ("recreatesSessionsOnLaunch", .bool(b.recreatesSessionsOnLaunch)),
      ("storesCompletionHandler", .bool(b.storesCompletionHandler)),
      ("callsCompletionHandler", .string(b.callsCompletionHandler.rawValue)),
      ("movesDownloadedFile", .bool(b.movesDownloadedFile)),
    ]
    if !b.endsBackgroundTasksOnExpiry { behaviorFields.append(("endsBackgroundTasksOnExpiry", .bool(false))) }
    if let answers = b.delayedRequestAnswers {
      behaviorFields.append(("willBeginDelayedRequest", .array(answers.map(delayedRequestAnswer))))
    }
    if let answers = b.challengeAnswers {
      behaviorFields.append(("didReceiveChallenge", .array(answers.map(challengeAnswer))))
    }
    let behavior: JSONNode = .object(behaviorFields + [("on", .array(reactions))])
    var members: [(String, JSONNode)] = [("sessions", .array(sessions)), ("behavior", behavior)]
    if !a.extensions.isEmpty {
      let extensions = a.extensions.map { e -> JSONNode in
        .object([("name", .string(e.name)), ("sessions", .array(e.sessions.map(session)))])
      }
      members.append(("extensions", .array(extensions)))
    }
    return .object(members)
  }

  static func entry(_ e: TimelineEntry) -> JSONNode {
    let at: (String, JSONNode) = ("at", instant(e.at))
    switch e.action {
    case .launch: return .object([at, ("do", .string("launch"))])
    case .background: return .object([at, ("do", .string("background"))])
    case .terminate: return .object([at, ("do", .string("terminate"))])
    case .forceQuit: return .object([at, ("do", .string("forceQuit"))])
    case .reboot: return .object([at, ("do", .string("reboot"))])
    case .cancelContinuedProcessing(let identifier):
      return .object([at, ("do", .string("cancelContinuedProcessing")), ("identifier", .string(identifier))])
    case .app(let a): return .object([at] + action(a))
    case .openExtension(let name):
      return .object([at, ("do", .string("openExtension")), ("extension", .string(name))])
    case .closeExtension(let name):
      return .object([at, ("do", .string("closeExtension")), ("extension", .string(name))])
    case .inExtension(let name, let a): return .object([at] + action(a) + [("extension", .string(name))])
    }
  }

  /// `count` and `firstNumber` of a timeline action that creates tasks, when not the defaults
  /// (`firstNumber` needs `count` beside it).
  static func numbering(count: Int, firstNumber: Int) -> [(String, JSONNode)] {
    guard count != 1 || firstNumber != 1 else { return [] }
    var fields: [(String, JSONNode)] = [("count", int(Int64(count)))]
    if firstNumber != 1 { fields.append(("firstNumber", int(Int64(firstNumber)))) }
    return fields
  }

  static func delayedRequestAnswer(_ a: DelayedRequestAnswer) -> JSONNode {
    var m: [(String, JSONNode)] = []
    if let task = a.task { m.append(("task", .string(task))) }
    m.append(("answer", .string(a.answer.rawValue)))
    if let url = a.url { m.append(("url", .string(url))) }
    return .object(m)
  }

  static func action(_ a: AppAction) -> [(String, JSONNode)] {
    switch a {
    case .download(let r): return [("do", .string("download"))] + request(r)
    case .dataTask(let r): return [("do", .string("dataTask"))] + request(r)
    case .upload(let r, let from, let size):
      return [("do", .string("upload"))] + request(r) + [
        ("from", .string(from.rawValue)), ("size", int(size)),
      ]
    case .cancel(let task, let produce):
      return [("do", .string("cancel")), ("task", .string(task)), ("produceResumeData", .bool(produce))]
    case .suspend(let task): return [("do", .string("suspend")), ("task", .string(task))]
    case .resume(let task): return [("do", .string("resume")), ("task", .string(task))]
    case .resumeFromData(let task, let name, let fallback, let count, let first):
      var fields: [(String, JSONNode)] = [
        ("do", .string("resumeFromData")), ("task", .string(task)), ("name", .string(name)),
      ]
      if fallback != .skip { fields.append(("withoutResumeData", .string(fallback.rawValue))) }
      return fields + numbering(count: count, firstNumber: first)
    case .getAllTasks(let session): return [("do", .string("getAllTasks")), ("session", .string(session))]
    case .invalidate(let session, let cancel):
      return [("do", .string("invalidate")), ("session", .string(session)), ("cancelTasks", .bool(cancel))]
    case .beginBackgroundTask(let name):
      return [("do", .string("beginBackgroundTask")), ("name", .string(name))]
    case .endBackgroundTask(let name): return [("do", .string("endBackgroundTask")), ("name", .string(name))]
    case .submitContinuedProcessing, .reportContinuedProgress, .completeContinuedProcessing:
      return continuedProcessingAction(a)
    }
  }

  static func request(_ r: TaskRequest) -> [(String, JSONNode)] {
    var m: [(String, JSONNode)] = [
      ("session", .string(r.session)), ("url", .string(r.url)), ("name", .string(r.name)),
    ]
    switch r.earliestBegin {
    case .absolute(let t)?: m.append(("earliestBegin", instant(t)))
    case .relative(let d)?: m.append(("earliestBegin", .string("+" + d.formatted)))
    case nil: break
    }
    if let v = r.expectsToSend { m.append(("expectsToSend", int(v))) }
    if let v = r.expectsToReceive { m.append(("expectsToReceive", int(v))) }
    if let v = r.description { m.append(("description", .string(v))) }
    if let v = r.priority { m.append(("priority", double(v))) }
    if let v = r.allowsConstrainedNetworkAccess { m.append(("allowsConstrainedNetworkAccess", .bool(v))) }
    m += numbering(count: r.count, firstNumber: r.firstNumber)
    return m
  }

  // MARK: Printing

  /// Objects and arrays that fit on one line are written on one line.
  static let lineWidth = 100

  /// `node` written at `indent`: on one line when it fits in `lineWidth` with its indent,
  /// else one member or item a line.
  static func render(_ node: JSONNode, indent: String) -> String {
    var out = ""
    render(node, indent: indent, into: &out)
    return out
  }

  /// Writes `node` into `out`. Whether a node fits on one line is measured, not written: each
  /// level used to write its whole subtree on one line to learn its width, so a timeline was
  /// written once per level above it (half of `bgsim fuzz`'s time).
  static func render(_ node: JSONNode, indent: String, into out: inout String) {
    if flatWidth(node, limit: lineWidth - indent.utf8.count) != nil { return renderFlat(node, into: &out) }
    let inner = indent + "  "
    switch node {
    case .object(let members) where !members.isEmpty:
      out += "{\n"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { out += ",\n" }
        out += inner
        out += JSONText.quoted(key)
        out += ": "
        render(value, indent: inner, into: &out)
      }
      out += "\n" + indent + "}"
    case .array(let items) where !items.isEmpty:
      out += "[\n"
      for (index, item) in items.enumerated() {
        if index > 0 { out += ",\n" }
        out += inner
        render(item, indent: inner, into: &out)
      }
      out += "\n" + indent + "]"
    case .raw(let text):
      out += text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        .map { $0.offset == 0 ? String($0.element) : indent + $0.element }.joined(separator: "\n")
    default: renderFlat(node, into: &out)
    }
  }

  /// The width in characters of `node` written on one line, or nil when that is more than
  /// `limit` or holds a line break (only raw text can). Stops as soon as it knows: a long array
  /// costs what its first `limit` characters cost. The parts' widths add up, because no part
  /// begins with a character that joins the one before it.
  static func flatWidth(_ node: JSONNode, limit: Int) -> Int? {
    var width = 0
    func add(_ part: Int) -> Bool {
      width += part
      return width <= limit
    }
    switch node {
    case .object(let members):
      guard add(2 + 2 * max(members.count - 1, 0)) else { return nil }
      for (key, value) in members {
        guard add(quotedWidth(key) + 2),
          let inner = flatWidth(value, limit: limit - width), add(inner)
        else { return nil }
      }
    case .array(let items):
      guard add(2 + 2 * max(items.count - 1, 0)) else { return nil }
      for item in items {
        guard let inner = flatWidth(item, limit: limit - width), add(inner) else { return nil }
      }
    case .string(let s): guard add(quotedWidth(s)) else { return nil }
    case .number(let text): guard add(text.utf8.count) else { return nil }
    case .bool(let b): guard add(b ? 4 : 5) else { return nil }
    case .null: guard add(4) else { return nil }
    case .raw(let text):
      guard !text.utf8.contains(UInt8(ascii: "\n")), add(text.count) else { return nil }
    }
    return width
  }

  /// The width in characters of `s` as a JSON string. Counting characters walks grapheme
  /// breaks; text of printable ASCII (nearly all of it) is as wide as its bytes and its quotes.
  static func quotedWidth(_ s: String) -> Int {
    if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
    {
      return s.utf8.count + 2
    }
    return JSONText.quoted(s).count
  }

  /// Writes `node` on one line into `out`.
  static func renderFlat(_ node: JSONNode, into out: inout String) {
    switch node {
    case .object(let members):
      out += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { out += ", " }
        out += JSONText.quoted(key)
        out += ": "
        renderFlat(value, into: &out)
      }
      out += "}"
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += ", " }
        renderFlat(item, into: &out)
      }
      out += "]"
    case .string(let s): out += JSONText.quoted(s)
    case .number(let text): out += text
    case .bool(let b): out += b ? "true" : "false"
    case .null: out += "null"
    case .raw(let text): out += text
    }
  }
}

/// A JSON value to print; `raw` is text that is already JSON (the rendered policy).
indirect enum JSONNode {
  case object([(String, JSONNode)])
  case array([JSONNode])
  case string(String)
  case number(String)
  case bool(Bool)
  case null
  case raw(String)
}
