/// The groups of admission's inputs a block can depend on (`WaitReason.inputGroups`).
///
/// A block depends on the inputs its own check reads and on those of every check before it in
/// `Admission.waitReason`: an earlier check that begins to hold would give the task another
/// reason. The server's version, the waiting tasks' own inputs and the delegates attached are
/// read by every block, so they are not a group here (`AdmissionEpochs.tasks`).
struct AdmissionInputGroups: OptionSet {
  let rawValue: UInt8

  /// The lock after a restart (`deviceLocked`).
  static let lock = AdmissionInputGroups(rawValue: 1 << 0)
  /// The app's state (a default session waits while the app is suspended).
  static let appState = AdmissionInputGroups(rawValue: 1 << 1)
  /// The rate limiter's expiry.
  static let rateLimiter = AdmissionInputGroups(rawValue: 1 << 2)
  /// The network's interface and its flags.
  static let network = AdmissionInputGroups(rawValue: 1 << 3)
  /// Charging, the battery level, Low Power Mode.
  static let power = AdmissionInputGroups(rawValue: 1 << 4)
  /// The network and the power only as a discretionary block reads them
  /// (`Admission.DiscretionaryView`): whether the interface counts as Wi-Fi, charging, the
  /// battery under its floor, Low Power Mode avoided. Its number moves only when one of those
  /// does, so a discretionary task waiting for Wi-Fi is not decided again when the network goes
  /// from cellular to none.
  static let discretionary = AdmissionInputGroups(rawValue: 1 << 5)

  static let all: AdmissionInputGroups = [.lock, .appState, .rateLimiter, .network, .power, .discretionary]
}

/// A number for each group of admission's inputs, bumped when an input of the group changes
/// (`Engine.admissionEpochs()`). A wait queue's run of known-blocked tasks records them with
/// the groups its reasons read (`KnownBlockedRun`): the run stands while those groups keep
/// their numbers, so a change the blocks cannot feel (the app suspended, for tasks waiting for a
/// start date) does not make every queue's run be decided again.
struct AdmissionEpochs: Equatable {
  var lock: UInt64 = 0
  var appState: UInt64 = 0
  var rateLimiter: UInt64 = 0
  var network: UInt64 = 0
  var power: UInt64 = 0
  var discretionary: UInt64 = 0
  /// The server's version, the waiting tasks' own inputs, the delegates attached.
  var tasks: UInt64 = 0

  /// Whether `other` has the same numbers for `groups` (and for the inputs every block reads).
  /// Each group is compared only when asked for, not through `groupsMoved`: this is asked at
  /// every pass that may skip a run, and comparing every group there cost `bench fleet` 1.2% of
  /// its instructions.
  func agree(with other: AdmissionEpochs, on groups: AdmissionInputGroups) -> Bool {
    guard tasks == other.tasks else { return false }
    if groups.contains(.lock) && lock != other.lock { return false }
    if groups.contains(.appState) && appState != other.appState { return false }
    if groups.contains(.rateLimiter) && rateLimiter != other.rateLimiter { return false }
    if groups.contains(.network) && network != other.network { return false }
    if groups.contains(.power) && power != other.power { return false }
    if groups.contains(.discretionary) && discretionary != other.discretionary { return false }
    return true
  }

  /// The groups whose numbers differ from `other`'s (the inputs every block reads aside).
  func groupsMoved(since other: AdmissionEpochs) -> AdmissionInputGroups {
    var moved: AdmissionInputGroups = []
    if lock != other.lock { moved.insert(.lock) }
    if appState != other.appState { moved.insert(.appState) }
    if rateLimiter != other.rateLimiter { moved.insert(.rateLimiter) }
    if network != other.network { moved.insert(.network) }
    if power != other.power { moved.insert(.power) }
    if discretionary != other.discretionary { moved.insert(.discretionary) }
    return moved
  }
}

extension SimURLSessionTask.WaitReason {
  /// The groups of admission's inputs this block depends on, for a block that lasts until they
  /// change or ends at an instant (`lastsUntilInputsChange`, `Admission.timedBlockEnd`); all of
  /// them for any other. Follows the order of the checks in `Admission.waitReason`: the lock,
  /// then a background task's start date, the rate limiter and discretionary conditions (the
  /// network and the power through their `DiscretionaryView` alone: a block with missing
  /// conditions returns before any later check reads them), then a default session's suspended
  /// app, then the interface.
  var inputGroups: AdmissionInputGroups {
    switch self {
    case .deviceLocked, .earliestBegin: return .lock
    case .rateLimiter: return [.lock, .rateLimiter]
    case .discretionary: return [.lock, .rateLimiter, .discretionary]
    default: return .all
    }
  }
}
