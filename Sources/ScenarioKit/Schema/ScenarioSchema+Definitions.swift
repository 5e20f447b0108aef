import TransferEngine

/// The `$defs` of the scenario schema: literals, sections, actions and expectation forms.
extension ScenarioSchema {
  static let number = "[0-9]+(\\.[0-9]+)?"

  static var definitions: [(String, SchemaNode)] {
    [
      (
        "duration",
        literal(
          "A duration: \"30s\", \"250ms\", \"1h30m\", or a number of seconds.", durationPattern,
          numberOK: true)
      ),
      (
        "instant",
        literal(
          "A time since the scenario's start, like \"20m\"; with startsAt, a time of day like \"22:00\".",
          "^(" + durationBody + "|" + timeOfDayBody + ")$", numberOK: true)
      ),
      (
        "instantOrRelative",
        literal(
          "An instant, or \"+30s\" for a delay after the action.",
          "^(\\+?" + durationBody + "|" + timeOfDayBody + ")$",
          numberOK: true)
      ),
      (
        "size",
        literal(
          "Bytes: an integer, or \"50MB\", \"1.5GiB\".", "^\(number)(B|KB|MB|GB|KiB|MiB|GiB)$",
          integerOK: true)
      ),
      (
        "rate",
        literal(
          "A rate: \"20Mbps\", \"500kbps\", \"2MB/s\".",
          "^\(number)(bps|kbps|Mbps|Gbps|B/s|KB/s|MB/s|GB/s|KiB/s|MiB/s|GiB/s)$")
      ),
      ("url", .object([("type", .string("string")), ("pattern", .string("^https?://"))])),
      ("httpStatus", integer(100...599)),
      (
        "count",
        .object([
          ("anyOf", .array([.object([("type", .string("integer")), ("minimum", .int(0))]), comparison]))
        ])
      ),
      ("device", device), ("networkState", object(networkFields, required: ["interface"])),
      ("powerState", object(powerFields)), ("server", server), ("policy", policy), ("app", app),
      ("timelineEntry", .object([("anyOf", .array(actions(timeline: true)))])),
      ("reactionAction", .object([("anyOf", .array(actions(timeline: false)))])),
      ("expectation", .object([("anyOf", .array(expectations))])),
      ("distribution", distribution), ("random", random),
    ]
  }

  static let durationBody = "(\(number)(ns|us|ms|s|m|h|d))+"
  static let durationPattern = "^" + durationBody + "$"
  static let timeOfDayBody = "[0-9]{1,2}:[0-9]{2}(:[0-9]{2})?"

  static func literal(_ text: String, _ pattern: String, numberOK: Bool = false, integerOK: Bool = false)
    -> SchemaNode
  {
    var choices: [SchemaNode] = [.object([("type", .string("string")), ("pattern", .string(pattern))])]
    if numberOK { choices.append(.object([("type", .string("number")), ("minimum", .int(0))])) }
    if integerOK { choices.append(.object([("type", .string("integer")), ("minimum", .int(0))])) }
    return .object([("description", .string(text)), ("anyOf", .array(choices))])
  }

  static var comparison: SchemaNode {
    let count = SchemaNode.object([("type", .string("integer")), ("minimum", .int(0))])
    return object([("equals", count), ("atLeast", count), ("atMost", count)])
  }

  // MARK: device

  static var networkFields: [(String, SchemaNode)] {
    [
      ("interface", enumeration(names(InterfaceKind.self))), ("down", ref("rate")), ("up", ref("rate")),
      ("latency", ref("duration")), ("expensive", boolean), ("constrained", boolean),
    ]
  }

  static var powerFields: [(String, SchemaNode)] {
    [("charging", boolean), ("battery", number("0", "1")), ("lowPowerMode", boolean)]
  }

  static var device: SchemaNode {
    object([
      ("network", array(object([("at", ref("instant"))] + networkFields, required: ["at", "interface"]))),
      (
        "power",
        array(
          object(
            [("at", ref("instant"))] + powerFields + [
              (
                "ratePerHour",
                .object([
                  ("type", .string("string")), ("pattern", .string(#"^[+-]?[0-9]{1,5}(\.[0-9]{1,4})?%$"#)),
                ])
              ),
              ("lowPowerModeBelow", number("0", "1")),
            ], required: ["at"]))
      ),
      ("backgroundAppRefresh", boolean),
      (
        "iosVersion",
        described(
          "The iOS version the device runs (default \"\(IOSVersion.newest)\"): sets resumableUploads, "
            + "resumableUploadDraft and the upload resume-data APIs.",
          .object([
            ("type", .string("string")),
            ("pattern", .string(#"^(1[2-8]|26)(\.[0-9]{1,2}(\.[0-9]{1,3})?)?$"#)),
          ]))
      ),
    ])
  }

  /// An interop version of the resumable upload draft.
  static let uploadDraft = SchemaNode.object([
    ("type", .string("integer")), ("enum", .array(ResumableUploadDraft.allCases.map { .int($0.rawValue) })),
  ])

  // MARK: server

  static var server: SchemaNode {
    let validators: [(String, SchemaNode)] = [
      ("etag", nullable(string)), ("lastModified", nullable(string)), ("acceptsRanges", boolean),
      ("status", ref("httpStatus")), ("redirectTo", nullable(ref("url"))),
    ]
    let resource = object(
      [
        ("url", ref("url")), ("count", integer(1...100_000)),
        ("method", enumeration(["GET", "POST", "PUT"])),
        ("size", ref("size")),
      ] + validators + [
        ("responseBody", ref("size")), ("resumableUploads", boolean),
        ("resumableUploadDraft", uploadDraft), ("auth", protectionSpaces),
      ], required: ["url"])
    let change = object(
      [("at", ref("instant")), ("url", ref("url")), ("size", ref("size"))] + validators,
      required: ["at", "url"])
    let fault = object(
      [
        ("kind", enumeration(names(FaultKind.self))), ("at", ref("instant")),
        ("times", integer(1...1_000_000)),
        ("from", ref("instant")), ("to", ref("instant")), ("status", ref("httpStatus")), ("url", ref("url")),
        ("host", nonEmptyString),
      ], required: ["kind"])
    return object([("resources", array(resource)), ("changes", array(change)), ("faults", array(fault))])
  }

  // MARK: policy

  /// Every knob of `PolicyKnob.all`, grouped as the `policy` section nests them.
  static var policy: SchemaNode {
    let knobs = PolicyKnob.all
    /// The members of the level `prefix` (`PolicyLevel`), a group as a nested object.
    func members(_ prefix: String) -> [(String, SchemaNode)] {
      (PolicyLevel.byPrefix[prefix]?.keys ?? []).map { name, knob in
        guard let knob else { return (name, object(members(prefix + name + "."))) }
        return (name, described("Default: \(knobs[knob].render(.defaults)).", knobSchema(knobs[knob].name)))
      }
    }
    return object(
      members(""), description: "Knobs of the simulated system; bgsim policy --defaults prints them.")
  }

  static func knobSchema(_ name: String) -> SchemaNode {
    switch name {
    case "rateLimiter.maxDelay": return nullable(ref("duration"))
    case "rateLimiter.growth", "rateLimiter.idleResetFactor": return number("0", "1000")
    case "rateLimiter.resetOnForeground", "discretionary.avoidLowPowerMode", "reboot.keepsBackgroundTasks",
      "delayedRequest.wakesApp", "resumableUploads":
      return boolean
    case "discretionary.requires", "discretionary.largeTransferRequires":
      return array(enumeration(names(DiscretionaryCondition.self)))
    case "discretionary.largeTransferSize": return ref("size")
    case "discretionary.minimumBatteryLevel": return number("0", "1")
    case "maxConnectionsPerHost": return integer(1...1_000)
    case "resumableUploadDraft": return uploadDraft
    case "challenge.maxFailures": return integer(1...100)
    default: return ref("duration")
    }
  }

  // MARK: app

  static var app: SchemaNode {
    let session = object(
      [
        ("identifier", nonEmptyString), ("kind", enumeration(names(SessionConfiguration.Kind.self))),
        ("discretionary", boolean), ("sendsLaunchEvents", boolean), ("allowsCellularAccess", boolean),
        ("allowsExpensiveNetworkAccess", boolean), ("allowsConstrainedNetworkAccess", boolean),
        ("timeoutForRequest", ref("duration")), ("timeoutForResource", ref("duration")),
        ("httpMaximumConnectionsPerHost", integer(1...1_000)), ("waitsForConnectivity", boolean),
        ("sharedContainerIdentifier", nonEmptyString),
      ], required: ["identifier"])
    let appExtension = object([("name", nonEmptyString), ("sessions", array(session))], required: ["name"])
    let reaction = oneOfRequired(
      object(
        [
          ("event", enumeration(names(Reaction.Event.self))), ("task", nonEmptyString),
          ("firstNumber", integer(0...1_000_000)), ("times", integer(1...1_000_000)),
          ("error", errorFilter), ("do", array(ref("reactionAction"))), ("takes", ref("duration")),
        ], required: ["event"]), ["do", "takes"])
    let delayedRequestAnswer = object(
      [
        ("task", nonEmptyString), ("answer", enumeration(names(DelayedRequestAnswer.Disposition.self))),
        ("url", string),
      ], required: ["answer"])
    let behavior = object([
      ("recreatesSessionsOnLaunch", boolean), ("storesCompletionHandler", boolean),
      ("callsCompletionHandler", enumeration(names(AppBehavior.CompletionHandlerTiming.self))),
      ("movesDownloadedFile", boolean), ("endsBackgroundTasksOnExpiry", boolean), ("on", array(reaction)),
      ("willBeginDelayedRequest", array(delayedRequestAnswer)),
      ("didReceiveChallenge", array(challengeAnswer)),
    ])
    return object([("sessions", array(session)), ("behavior", behavior), ("extensions", array(appExtension))])
  }

  /// A reaction's `error`: `none`, an error code by name or number, or a cancel reason.
  static var errorFilter: SchemaNode {
    let words =
      ["none"] + SimURLError.Code.allCases.map(\.name) + SimURLError.CancelReason.allCases.map(\.name)
    let codes = SimURLError.Code.allCases.map { SchemaNode.int($0.rawValue) }
    return .object([
      (
        "anyOf",
        .array([enumeration(words), .object([("type", .string("integer")), ("enum", .array(codes))])])
      )
    ])
  }

  // MARK: actions

  /// One closed object per action: `do` names it, the rest are its fields.
  static func actions(timeline: Bool) -> [SchemaNode] {
    let names = timeline ? ActionName.allCases : ActionName.appActions
    return names.map { name in
      var properties: [(String, SchemaNode)] = timeline ? [("at", ref("instant"))] : []
      properties.append(("do", constant(name.rawValue)))
      let (fields, required) = actionFields(name, timeline: timeline)
      return object(properties + fields, required: (timeline ? ["at"] : []) + ["do"] + required)
    }
  }

  static func actionFields(_ name: ActionName, timeline: Bool) -> ([(String, SchemaNode)], [String]) {
    let task = SchemaNode.object([("type", .string("string")), ("minLength", .int(1))])
    var request: [(String, SchemaNode)] = [("session", nonEmptyString), ("url", string), ("name", task)]
    let numbering: [(String, SchemaNode)] =
      timeline ? [("count", integer(1...100_000)), ("firstNumber", integer(0...1_000_000))] : []
    request += numbering
    request += [
      ("earliestBegin", ref("instantOrRelative")), ("expectsToSend", ref("size")),
      ("expectsToReceive", ref("size")), ("description", string), ("priority", number("0", "1")),
      ("allowsConstrainedNetworkAccess", boolean),
    ]
    switch name {
    case .launch, .background, .terminate, .forceQuit, .reboot: return ([], [])
    case .openExtension, .closeExtension: return ([("extension", nonEmptyString)], ["extension"])
    case .download:
      // A timeline download or upload may be performed by one of the app's extensions.
      return (request + (timeline ? [("extension", nonEmptyString)] : []), ["session", "url", "name"])
    case .dataTask: return (request, ["session", "url", "name"])
    case .upload:
      return (
        request + [("from", enumeration(names(UploadSource.self))), ("size", ref("size"))]
          + (timeline ? [("extension", nonEmptyString)] : []),
        ["session", "url", "name", "from", "size"]
      )
    case .cancel: return ([("task", task), ("produceResumeData", boolean)], ["task"])
    case .suspend, .resume: return ([("task", task)], ["task"])
    case .resumeFromData:
      return (
        [("task", task), ("name", task), ("withoutResumeData", enumeration(names(ResumeFallback.self)))]
          + numbering,
        ["task", "name"]
      )
    case .getAllTasks: return ([("session", nonEmptyString)], ["session"])
    case .invalidate:
      return ([("session", nonEmptyString), ("cancelTasks", boolean)], ["session", "cancelTasks"])
    case .beginBackgroundTask, .endBackgroundTask: return ([("name", task)], ["name"])
    case .submitContinuedProcessing:
      return (
        [
          ("identifier", nonEmptyString), ("title", nonEmptyString), ("subtitle", string),
          ("strategy", enumeration(names(ContinuedProcessingStrategy.self))),
        ],
        ["identifier", "title"]
      )
    case .reportContinuedProgress:
      return (
        [
          ("identifier", nonEmptyString), ("add", integer(0...1_000_000_000_000)),
          ("total", integer(0...1_000_000_000_000)),
        ],
        ["identifier"]
      )
    case .completeContinuedProcessing:
      return ([("identifier", nonEmptyString), ("success", boolean)], ["identifier"])
    case .cancelContinuedProcessing: return ([("identifier", nonEmptyString)], ["identifier"])
    }
  }

  // MARK: expect

  static var expectations: [SchemaNode] {
    let task = SchemaNode.object([("type", .string("string")), ("minLength", .int(1))])
    let patterns = SchemaNode.object([
      (
        "anyOf",
        .array([
          nonEmptyString,
          .object([("type", .string("array")), ("items", nonEmptyString), ("minItems", .int(1))]),
        ])
      )
    ])
    let count = SchemaNode.object([("type", .string("integer")), ("minimum", .int(0))])
    // A size, or one comparison with a size: {"atLeast": "50MB"}.
    let ranges = ["equals", "atLeast", "atMost"].map { key in object([(key, ref("size"))], required: [key]) }
    let byteRange = SchemaNode.object([("anyOf", .array([ref("size")] + ranges))])
    // A `*` pattern in `task` takes "all": true or "any": true.
    let quantifiers: [(String, SchemaNode)] = [("all", boolean), ("any", boolean)]
    return [
      object(
        [("task", task), ("state", enumeration(names(ExpectedTaskState.self))), ("by", ref("instant"))]
          + quantifiers,
        required: ["task", "state"]),
      object(
        [("task", task), ("startsAfter", ref("instant"))] + quantifiers, required: ["task", "startsAfter"]),
      object(
        [
          ("task", task), ("error", enumeration(ExpectDecoding.errorNames)),
          ("reason", enumeration(ExpectDecoding.cancelReasons)),
        ] + quantifiers, required: ["task", "error"]),
      object(
        [("task", task), ("resumedAtOffset", byteRange)] + quantifiers,
        required: ["task", "resumedAtOffset"]),
      object([("task", task), ("status", ref("httpStatus"))] + quantifiers, required: ["task", "status"]),
      object(
        [
          ("app", enumeration(names(AppCounter.self))), ("equals", count), ("atLeast", count),
          ("atMost", count),
        ], required: ["app"]),
      object(
        [("app", constant("state")), ("at", ref("instant")), ("equals", enumeration(names(AppState.self)))],
        required: ["app", "at", "equals"]),
      object(
        [
          ("rateLimiter", enumeration(["delayAtWake"])), ("wake", integer(1...1_000_000)),
          ("equals", ref("duration")),
        ],
        required: ["rateLimiter", "wake", "equals"]),
      object([("trace", patterns), ("inOrder", boolean), ("count", ref("count"))], required: ["trace"]),
      object([("lint", enumeration(names(LintRule.self))), ("present", boolean)], required: ["lint"]),
    ]
  }

  // MARK: random

  static var distribution: SchemaNode {
    .object([
      (
        "anyOf",
        .array([
          ref("duration"),
          object([("exponential", ref("duration"))], required: ["exponential"]),
          object(
            [
              (
                "uniform",
                .object([
                  ("type", .string("array")), ("items", ref("duration")), ("minItems", .int(2)),
                  ("maxItems", .int(2)),
                ])
              )
            ], required: ["uniform"]),
        ])
      )
    ])
  }

  static var random: SchemaNode {
    func alternation(_ state: String) -> SchemaNode {
      object(
        [
          ("on", ref(state)), ("off", ref(state)), ("onFor", ref("distribution")),
          ("offFor", ref("distribution")),
          ("startsOn", boolean), ("from", ref("instant")), ("until", ref("instant")),
        ], required: ["on", "off", "onFor", "offFor"])
    }
    let terminations = object(
      [("every", ref("distribution")), ("from", ref("instant")), ("until", ref("instant"))],
      required: ["every"])
    return object([
      ("network", alternation("networkState")), ("power", alternation("powerState")),
      ("terminations", terminations),
    ])
  }
}

extension ScenarioSchema {
  /// `node` with at least one of `keys` required (a reaction needs `do`, `takes` or both).
  static func oneOfRequired(_ node: SchemaNode, _ keys: [String]) -> SchemaNode {
    guard case .object(var members) = node else { return node }
    let choices = keys.map { SchemaNode.object([("required", .array([.string($0)]))]) }
    members.append(("anyOf", .array(choices)))
    return .object(members)
  }
}
