import SimKernel
import TransferEngine

/// `random`: network, power and terminations drawn from distributions with the run's seed.
extension ValueType where T == RandomConditions {
  static var random: ValueType<RandomConditions> {
    .object("an object with network, power and terminations") { r in
      let network = r.optional("network", .alternation("network", state: .networkState))
      let power = r.optional("power", .alternation("power", state: .powerState))
      let terminations = r.optional("terminations", .recurrence)
      return RandomConditions(network: network, power: power, terminations: terminations)
    }
  }
}

extension ValueType where T == DurationDistribution {
  /// `"30m"` (fixed), `{"exponential": "2h"}` (mean) or `{"uniform": ["10m", "1h"]}`.
  static var distribution: ValueType<DurationDistribution> {
    let expected =
      "a duration like \"30m\", {\"exponential\": \"2h\"} (the mean) or {\"uniform\": [\"10m\", \"1h\"]}"
    return ValueType(expected: expected) { v, path, ctx in
      if v.members == nil {
        guard let d = ValueType<SimDuration>.duration.decode(v, path, ctx) else { return nil }
        guard d.nanoseconds > 0 else {
          return nilAfter(ctx.invalid(path, v, "a fixed duration must be above 0"))
        }
        return .fixed(d)
      }
      guard var r = ObjectReader(v, path: path, context: ctx, expected: expected) else { return nil }
      defer { r.finish() }
      let kinds = ["exponential", "uniform"].filter { r.has($0) }
      guard kinds.count == 1 else {
        r.context.report(
          kinds.isEmpty ? .missingKey : .value, path, at: v.position,
          kinds.isEmpty
            ? "expected one of 'exponential' or 'uniform'"
            : "give one distribution, found exponential and uniform")
        r.acceptAll()
        return nil
      }
      if kinds[0] == "exponential" {
        guard let mean = r.required("exponential", .duration), let raw = r.raw("exponential") else {
          return nil
        }
        guard mean.nanoseconds > 0 else {
          return nilAfter(ctx.invalid(JSONPath.member(path, "exponential"), raw, "the mean must be above 0"))
        }
        return .exponential(mean: mean)
      }
      let boundsPath = JSONPath.member(path, "uniform")
      guard let bounds = r.required("uniform", .array(.duration)), let raw = r.raw("uniform") else {
        return nil
      }
      guard bounds.count == 2, bounds[0] <= bounds[1], bounds[1].nanoseconds > 0 else {
        return nilAfter(
          ctx.invalid(boundsPath, raw, "expected two durations [low, high] with low <= high and high above 0")
        )
      }
      return .uniform(bounds[0], bounds[1])
    }
  }
}

extension ValueType {
  /// `{"on": STATE, "off": STATE, "onFor": D, "offFor": D, "startsOn": B, "from": T, "until": T}`.
  static func alternation<S>(_ noun: String, state: ValueType<S>) -> ValueType<Alternation<S>>
  where T == Alternation<S> {
    .object("a \(noun) alternation with on, off, onFor and offFor") { r in
      let on = r.required("on", state)
      let off = r.required("off", state)
      let onFor = r.required("onFor", .distribution)
      let offFor = r.required("offFor", .distribution)
      let startsOn = r.optional("startsOn", .bool)
      let from = r.optional("from", .instant) ?? .zero
      let until = r.optional("until", .instant)
      if let until, until <= from, let raw = r.raw("until") {
        r.context.invalid(JSONPath.member(r.path, "until"), raw, "'until' must be after 'from' (\(from))")
        return nil
      }
      guard let on, let off, let onFor, let offFor else { return nil }
      return Alternation(
        on: on, off: off, onFor: onFor, offFor: offFor, startsOn: startsOn, from: from, until: until)
    }
  }
}

extension ValueType where T == Recurrence {
  /// `{"every": D, "from": T, "until": T}`.
  static var recurrence: ValueType<Recurrence> {
    .object("an object like {\"every\": {\"exponential\": \"3h\"}}") { r in
      let every = r.required("every", .distribution)
      let from = r.optional("from", .instant) ?? .zero
      let until = r.optional("until", .instant)
      if let until, until <= from, let raw = r.raw("until") {
        r.context.invalid(JSONPath.member(r.path, "until"), raw, "'until' must be after 'from' (\(from))")
        return nil
      }
      guard let every else { return nil }
      return Recurrence(every: every, from: from, until: until)
    }
  }
}

extension ValueType where T == NetworkState {
  /// A network state as in `device.network`, without `at`.
  static var networkState: ValueType<NetworkState> {
    .object("a network state like {\"interface\": \"wifi\", \"down\": \"50Mbps\"}", networkFields)
  }

  /// The fields of a network state, shared by `device.network` steps (which add `at`) and the
  /// `random` section; omitted rates and latency take the interface's defaults.
  static func networkFields(_ r: inout ObjectReader) -> NetworkState? {
    let interface: InterfaceKind? = r.required("interface", .enumeration("interface"))
    let down = r.optional("down", .rate)
    let up = r.optional("up", .rate)
    let latency = r.optional("latency", .duration)
    let expensive = r.optional("expensive", .bool)
    let constrained = r.optional("constrained", .bool)
    guard let interface else { return nil }
    return NetworkState(
      interface: interface, down: down, up: up, latency: latency, expensive: expensive,
      constrained: constrained ?? false)
  }
}

extension ValueType where T == PowerState {
  /// A power state as in `device.power`, without `at`; omitted fields take `PowerState()`'s.
  static var powerState: ValueType<PowerState> {
    .object("a power state like {\"charging\": true, \"battery\": 0.5}") { r in
      let defaults = PowerState()
      let charging = r.optional("charging", .bool)
      let battery = r.optional("battery", .number(0...1, "a battery level from 0 to 1"))
      let lowPowerMode = r.optional("lowPowerMode", .bool)
      return PowerState(
        charging: charging ?? defaults.charging, battery: battery ?? defaults.battery,
        lowPowerMode: lowPowerMode ?? defaults.lowPowerMode)
    }
  }
}
