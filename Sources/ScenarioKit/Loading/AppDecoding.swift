import SimKernel
import TransferEngine

/// `app`: the sessions the app creates and how the scripted app behaves.
extension ValueType where T == AppSpec {
  static var app: ValueType<AppSpec> {
    .object("an object with sessions and behavior") { r in
      let sessions = r.optional(
        "sessions",
        .objects("a session like {\"identifier\": \"MySession\", \"kind\": \"background\"}", session))
      let behavior = r.optional("behavior", .behavior)
      let extensions = r.optional(
        "extensions",
        .objects(
          "an extension like {\"name\": \"Share\", \"sessions\": [{\"identifier\": \"ShareUploads\", "
            + "\"sharedContainerIdentifier\": \"group.com.example\"}]}", appExtension))
      var app = AppSpec(sessions: sessions ?? [], behavior: behavior ?? AppBehavior())
      app.extensions = extensions ?? []
      return app
    }
  }

  /// One entry of `app.extensions`: a name and the background sessions the extension makes.
  private static func appExtension(_ r: inout ObjectReader) -> ExtensionSpec? {
    let name = r.required("name", .name("an extension name like \"Share\""))
    if let name, let v = r.raw("name"),
      r.context.references.declaresExtension(name)
    {
      r.context.invalid(
        JSONPath.member(r.path, "name"), v,
        "a second extension named '\(name)'; give each extension its own name")
    }
    let sessions =
      r.optional(
        "sessions",
        .objects(
          "a background session like {\"identifier\": \"ShareUploads\", "
            + "\"sharedContainerIdentifier\": \"group.com.example\"}", session)) ?? []
    for (i, entry) in (r.raw("sessions")?.array ?? []).enumerated() {
      guard let kind = entry.members?.first(where: { $0.key.hasSameUTF8("kind") })?.value,
        kind.string == SessionConfiguration.Kind.default.rawValue
      else { continue }
      r.context.invalid(
        JSONPath.member(JSONPath.element(JSONPath.member(r.path, "sessions"), i), "kind"), kind,
        "an extension's session must be a background session (bgsim models no default sessions in "
          + "extensions); remove 'kind' or set it to \"background\"")
    }
    guard let name else { return nil }
    r.context.references.declareExtension(name, sessions: sessions.map(\.identifier))
    return ExtensionSpec(name: name, sessions: sessions)
  }

  /// One entry of `app.sessions`, in `URLSessionConfiguration`'s terms. Duplicate identifiers
  /// are allowed here: creating a second live session is an app bug the engine lints.
  private static func session(_ r: inout ObjectReader) -> SessionConfiguration? {
    let identifier = r.required("identifier", .name("a session identifier"))
    if let identifier { r.context.references.declaredSessions.append(identifier) }
    let kind: SessionConfiguration.Kind? = r.optional("kind", .enumeration("session kind"))
    let discretionary = r.optional("discretionary", .bool)
    let sendsLaunchEvents = r.optional("sendsLaunchEvents", .bool)
    let cellular = r.optional("allowsCellularAccess", .bool)
    let expensive = r.optional("allowsExpensiveNetworkAccess", .bool)
    let constrained = r.optional("allowsConstrainedNetworkAccess", .bool)
    let requestTimeout = r.optional("timeoutForRequest", .duration)
    let resourceTimeout = r.optional("timeoutForResource", .duration)
    let connections = r.optional(
      "httpMaximumConnectionsPerHost", .int(1...1_000, "a number of connections from 1 to 1000"))
    let waits = r.optional("waitsForConnectivity", .bool)
    let group = r.optional("sharedContainerIdentifier", .name("an app group like \"group.com.example.app\""))
    guard let identifier else { return nil }
    let d = SessionConfiguration(identifier: identifier, kind: kind ?? .background)
    return SessionConfiguration(
      identifier: identifier, kind: d.kind, isDiscretionary: discretionary ?? d.isDiscretionary,
      sessionSendsLaunchEvents: sendsLaunchEvents ?? d.sessionSendsLaunchEvents,
      allowsCellularAccess: cellular ?? d.allowsCellularAccess,
      allowsExpensiveNetworkAccess: expensive ?? d.allowsExpensiveNetworkAccess,
      allowsConstrainedNetworkAccess: constrained ?? d.allowsConstrainedNetworkAccess,
      timeoutIntervalForRequest: requestTimeout ?? d.timeoutIntervalForRequest,
      timeoutIntervalForResource: resourceTimeout ?? d.timeoutIntervalForResource,
      httpMaximumConnectionsPerHost: connections, waitsForConnectivity: waits ?? d.waitsForConnectivity,
      sharedContainerIdentifier: group)
  }
}

extension ValueType where T == AppBehavior {
  /// `app.behavior`: what the scripted app does right or wrong, and its `on` reactions.
  static var behavior: ValueType<AppBehavior> {
    .object("an object describing the app's behavior") { r in
      let d = AppBehavior()
      let recreates = r.optional("recreatesSessionsOnLaunch", .bool)
      let stores = r.optional("storesCompletionHandler", .bool)
      let calls: AppBehavior.CompletionHandlerTiming? = r.optional(
        "callsCompletionHandler", .enumeration("timing"))
      let moves = r.optional("movesDownloadedFile", .bool)
      let endsOnExpiry = r.optional("endsBackgroundTasksOnExpiry", .bool)
      let reactions = r.optional(
        "on", .objects("a reaction like {\"event\": \"didComplete\", \"do\": [...]}", reaction))
      let delayedRequestAnswers = r.optional(
        "willBeginDelayedRequest", .objects(DelayedRequestDecoding.noun, DelayedRequestDecoding.answer))
      var behavior = AppBehavior(
        recreatesSessionsOnLaunch: recreates ?? d.recreatesSessionsOnLaunch,
        storesCompletionHandler: stores ?? d.storesCompletionHandler,
        callsCompletionHandler: calls ?? d.callsCompletionHandler,
        movesDownloadedFile: moves ?? d.movesDownloadedFile,
        reactions: reactions ?? [],
        endsBackgroundTasksOnExpiry: endsOnExpiry ?? d.endsBackgroundTasksOnExpiry)
      behavior.delayedRequestAnswers = delayedRequestAnswers
      behavior.challengeAnswers = r.optional(
        "didReceiveChallenge", .objects(ChallengeDecoding.noun, ChallengeDecoding.entry))
      return behavior
    }
  }

  /// `{"event": "didFinishDownloading", "task": "chapter-*", "do": [ ...app actions... ]}`.
  private static func reaction(_ r: inout ObjectReader) -> Reaction? {
    let event: Reaction.Event? = r.required("event", .enumeration("event"))
    let task = r.optional("task", .name("a task name pattern"))
    let firstNumber = r.optional("firstNumber", .int(0...1_000_000, "the number {n} takes the first time"))
    let times = r.optional("times", .int(1...1_000_000, "how many times at most the reaction runs"))
    let error = r.optional("error", .errorFilter)
    if let event, event != .didComplete, error != nil, let v = r.raw("error") {
      r.context.invalid(
        JSONPath.member(r.path, "error"), v,
        "'error' filters 'didComplete' reactions; a '\(event.rawValue)' callback carries no error")
    }
    let takes = r.optional("takes", .appTime)
    let firstAction = r.context.references.taskPlaceholders.count
    // A reaction that only takes time (a slow unzip) needs no actions.
    let actionList = ValueType<[TimelineAction]>.objects("an app action like {\"do\": \"download\", ...}") {
      a in ActionDecoding.action(&a, place: .reaction)
    }
    let actions = r.has("takes") ? r.optional("do", actionList) ?? [] : r.required("do", actionList)
    if let event, Reaction.Event.withoutTask.contains(event) {
      for use in r.context.references.taskPlaceholders.dropFirst(firstAction) {
        r.context.report(
          .value, use.path, at: use.position,
          "'{task}' names the task that triggered the reaction; a '\(event.rawValue)' callback concerns no task, "
            + "so use 'didFinishDownloading' or 'didComplete'")
      }
    }
    if let actions, actions.isEmpty, let v = r.raw("do"), v.array?.isEmpty == true {
      r.context.invalid(
        JSONPath.member(r.path, "do"), v,
        "the list of actions is empty, so the reaction would do nothing; "
          + "give at least one action, or remove the reaction")
      return nil
    }
    guard let event, let actions else { return nil }
    let appActions = actions.compactMap { action -> AppAction? in
      if case .app(let a) = action { return a }
      return nil
    }
    return Reaction(
      event: event, task: task, actions: appActions, path: r.path, firstNumber: firstNumber ?? 1,
      times: times,
      error: error, takes: takes)
  }
}

extension ValueType where T == ErrorFilter {
  /// A reaction's `error`: `"none"`, an error code's name or number, or a cancel reason.
  static var errorFilter: ValueType<ErrorFilter> {
    let codes = SimURLError.Code.allCases
    let reasons = SimURLError.CancelReason.allCases
    let names = ["none"] + codes.map(\.name) + reasons.map(\.name)
    let expected =
      "\"none\", an error code (\(codes.map(\.name).joined(separator: ", ")) or its number such as -999) or a cancel reason (\(reasons.map(\.name).joined(separator: ", ")))"
    return ValueType(expected: expected) { v, path, ctx in
      if let n = v.number, n.isInteger, let i = n.int64 {
        guard let code = codes.first(where: { Int64($0.rawValue) == i }) else {
          return nilAfter(ctx.invalid(path, v, "no error has code \(n.text); expected \(expected)"))
        }
        return .code(code)
      }
      guard let text = v.string else { return nilAfter(ctx.wrongType(path, v, expected: expected)) }
      if text == "none" { return .success }
      if let code = codes.first(where: { $0.name == text }) { return .code(code) }
      if let reason = reasons.first(where: { $0.name == text }) { return .cancelReason(reason) }
      let hint =
        Suggestion.didYouMean(text, among: names).map { "did you mean '\($0)'?" } ?? "expected \(expected)"
      return nilAfter(ctx.invalid(path, v, "unknown error '\(text)'; \(hint)"))
    }
  }
}
