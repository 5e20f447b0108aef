import SimKernel

/// The kind of network interface the device is on.
public enum InterfaceKind: String, CaseIterable, Hashable, Sendable {
  /// Wi-Fi: neither expensive nor constrained unless the scenario says so.
  case wifi
  /// Cellular: expensive by default, and refused by sessions that disallow it.
  case cellular
  /// A wired connection (Ethernet through an adapter).
  case wired
  /// No interface: the device is offline.
  case none
}

/// A transfer rate, kept in bits per second (the unit networks are quoted in).
public struct DataRate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The rate in bits per second.
  public var bitsPerSecond: Double
  /// A rate of `bitsPerSecond` bits per second.
  public init(bitsPerSecond: Double) { self.bitsPerSecond = bitsPerSecond }
  /// A rate of `v` megabits (10^6 bits) per second, as networks are quoted.
  public static func megabitsPerSecond(_ v: Double) -> DataRate { DataRate(bitsPerSecond: v * 1e6) }
  /// The rate in bytes per second, what transfers of a size in bytes divide by.
  public var bytesPerSecond: Double { bitsPerSecond / 8 }
  public static func < (a: DataRate, b: DataRate) -> Bool { a.bitsPerSecond < b.bitsPerSecond }
  /// `50Mbps`, `500kbps`, `1.5Mbps`, `800bps`: the form the scenario format reads.
  public var description: String {
    let units: [(Double, String)] = [(1e9, "Gbps"), (1e6, "Mbps"), (1e3, "kbps")]
    for (size, name) in units where bitsPerSecond >= size {
      return JSONText.number(bitsPerSecond / size) + name
    }
    return JSONText.number(bitsPerSecond) + "bps"
  }
}

/// The network as the device sees it during one step of the scenario's network timeline.
public struct NetworkState: Hashable, Sendable {
  /// Wi-Fi, cellular, wired, or none (offline).
  public var interface: InterfaceKind
  /// Download rate, shared by the transfers receiving on the interface.
  public var down: DataRate
  /// Upload rate, shared by the transfers sending on the interface.
  public var up: DataRate
  /// One-way latency; each start or retry costs two of these (one round trip) before bytes flow.
  public var latency: SimDuration
  /// Cellular and personal hotspot are expensive (`allowsExpensiveNetworkAccess`).
  public var expensive: Bool
  /// Low Data Mode (`allowsConstrainedNetworkAccess`).
  public var constrained: Bool

  /// A network on `interface`; what is left out takes the interface's defaults
  /// (`interfaceDefaults(_:)`; cellular is expensive).
  public init(
    interface: InterfaceKind, down: DataRate? = nil, up: DataRate? = nil, latency: SimDuration? = nil,
    expensive: Bool? = nil, constrained: Bool = false
  ) {
    let d = NetworkState.interfaceDefaults(interface)
    self.interface = interface
    self.down = down ?? d.down
    self.up = up ?? d.up
    self.latency = latency ?? d.latency
    self.expensive = expensive ?? (interface == .cellular)
    self.constrained = constrained
  }

  /// No interface at all.
  public static let offline = NetworkState(interface: .none)
  /// Whether some interface is up.
  public var isUp: Bool { interface != .none }

  /// Rates and latency used when a scenario names only the interface. [S]: typical values,
  /// documented in the README.
  public static func interfaceDefaults(_ kind: InterfaceKind) -> (
    down: DataRate, up: DataRate, latency: SimDuration
  ) {
    switch kind {
    case .wifi: return (.megabitsPerSecond(50), .megabitsPerSecond(10), .milliseconds(30))
    case .cellular: return (.megabitsPerSecond(10), .megabitsPerSecond(2), .milliseconds(60))
    case .wired: return (.megabitsPerSecond(100), .megabitsPerSecond(100), .milliseconds(5))
    case .none: return (DataRate(bitsPerSecond: 0), DataRate(bitsPerSecond: 0), .zero)
    }
  }
}

/// Power as the device sees it during one step of the power timeline.
public struct PowerState: Hashable, Sendable {
  /// On external power (a discretionary condition).
  public var charging: Bool
  /// Battery level from 0 to 1.
  public var battery: Double
  /// Low Power Mode is on (discretionary tasks wait while it is, by default).
  public var lowPowerMode: Bool
  /// A power state; the defaults are on battery, full, Low Power Mode off.
  public init(charging: Bool = false, battery: Double = 1.0, lowPowerMode: Bool = false) {
    self.charging = charging
    self.battery = battery
    self.lowPowerMode = lowPowerMode
  }
}

/// A value that holds from `at` until the next step of its timeline.
public struct Step<Value: Hashable & Sendable>: Hashable, Sendable {
  /// When the step begins.
  public var at: SimTime
  /// The value from `at` until the next step.
  public var value: Value
  /// A step to `value` at `at`.
  public init(at: SimTime, _ value: Value) {
    self.at = at
    self.value = value
  }
}

/// The device: network and power as step functions over time.
public struct DeviceModel: Hashable, Sendable {
  /// Sorted by time; before the first step the device is offline.
  public var network: [Step<NetworkState>]
  /// Sorted by time; before the first step the defaults of `PowerState()` hold.
  public var power: [Step<PowerState>]
  /// When off, the app is never woken in the background (behavior.md, App lifecycle).
  public var backgroundAppRefresh: Bool
  /// What the device's wall clock shows at simulated time 0, in seconds since
  /// 1970-01-01T00:00:00Z: one simulation's `referenceDate` (BgsimFoundation), its `Date()`. A
  /// scenario's `startsAt` sets it; it changes no rule of the engine.
  public var clockAtStart: Int64
  /// The iOS version the device runs: which APIs exist (upload resume data from iOS 17) and,
  /// through the scenario loader, the defaults of the knobs a version sets
  /// (`Policy.defaults(for:)`).
  public var iosVersion = IOSVersion.newest

  /// 2100-01-01T00:00:00Z, the clock at time 0 unless a simulation says otherwise: decades from
  /// any host's clock, so a date an app took from `Date()` instead of the simulation's clock
  /// cannot pass for a simulated one (BgsimFoundation lints it `wallClockDate`).
  public static let defaultClockAtStart: Int64 = 4_102_444_800

  /// A device; by default on Wi-Fi with the default rates from time 0, on battery, Background App
  /// Refresh on, the clock at `defaultClockAtStart`.
  public init(
    network: [Step<NetworkState>] = [Step(at: .zero, NetworkState(interface: .wifi))],
    power: [Step<PowerState>] = [Step(at: .zero, PowerState())], backgroundAppRefresh: Bool = true,
    clockAtStart: Int64 = DeviceModel.defaultClockAtStart
  ) {
    self.network = network
    self.power = power
    self.backgroundAppRefresh = backgroundAppRefresh
    self.clockAtStart = clockAtStart
  }

  /// On Wi-Fi with the default rates, on battery, all day.
  public static let wifi = DeviceModel()
}
