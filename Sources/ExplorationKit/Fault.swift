import SimKernel
import TransferEngine

/// One fault the platform allows, and when: what an exploration injects into a world.
///
/// Times are simulated instants. A fault that ends the process (`terminate`, `forceQuit`,
/// `reboot`) takes effect only while the app runs out of the foreground after its first launch;
/// at any other moment it is skipped (iOS never kills a foreground app that way).
public struct Fault: Hashable, Sendable, CustomStringConvertible {
  /// What happens.
  public enum Kind: Hashable, Sendable {
    /// The system terminates the app (memory pressure).
    case terminate
    /// The user swipes the app away, and opens it again `userReturnsAfter` later.
    case forceQuit
    /// The network goes away (`.offline`) or switches interface for `lasting`, then comes back.
    case network(NetworkFault, lasting: SimDuration)
    /// The device restarts, and the user opens the app again `userReturnsAfter` later.
    case reboot
  }

  /// The kinds of network fault.
  public enum NetworkFault: String, Hashable, Sendable {
    /// No interface at all.
    case offline
    /// Wi-Fi becomes cellular (or cellular Wi-Fi), at the interface's default rates.
    case interfaceChange
  }

  /// What happens.
  public var kind: Kind
  /// The instant, after everything the world did at that instant.
  public var at: SimTime
  /// For a kill point, what the app had just done (its last callback in the baseline's trace),
  /// or that a timer of the app was about to fire. Not part of a fault's identity.
  public var after: String?

  /// A fault of `kind` at `at`; `after` describes the kill point, if it is one.
  public init(_ kind: Kind, at: SimTime, after: String? = nil) {
    self.kind = kind
    self.at = at
    self.after = after
  }

  /// The system terminates the suspended or background app at `at`.
  public static func terminate(at: SimTime, after: String? = nil) -> Fault {
    Fault(.terminate, at: at, after: after)
  }
  /// The user force-quits the app at `at` and opens it again `userReturnsAfter` later.
  public static func forceQuit(at: SimTime) -> Fault { Fault(.forceQuit, at: at) }
  /// The network fails at `at` for `lasting`.
  public static func network(at: SimTime, _ fault: NetworkFault, lasting: SimDuration) -> Fault {
    Fault(.network(fault, lasting: lasting), at: at)
  }
  /// The device restarts at `at`; the user opens the app again `userReturnsAfter` later.
  public static func reboot(at: SimTime) -> Fault { Fault(.reboot, at: at) }

  /// True for a fault that ends the app's process.
  public var endsProcess: Bool {
    if case .network = kind { return false }
    return true
  }

  /// Same kind at the same instant (`after` is a label, not part of the fault).
  public static func == (a: Fault, b: Fault) -> Bool { a.kind == b.kind && a.at == b.at }
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(at)
  }

  /// The fault in words: `terminate at 12m0.2s (after delegate.didFinishDownloading)`.
  public var description: String {
    let when = " at \(at)" + (after.map { " (\($0))" } ?? "")
    switch kind {
    case .terminate: return "system termination" + when
    case .forceQuit: return "force quit" + when
    case .reboot: return "reboot" + when
    case .network(let fault, let lasting):
      return (fault == .offline ? "network lost" : "interface change") + when + " for \(lasting)"
    }
  }

  /// The fault as Swift source, for a replay call to paste.
  public var swiftSource: String {
    let time = "SimTime(nanoseconds: \(at.nanoseconds))"
    switch kind {
    case .terminate: return ".terminate(at: \(time))"
    case .forceQuit: return ".forceQuit(at: \(time))"
    case .reboot: return ".reboot(at: \(time))"
    case .network(let fault, let lasting):
      return ".network(at: \(time), .\(fault.rawValue), lasting: .nanoseconds(\(lasting.nanoseconds)))"
    }
  }
}

/// Which faults an exploration may inject, and how the user behaves after one.
///
/// Set operations (`union`, `subtracting`, array literals) make new sets with the default
/// `userReturnsAfter`: set it last, with `userReturning(after:)`.
public struct FaultSet: OptionSet, Hashable, Sendable {
  /// The kinds, one bit each.
  public let rawValue: Int
  /// After a force quit or a reboot, the user opens the app again this much later.
  public var userReturnsAfter: SimDuration = .minutes(1)

  /// The kinds in `rawValue`, with the default `userReturnsAfter`.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// System termination while the app is suspended or in the background (memory pressure).
  public static let systemTermination = FaultSet(rawValue: 1 << 0)
  /// Force quit followed by a user launch.
  public static let forceQuit = FaultSet(rawValue: 1 << 1)
  /// Network loss and interface changes.
  public static let network = FaultSet(rawValue: 1 << 2)
  /// Device restart followed by a user launch.
  public static let reboot = FaultSet(rawValue: 1 << 3)
  /// Every kind: the default.
  public static let all: FaultSet = [.systemTermination, .forceQuit, .network, .reboot]

  /// The same set with another `userReturnsAfter`.
  public func userReturning(after delay: SimDuration) -> FaultSet {
    var copy = self
    copy.userReturnsAfter = delay
    return copy
  }
}
