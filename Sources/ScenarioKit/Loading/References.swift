import SafeOutput
import SimKernel
import TransferEngine

/// Names, sessions and URLs that actions and expectations refer to, gathered while decoding
/// and checked once the whole file is read (a reference may come before its declaration).
struct References {
  /// One use of a name, with where it was written.
  struct Use {
    var name: String
    var path: String
    var position: JSONPosition
  }

  /// Session identifiers of `app.sessions`, recorded even when another field of the entry is wrong.
  var declaredSessions: [String] = []
  /// `app.extensions`: each extension's name with its sessions' identifiers.
  private(set) var declaredExtensions: [(name: String, sessions: [String])] = []
  /// The names of `declaredExtensions`, by their bytes: a file of thousands of extensions asked
  /// for a duplicate of each scanned them all (20,000 took 0.9 s to load).
  private var declaredExtensionNames: Set<WrittenKey> = []

  /// Records an extension of `app.extensions`.
  mutating func declareExtension(_ name: String, sessions: [String]) {
    declaredExtensions.append((name, sessions))
    declaredExtensionNames.insert(WrittenKey(name))
  }

  /// Whether an earlier entry of `app.extensions` has this name (byte for byte).
  func declaresExtension(_ name: String) -> Bool { declaredExtensionNames.contains(WrittenKey(name)) }
  /// `extension` of `openExtension`, `closeExtension` and extension actions.
  var extensionUses: [Use] = []
  /// `session` of an extension's action, with the extension's name.
  var extensionSessions: [(extension: String, use: Use)] = []
  /// Scratch list `request` records an extension action's session in, moved to `extensionSessions`.
  var pendingExtensionSession: [Use] = []
  /// URLs of `server.resources`, recorded even when another field of the entry is wrong.
  var declaredResources: [SimURL] = []
  /// URL templates of resources with `count` (`https://example.com/img/{n}.jpg`).
  var numberedResources: [String] = []
  /// The methods a scripted action sends: a download or data task GETs, an upload POSTs or PUTs.
  enum Method {
    case get, upload
  }
  /// The `method` of each resource (`GET` when not given), by URL as written.
  var resourceMethods: [(String, String)] = []
  /// The method of each `download`, `dataTask` and `upload` action, with its `url`.
  var requestMethods: [(Method, Use)] = []
  /// `session` of every action.
  var sessions: [Use] = []
  /// `task` of `cancel`, `resumeFromData` and expectations.
  var tasks: [Use] = []
  /// `task` of `{"task": ...}` expectations: unchecked when a Swift app makes the tasks.
  var expectedTasks: [Use] = []
  /// `url` of `download` and `upload`.
  var urls: [Use] = []
  /// Every `{task}` in a reaction's actions, checked against the reaction's event.
  var taskPlaceholders: [Use] = []
  /// Names given to tasks by `download`, `upload` and `resumeFromData`; may hold `{n}` and `{task}`.
  var createdTasks: [Use] = []
  /// `name` of every `beginBackgroundTask` and `endBackgroundTask`.
  var begunBackgroundTasks: [Use] = []
  var endedBackgroundTasks: [Use] = []
  /// `identifier` of every `submitContinuedProcessing`, and of the actions that name one.
  var submittedContinuedTasks: [Use] = []
  var namedContinuedTasks: [Use] = []
  /// `count` of timeline `download` and `upload` entries, capped in total by `maxTimelineTasks`.
  var taskCounts: [(Int, Use)] = []
  /// `count` of numbered resources, capped in total by `maxNumberedResources`.
  var resourceCounts: [(Int, Use)] = []

  /// Most tasks the timeline's `count` fields may create in one file, all entries together:
  /// 100 entries of `count: 100000` would be ten million tasks before the run even starts.
  static let maxTimelineTasks = 100_000
  /// Most numbered resources all `count` fields of `server.resources` may declare together.
  static let maxNumberedResources = 100_000
  /// URLs of server changes and faults, which must be resources.
  var resourceUses: [(SimURL, String, JSONPosition)] = []
  /// Hosts of server faults, which must serve some resource.
  var hostUses: [(String, String, JSONPosition)] = []
  /// Timeline instants, to check them against the scenario's duration.
  var timelineInstants: [(SimTime, Use)] = []

  /// Every extension named by the timeline is in `app.extensions`, and each extension action's
  /// session is one of that extension's.
  private func checkExtensions(_ context: DecodeContext) {
    let names = declaredExtensions.map(\.name)
    // Looked up, not scanned: a file may declare thousands of extensions, an extension thousands
    // of sessions. By their bytes, as the run tells them apart.
    let byName = Dictionary(
      declaredExtensions.map { (WrittenKey($0.name), $0.sessions) }, uniquingKeysWith: { first, _ in first })
    var sessionSets: [WrittenKey: Set<WrittenKey>] = [:]
    let twins = NormalizationTwins(names)
    for use in extensionUses where !declaresExtension(use.name) {
      let hint =
        twins.note(for: use.name)
        ?? context.suggest(use.name, among: names).map { "did you mean '\($0)'?" }
        ?? (names.isEmpty
          ? "declare it in app.extensions" : "declared extensions are \(names.joined(separator: ", "))")
      context.report(.reference, use.path, at: use.position, "unknown extension '\(use.name)'; \(hint)")
    }
    for (name, use) in extensionSessions {
      let key = WrittenKey(name)
      guard let sessions = byName[key] else { continue }
      if sessionSets[key] == nil { sessionSets[key] = Set(sessions.map(WrittenKey.init)) }
      if sessionSets[key]!.contains(WrittenKey(use.name)) { continue }
      let hint =
        context.suggest(use.name, among: sessions).flatMap { close in
          // The closest name, when it is this one in another Unicode form, is told so.
          NormalizationTwins([close]).note(for: use.name) ?? "did you mean '\(close)'?"
        }
        ?? "declare it in the extension's sessions"
      context.report(
        .reference, use.path, at: use.position,
        "extension '\(name)' has no session '\(use.name)'; \(hint) (an extension makes only its own sessions)"
      )
    }
  }

  /// Reports every reference to something the scenario does not declare.
  func check(duration: SimDuration, context: DecodeContext) {
    let declared = declaredSessions
    let resources = declaredResources
    // Identifiers and names are compared by their bytes, as the run and the system compare them.
    let declaredSet = Set(declared.map(WrittenKey.init))
    let sessionTwins = NormalizationTwins(declared)
    for use in sessions where !declaredSet.contains(WrittenKey(use.name)) {
      let hint =
        sessionTwins.note(for: use.name)
        ?? context.suggest(use.name, among: declared).map { "did you mean '\($0)'?" }
        ?? (declared.isEmpty || declared.count > 10
          ? "declare it in app.sessions" : "declared sessions are \(declared.joined(separator: ", "))")
      context.report(.reference, use.path, at: use.position, "unknown session '\(use.name)'; \(hint)")
    }
    checkExtensions(context)
    checkDuplicateNames(context)
    checkTotal(
      taskCounts, limit: Self.maxTimelineTasks, what: "tasks with 'count' on timeline entries", context)
    checkTotal(resourceCounts, limit: Self.maxNumberedResources, what: "numbered resources", context)
    let literalNames = createdTasks.map(\.name).filter { !$0.hasPlaceholder }
    let literalSet = Set(literalNames.map(WrittenKey.init))
    let taskTwins = NormalizationTwins(literalNames)
    let patterns = NamePatterns(
      createdTasks.map(\.name).filter { $0.hasPlaceholder })
    // A `{task}` reference names whichever task triggers its reaction: checked when it runs.
    for use in tasks + (context.tasksComeFromSwiftApp ? [] : expectedTasks)
    where !use.name.hasTaskPlaceholder && !literalSet.contains(WrittenKey(use.name))
      && !patterns.match(use.name)
    {
      let hint =
        taskTwins.note(for: use.name).map { "; \($0)" }
        ?? context.suggest(use.name, among: literalNames).map { "; did you mean '\($0)'?" } ?? ""
      context.report(
        .reference, use.path, at: use.position,
        "no download, upload or resumeFromData creates a task named '\(use.name)'\(hint)")
    }
    let begun = begunBackgroundTasks.map(\.name)
    let begunSet = Set(begun.map(WrittenKey.init))
    let begunTwins = NormalizationTwins(begun)
    for use in endedBackgroundTasks where !begunSet.contains(WrittenKey(use.name)) {
      let hint =
        begunTwins.note(for: use.name).map { "; \($0)" }
        ?? context.suggest(use.name, among: begun).map { "; did you mean '\($0)'?" } ?? ""
      context.report(
        .reference, use.path, at: use.position,
        "no beginBackgroundTask opens a background task named '\(use.name)'\(hint)")
    }
    checkContinuedTasks(context)
    let urlStrings = resources.map(\.string)
    let urlSet = Set(urlStrings.map(WrittenKey.init))
    let urlTwins = NormalizationTwins(urlStrings)
    // Numbered URLs filed by their literal beginning: 2,000 numbered resources, each named by a
    // download and a fault, tried every pair (148 s to load).
    let numbered = NamePatterns(numberedResources)
    /// A declared resource, or one copy of a numbered one (`https://h{n}.x/f`).
    func servesResource(_ url: SimURL) -> Bool {
      urlSet.contains(WrittenKey(url.string)) || numbered.match(url.string)
    }
    var templates = ResourceURLIndex(resources: urlStrings, numbered: numberedResources)
    for use in urls where use.name.hasPlaceholder {
      // A templated URL (a reaction's `{n}`, a delayed-request answer's `{task}`) must be able
      // to name a resource, or every task it makes is a typo's 404.
      if !templates.canName(use.name) {
        let hint =
          urlTwins.note(for: use.name)
          ?? context.suggest(use.name, among: urlStrings).map { "did you mean '\($0)'?" }
          ?? "add it to server.resources"
        context.report(
          .reference, use.path, at: use.position, "no resource '\(use.name)' in server.resources; \(hint)")
      }
    }
    for use in urls where !use.name.hasPlaceholder {
      guard let url = SimURL(use.name) else {
        context.report(
          .value, use.path, at: use.position,
          "'\(use.name)' is not a URL; expected a URL like \"https://example.com/file.zip\"")
        continue
      }
      guard url.isHTTP else {
        context.report(
          .value, use.path, at: use.position,
          "'\(use.name)' is not an http or https URL; the system rejects other schemes when the task is created"
        )
        continue
      }
      if !servesResource(url) {
        let hint =
          urlTwins.note(for: use.name)
          ?? context.suggest(use.name, among: urlStrings).map { "did you mean '\($0)'?" }
          ?? "add it to server.resources"
        context.report(
          .reference, use.path, at: use.position, "no resource '\(use.name)' in server.resources; \(hint)")
      }
    }
    checkMethods(context)
    // A fault or server change may name one copy of a numbered resource, as a download may.
    for (url, path, position) in resourceUses where !servesResource(url) {
      let hint =
        urlTwins.note(for: url.string)
        ?? context.suggest(url.string, among: urlStrings).map { "did you mean '\($0)'?" }
        ?? "add it to server.resources"
      context.report(.reference, path, at: position, "no resource '\(url)' in server.resources; \(hint)")
    }
    // In the order declared (for the suggestion), and as a set to ask: a server of 20,000 hosts
    // made this quadratic.
    var hosts: [String] = []
    var hostSet: Set<WrittenKey> = []
    for url in resources where hostSet.insert(WrittenKey(url.host)).inserted { hosts.append(url.host) }
    let numberedHosts = NamePatterns(hosts.filter { $0.hasNumberPlaceholder })
    for (host, path, position) in hostUses
    where !hostSet.contains(WrittenKey(host.lowercased())) && !numberedHosts.match(host.lowercased()) {
      let hint = context.suggest(host, among: hosts).map { "; did you mean '\($0)'?" } ?? ""
      context.report(
        .reference, path, at: position, "no resource in server.resources is on host '\(host)'\(hint)")
    }
    for (time, use) in timelineInstants where time.sinceStart > duration {
      context.report(
        .value, use.path, at: use.position,
        "\(time) is after the scenario's duration (\(duration)); the entry would never run")
    }
  }

  /// A resource's `method` against the scenario's own requests of it (behavior.md, "Server"):
  /// a GET of an upload target, or an upload to a GET resource, is refused when the file is
  /// read rather than answered 200 (the engine models no upload method, so it cannot answer 405).
  private func checkMethods(_ context: DecodeContext) {
    var methods: [WrittenKey: String] = [:]
    for (url, method) in resourceMethods where methods[WrittenKey(url)] == nil {
      methods[WrittenKey(url)] = method
    }
    for (sent, use) in requestMethods {
      let key = use.name.containsBytes(of: "{") ? use.name : SimURL(use.name)?.string ?? use.name
      guard let method = methods[WrittenKey(key)] else { continue }
      let shown = TerminalText.shortened(use.name)
      switch sent {
      case .get where method != "GET":
        context.report(
          .reference, use.path, at: use.position,
          "resource '\(shown)' takes \(method) (its \"method\" in server.resources); a download or data task "
            + "sends GET, so upload to it, or remove its \"method\"")
      case .upload where method == "GET":
        context.report(
          .reference, use.path, at: use.position,
          "resource '\(shown)' takes GET (its \"method\" in server.resources, GET when not given); an upload "
            + "sends POST or PUT, so give the resource \"method\": \"POST\" or \"PUT\"")
      default: break
      }
    }
  }

  /// Two actions that create tasks of the same name make `cancel`, `resumeFromData` and
  /// `expect` on that name ambiguous: refused, naming both places.
  private func checkDuplicateNames(_ context: DecodeContext) {
    var first: [[UInt8]: Use] = [:]
    for use in createdTasks {
      let key = Array(use.name.utf8)
      guard let earlier = first[key] else {
        first[key] = use
        continue
      }
      context.report(
        .value, use.path, at: use.position,
        "a task named '\(TerminalText.shortened(use.name))' is already created at \(earlier.path); "
          + "give each task its own name")
    }
  }

  /// Reports the entry at which the running total of `counts` first passes `limit`.
  private func checkTotal(_ counts: [(Int, Use)], limit: Int, what: String, _ context: DecodeContext) {
    var total = 0
    for (count, use) in counts {
      total += count
      if total > limit {
        context.report(
          .value, use.path, at: use.position,
          "this entry brings the file's \(what) to \(total); at most \(limit) are allowed in one file")
        return
      }
    }
  }

  /// Whether a referenced name fits a created one, where `{n}` in the created name stands for
  /// a task number and `{task}` for any task's name.
  static func name(_ reference: String, matches created: String) -> Bool {
    if reference.hasSameUTF8(created) { return true }
    guard created.hasPlaceholder, !reference.hasNumberPlaceholder else {
      return false
    }
    return fits(Substring(reference), Substring(created))
  }

  /// The text before the first `{n}` or `{task}` and after the last, read as `References.fits`
  /// reads them (left to right, by bytes).
  static func literalEnds(_ template: String) -> (prefix: Substring, suffix: Substring) {
    let bytes = template.utf8
    var i = bytes.startIndex
    var firstPlaceholder: String.Index?
    var afterLastPlaceholder = template.startIndex
    while i < bytes.endIndex {
      let length = placeholderLength(at: bytes[i...])
      if length > 0 {
        if firstPlaceholder == nil { firstPlaceholder = i }
        i = bytes.index(i, offsetBy: length)
        afterLastPlaceholder = i
      } else {
        i = bytes.index(after: i)
      }
    }
    guard let firstPlaceholder else { return (Substring(template), Substring(template)) }
    return (template[..<firstPlaceholder], template[afterLastPlaceholder...])
  }

  /// The length of the `{n}` (3) or `{task}` (6) that `text` begins with, else 0.
  private static func placeholderLength(at text: Substring.UTF8View) -> Int {
    text.starts(with: "{n}".utf8) ? 3 : text.starts(with: "{task}".utf8) ? 6 : 0
  }

  /// `created` read as literal bytes, `{n}` (one or more ASCII digits) and `{task}` (one or more
  /// bytes), matched by dynamic programming: O(tokens x bytes), whatever the pattern. By bytes,
  /// as the run compares names: a name in another Unicode normalization form does not fit.
  static func fits(_ text: Substring, _ pattern: Substring) -> Bool {
    enum Token: Equatable {
      case byte(UInt8), digits, anything
    }
    var tokens: [Token] = []
    var rest = pattern.utf8
    while let c = rest.first {
      switch placeholderLength(at: rest) {
      case 3: tokens.append(.digits)
      case 6: tokens.append(.anything)
      default: tokens.append(.byte(c))
      }
      rest = rest.dropFirst(max(1, placeholderLength(at: rest)))
    }
    let chars = Array(text.utf8)
    // reach[j]: the first i tokens can consume exactly the first j characters.
    var reach = [true] + Array(repeating: false, count: chars.count)
    for token in tokens {
      var next = Array(repeating: false, count: chars.count + 1)
      for j in 0..<chars.count {
        switch token {
        case .byte(let c):
          if reach[j] && chars[j] == c { next[j + 1] = true }
        case .digits:
          // One or more digits: extend a run that began at a reachable point.
          if (reach[j] || next[j]) && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(chars[j]) {
            next[j + 1] = true
          }
        case .anything:
          if reach[j] || next[j] { next[j + 1] = true }
        }
      }
      reach = next
    }
    return reach[chars.count]
  }
}

/// The names a reference may have meant to write in another Unicode normalization form: `String`
/// takes `é` composed and `e` with a combining accent as equal, the run (as the system) tells
/// them apart by their bytes, and an error that only says "unknown 'é'; did you mean 'é'?"
/// shows the user two identical names.
///
/// Filed on the first reference asked about: a file whose references all hold costs nothing.
package final class NormalizationTwins {
  private let names: [String]
  /// Each name by its text as `String` compares it, the first of those alike.
  private lazy var byText: [String: String] = {
    var byText: [String: String] = [:]
    for name in names where byText[name] == nil { byText[name] = name }
    return byText
  }()

  package init(_ names: [String]) { self.names = names }

  /// What to tell a reference that matches no name by bytes but one by text, or nil.
  package func note(for reference: String) -> String? {
    guard let twin = byText[reference], !twin.hasSameUTF8(reference) else { return nil }
    return "it has the letters of '\(TerminalText.shortened(twin))' but other bytes: written here as "
      + "'\(Self.escaped(reference))', there as '\(Self.escaped(twin))' (two Unicode normalization forms); "
      + "they are compared byte for byte, as on a device, so write both the same way"
  }

  /// The name with each non-ASCII scalar written `<U+0301>`, so two forms that look alike differ
  /// on the screen (no backslash: the printed message escapes those): its first `limit` scalars,
  /// then how many bytes were left out, as `TerminalText.shortened` writes it (a name may be
  /// megabytes long).
  static func escaped(_ name: String, limit: Int = 80) -> String {
    let shown = name.unicodeScalars.prefix(limit)
    var out = shown.map { scalar in
      scalar.isASCII ? String(scalar) : "<\(scalar.codePoint)>"
    }.joined()
    let rest = name.utf8.count - shown.reduce(0) { $0 + UTF8.width($1) }
    if rest > 0 { out += "... (\(rest) more bytes)" }
    return out
  }
}
