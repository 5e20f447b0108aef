import SimKernel
import TransferEngine

/// One knob of `Policy` under its dotted name in the scenario format (`rateLimiter.growth`).
///
/// The one table below drives reading the `policy` section, printing `bgsim policy --defaults`,
/// and setting a knob from the command line (sweeps), so the three can never disagree.
struct PolicyKnob {
  /// Dotted name: `rateLimiter.maxDelay`, `backgroundRunTime`.
  let name: String
  /// For messages: `a duration like "30s"`.
  let expected: String
  /// The knob's value in `policy` as JSON text.
  let render: (Policy) -> String
  /// Decodes `value` and stores it, or reports a problem at `path`.
  let apply: (inout Policy, JSONValue, String, DecodeContext) -> Void

  init<T>(
    _ name: String, _ type: ValueType<T>, _ keyPath: WritableKeyPath<Policy, T>,
    render: @escaping (T) -> String
  ) {
    self.name = name
    self.expected = type.expected
    self.render = { render($0[keyPath: keyPath]) }
    self.apply = { policy, value, path, context in
      if let decoded = type.decode(value, path, context) { policy[keyPath: keyPath] = decoded }
    }
  }

  /// Every knob, in the order the format lists them.
  static var all: [PolicyKnob] {
    let duration: (SimDuration) -> String = { JSONText.quoted($0.formatted) }
    let factor = ValueType<Double>.number(0...1_000, "a factor from 0 to 1000 like 2.0")
    let conditions = ValueType<[DiscretionaryCondition]>.array(.enumeration("discretionary condition"))
    let list: ([DiscretionaryCondition]) -> String = {
      "[" + $0.map { JSONText.quoted($0.rawValue) }.joined(separator: ", ") + "]"
    }
    return [
      PolicyKnob("rateLimiter.initialDelay", .duration, \.rateLimiter.initialDelay, render: duration),
      PolicyKnob("rateLimiter.firstDelay", .duration, \.rateLimiter.firstDelay, render: duration),
      PolicyKnob("rateLimiter.growth", factor, \.rateLimiter.growth, render: number),
      PolicyKnob(
        "rateLimiter.maxDelay", .nullable(.duration), \.rateLimiter.maxDelay,
        render: { $0.map(duration) ?? "null" }),
      PolicyKnob("rateLimiter.resetOnForeground", .bool, \.rateLimiter.resetOnForeground, render: bool),
      PolicyKnob("rateLimiter.idleResetFactor", factor, \.rateLimiter.idleResetFactor, render: number),
      PolicyKnob("discretionary.requires", conditions, \.discretionary.requires, render: list),
      PolicyKnob(
        "discretionary.largeTransferSize", .size, \.discretionary.largeTransferSize, render: { String($0) }),
      PolicyKnob(
        "discretionary.largeTransferRequires", conditions, \.discretionary.largeTransferRequires, render: list
      ),
      PolicyKnob(
        "discretionary.minimumBatteryLevel", .number(0...1, "a battery level from 0 to 1 like 0.2"),
        \.discretionary.minimumBatteryLevel, render: { "\($0)" }),
      PolicyKnob("discretionary.avoidLowPowerMode", .bool, \.discretionary.avoidLowPowerMode, render: bool),
      PolicyKnob("backgroundRunTime", .duration, \.backgroundRunTime, render: duration),
      PolicyKnob("backgroundTaskLimit", .duration, \.backgroundTaskLimit, render: duration),
      PolicyKnob("extensionEndsAfter", .duration, \.extensionEndsAfter, render: duration),
      PolicyKnob("completionHandlerTimeout", .duration, \.completionHandlerTimeout, render: duration),
      PolicyKnob(
        "maxConnectionsPerHost", .int(1...1_000, "a number of connections from 1 to 1000"),
        \.maxConnectionsPerHost,
        render: { String($0) }),
      PolicyKnob("retry.backoff", .duration, \.retry.backoff, render: duration),
      PolicyKnob("retry.maxBackoff", .duration, \.retry.maxBackoff, render: duration),
      PolicyKnob("reboot.keepsBackgroundTasks", .bool, \.reboot.keepsBackgroundTasks, render: bool),
      PolicyKnob("reboot.unlockAfter", .duration, \.reboot.unlockAfter, render: duration),
      PolicyKnob("delayedRequest.wakesApp", .bool, \.delayedRequest.wakesApp, render: bool),
      PolicyKnob("resumableUploads", .bool, \.resumableUploads, render: bool),
      PolicyKnob(
        "resumableUploadDraft", .uploadDraft, \.resumableUploadDraft, render: { String($0.rawValue) }),
      PolicyKnob(
        "continuedProcessing.maxRunning", .int(1...1_000, "a number of tasks from 1 to 1000"),
        \.continuedProcessing.maxRunning, render: { String($0) }),
      PolicyKnob(
        "continuedProcessing.progressWindow", .duration, \.continuedProcessing.progressWindow,
        render: duration),
      PolicyKnob("challenge.answerTimeout", .duration, \.challenge.answerTimeout, render: duration),
      PolicyKnob(
        "challenge.maxFailures", .int(1...100, "a number of wrong credentials from 1 to 100"),
        \.challenge.maxFailures, render: { String($0) }),
    ]
  }

  static func bool(_ b: Bool) -> String { b ? "true" : "false" }

  /// A real factor, always with a fraction or exponent so readers see it is not an integer.
  static func number(_ d: Double) -> String {
    if d == d.rounded() && abs(d) < 1e15 { return "\(Int64(d)).0" }
    return "\(d)"
  }
}

/// One level of the `policy` object (the top, or a group such as `rateLimiter`), worked out
/// once from `PolicyKnob.all`: reading the section, writing it (`PolicyJSON.render`) and its
/// schema all nest the knobs by these levels.
struct PolicyLevel: Sendable {
  /// The level's keys in the table's order: a knob (its index in `PolicyKnob.all`) or a group.
  var keys: [(name: String, knob: Int?)] = []
  /// For messages: `an object with initialDelay, firstDelay, ...`.
  var expected = ""

  /// Every level, by the dotted prefix of its knobs' names (`""`, `"rateLimiter."`).
  static let byPrefix: [String: PolicyLevel] = {
    var levels: [String: PolicyLevel] = [:]
    for (index, knob) in PolicyKnob.all.enumerated() {
      let parts = knob.name.split(separator: ".").map(String.init)
      for depth in parts.indices {
        let prefix = parts[..<depth].map { $0 + "." }.joined()
        let isKnob = depth == parts.count - 1
        var level = levels[prefix] ?? PolicyLevel()
        if !level.keys.contains(where: { $0.name == parts[depth] }) {
          level.keys.append((parts[depth], isKnob ? index : nil))
        }
        levels[prefix] = level
      }
    }
    for prefix in Array(levels.keys) {
      let names = PolicyKnob.all.filter { $0.name.hasPrefix(prefix) }.map {
        $0.name.split(separator: ".").last!
      }
      levels[prefix]?.expected = "an object with \(names.joined(separator: ", "))"
    }
    return levels
  }()
}

extension ValueType where T == Policy {
  /// The `policy` section: any subset of the knobs, the rest keep their defaults.
  static var policy: ValueType<Policy> {
    .object("an object of policy knobs (see bgsim policy --defaults)") { r in
      // Knobs the file sets win over the defaults of the device's iOS version.
      var policy = Policy.defaults(for: r.context.iosVersion)
      readKnobs(&r, prefix: "", knobs: PolicyKnob.all, into: &policy)
      return policy
    }
  }

  /// Reads the knobs under `prefix` from one object level, descending into groups.
  private static func readKnobs(
    _ r: inout ObjectReader, prefix: String, knobs: [PolicyKnob], into policy: inout Policy
  ) {
    for (key, knob) in PolicyLevel.byPrefix[prefix]?.keys ?? [] {
      guard let value = r.raw(key) else { continue }
      let path = JSONPath.member(r.path, key)
      if let knob {
        knobs[knob].apply(&policy, value, path, r.context)
        continue
      }
      let group = prefix + key + "."
      let expected = PolicyLevel.byPrefix[group]?.expected ?? "an object"
      guard var sub = ObjectReader(value, path: path, context: r.context, expected: expected) else {
        continue
      }
      readKnobs(&sub, prefix: group, knobs: knobs, into: &policy)
      sub.finish()
    }
  }
}
