extension SimURLSessionTask {
  /// Why a resumed task is not moving bytes right now (the `reason` of `task.deferred`).
  public enum WaitReason: Hashable, Sendable {
    /// Its `earliestBeginDate` has not come.
    case earliestBegin
    /// Created while the app was not in the foreground; the rate limiter's delay has not run out.
    case rateLimiter
    /// A discretionary task waiting for conditions; `missing` names those that fail (`wifi`, `charging`, `lowPowerModeOff`).
    case discretionary(missing: [String])
    /// No interface is up.
    case connectivity
    /// Only cellular is up and the session does not allow it.
    case cellularNotAllowed
    /// The interface is expensive and the session does not allow expensive access.
    case expensiveNotAllowed
    /// The interface is in Low Data Mode and the session does not allow constrained access.
    case constrainedNotAllowed
    /// Its session already has `httpMaximumConnectionsPerHost` connections to the host.
    case connectionLimit
    /// Between an interruption and its automatic retry.
    case retryBackoff
    /// A default session's transfer while its app is suspended.
    case appSuspended
    /// The device restarted and the user has not unlocked it yet.
    case deviceLocked
    /// Ready to start, waiting for the app's answer to `willBeginDelayedRequest`.
    case delayedRequest

    /// The reason without its data: the one list of wait-reason names.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
      /// ``SimURLSessionTask/WaitReason/earliestBegin``.
      case earliestBegin
      /// ``SimURLSessionTask/WaitReason/rateLimiter``.
      case rateLimiter
      /// ``SimURLSessionTask/WaitReason/discretionary(missing:)``, without the missing conditions.
      case discretionary
      /// ``SimURLSessionTask/WaitReason/connectivity``.
      case connectivity
      /// ``SimURLSessionTask/WaitReason/cellularNotAllowed``.
      case cellularNotAllowed
      /// ``SimURLSessionTask/WaitReason/expensiveNotAllowed``.
      case expensiveNotAllowed
      /// ``SimURLSessionTask/WaitReason/constrainedNotAllowed``.
      case constrainedNotAllowed
      /// ``SimURLSessionTask/WaitReason/connectionLimit``.
      case connectionLimit
      /// ``SimURLSessionTask/WaitReason/retryBackoff``.
      case retryBackoff
      /// ``SimURLSessionTask/WaitReason/appSuspended``.
      case appSuspended
      /// ``SimURLSessionTask/WaitReason/deviceLocked``.
      case deviceLocked
      /// ``SimURLSessionTask/WaitReason/delayedRequest``.
      case delayedRequest

      /// The reasons `task.deferred` carries, in order. `retryBackoff` is not among them: the
      /// wait after an interruption is traced by `task.interrupted` and ends with `task.retry`.
      public static var deferrable: [Kind] { allCases.filter { $0 != .retryBackoff } }
    }

    /// The reason's name, without its data, as `task.deferred` writes it.
    public var kind: Kind {
      switch self {
      case .earliestBegin: return .earliestBegin
      case .rateLimiter: return .rateLimiter
      case .discretionary: return .discretionary
      case .connectivity: return .connectivity
      case .cellularNotAllowed: return .cellularNotAllowed
      case .expensiveNotAllowed: return .expensiveNotAllowed
      case .constrainedNotAllowed: return .constrainedNotAllowed
      case .connectionLimit: return .connectionLimit
      case .retryBackoff: return .retryBackoff
      case .appSuspended: return .appSuspended
      case .deviceLocked: return .deviceLocked
      case .delayedRequest: return .delayedRequest
      }
    }

    /// The `reason` field of `task.deferred`.
    public var name: String { kind.rawValue }

    /// `self == other`, with no call for the reasons without a payload (every one but
    /// `discretionary`): the admission pass compares one for each task it decides, and the
    /// derived `==` it called cost `fleet` 7% of its instructions.
    @inline(__always) func isSame(as other: Self?) -> Bool {
      guard let other else { return false }
      if case .discretionary(let missing) = self {
        if case .discretionary(let otherMissing) = other { return missing == otherMissing }
        return false
      }
      return kind == other.kind
    }

    /// Every name `task.deferred reason=` can take, in the order of behavior.md's start rules.
    public static var allNames: [String] { Kind.allCases.map(\.rawValue) }

    /// `URLError.networkUnavailableReason` for a wait on a disallowed interface; nil otherwise
    /// (also for `connectivity`: no interface is up at all).
    var networkUnavailableReason: SimURLError.NetworkUnavailableReason? {
      switch self {
      case .cellularNotAllowed: return .cellular
      case .expensiveNotAllowed: return .expensive
      case .constrainedNotAllowed: return .constrained
      default: return nil
      }
    }

    /// A block that lasts while admission's inputs other than the time stay as they are
    /// (`Engine.AdmissionInputs`): the network, the power, the lock, discretionary conditions.
    /// A connection freed in the task's queue cannot lift it (`KnownBlockedRun`; the
    /// blocks that end at an instant: `Admission.timedBlockEnd`).
    var lastsUntilInputsChange: Bool {
      switch self {
      case .discretionary, .connectivity, .cellularNotAllowed, .expensiveNotAllowed, .constrainedNotAllowed,
        .deviceLocked:
        return true
      default: return false
      }
    }

    /// True for the reasons that mean no allowed interface is up.
    var isInterfaceBlock: Bool {
      switch self {
      case .connectivity, .cellularNotAllowed, .expensiveNotAllowed, .constrainedNotAllowed: return true
      default: return false
      }
    }
  }
}
