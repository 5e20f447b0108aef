import SimKernel
import TransferEngine

/// `device`: network and power as step functions, Background App Refresh, and the iOS version.
extension ValueType where T == DeviceModel {
  static var device: ValueType<DeviceModel> {
    .object("an object with network, power, backgroundAppRefresh and iosVersion") { r in
      let network = r.optional(
        "network", .objects("a network step like {\"at\": \"0s\", \"interface\": \"wifi\"}", networkStep))
      let entries = r.optional("power", .array(.powerEntry))
      let power = entries.map(BatteryCurve.steps)
      if let power, power.generated > BatteryCurve.maxGeneratedSteps, let v = r.raw("power") {
        r.context.invalid(
          JSONPath.member(r.path, "power"), v,
          "the battery rates ('ratePerHour') change the level by a whole percent more than "
            + "\(BatteryCurve.maxGeneratedSteps) times; use fewer rate steps or longer spans at 0%")
      }
      let refresh = r.optional("backgroundAppRefresh", .bool)
      let version = r.optional("iosVersion", .iosVersion)
      // The `policy` section, read after this one, starts from this version's defaults.
      if let version { r.context.iosVersion = version }
      let defaults = DeviceModel.wifi
      var device = DeviceModel(
        network: network.map(sortedSteps) ?? defaults.network, power: power?.steps ?? defaults.power,
        backgroundAppRefresh: refresh ?? defaults.backgroundAppRefresh)
      device.iosVersion = version ?? defaults.iosVersion
      return device
    }
  }

  /// One network entry; omitted rates and latency take the interface's defaults (`NetworkState.init`).
  private static func networkStep(_ r: inout ObjectReader) -> Step<NetworkState>? {
    let at = r.required("at", .instant)
    let state = ValueType<NetworkState>.networkFields(&r)
    guard let at, let state else { return nil }
    return Step(at: at, state)
  }

  /// Steps in time order, file order for equal times (the later entry then wins).
  static func sortedSteps<V>(_ steps: [Step<V>]) -> [Step<V>] {
    steps.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
  }
}

/// A power entry as written, before omitted fields are filled from the previous entry.
struct PowerEntry {
  var at: SimTime
  var charging: Bool?
  var battery: Double?
  var lowPowerMode: Bool?
  /// Millionths of a full battery per hour (`ratePerHour`); carried forward like the rest.
  var ratePerHour: Int64? = nil
  /// The level at which the user turns Low Power Mode on as the battery drains (`lowPowerModeBelow`).
  var lowPowerModeBelow: Double? = nil
}

extension ValueType where T == PowerEntry {
  static var powerEntry: ValueType<PowerEntry> {
    .object("a power step like {\"at\": \"0s\", \"charging\": false, \"battery\": 0.62}") { r in
      let at = r.required("at", .instant)
      let charging = r.optional("charging", .bool)
      let battery = r.optional("battery", .number(0...1, "a battery level from 0 to 1"))
      let lowPowerMode = r.optional("lowPowerMode", .bool)
      let rate = r.optional("ratePerHour", .batteryRate)
      let below = r.optional(
        "lowPowerModeBelow",
        .number(0...1, "the battery level from 0 to 1 at which the user turns Low Power Mode on"))
      guard let at else { return nil }
      return PowerEntry(
        at: at, charging: charging, battery: battery, lowPowerMode: lowPowerMode, ratePerHour: rate,
        lowPowerModeBelow: below)
    }
  }
}
