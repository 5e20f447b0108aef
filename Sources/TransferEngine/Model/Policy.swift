import SimKernel

/// The knobs of the simulated system. Every default comes from behavior.md; rules tagged [S]
/// there are assumptions, which is why they are knobs.
public struct Policy: Hashable, Sendable {
  /// The per-app rate limiter that spaces out background wakes.
  public var rateLimiter: RateLimiterPolicy
  /// When discretionary tasks may start.
  public var discretionary: DiscretionaryPolicy
  /// How long a backgrounded app runs before the system suspends it.
  public var backgroundRunTime: SimDuration
  /// How long background-task assertions keep a backgrounded app running (about 30 s [O]).
  public var backgroundTaskLimit: SimDuration
  /// How long the system waits for the `handleEvents` completion handler before suspending anyway.
  public var completionHandlerTimeout: SimDuration
  /// `httpMaximumConnectionsPerHost` when a session does not set its own.
  public var maxConnectionsPerHost: Int
  /// Automatic retries of interrupted background transfers.
  public var retry: RetryPolicy
  /// What a device restart does to background transfers.
  public var reboot: RebootPolicy
  /// Whether the system wakes the app to answer `willBeginDelayedRequest`.
  public var delayedRequest: DelayedRequestPolicy
  /// The device's URLSession speaks the resumable upload draft (iOS 17 and later); false plays
  /// iOS 16 and earlier, where every interrupted upload starts again from zero.
  public var resumableUploads = true
  /// The interop version of the resumable upload draft the device speaks (iOS 17: 3, 18.0: 5,
  /// 18.1 and later: 6); a server that speaks only older ones cannot resume its uploads.
  public var resumableUploadDraft = ResumableUploadDraft.v6
  /// How the daemon handles authentication challenges.
  public var challenge: ChallengePolicy
  /// How long an app extension's process lives after the user leaves it (`closeExtension`)
  /// before the system ends it; no source gives a number [S].
  public var extensionEndsAfter: SimDuration = .seconds(5)
  /// `BGContinuedProcessingTask` (iOS 26): how many run at once, and the progress window.
  public var continuedProcessing = ContinuedProcessingPolicy()

  /// A policy; every default is behavior.md's.
  public init(
    rateLimiter: RateLimiterPolicy = .init(), discretionary: DiscretionaryPolicy = .init(),
    backgroundRunTime: SimDuration = .seconds(5), completionHandlerTimeout: SimDuration = .seconds(30),
    maxConnectionsPerHost: Int = 4, retry: RetryPolicy = .init(),
    backgroundTaskLimit: SimDuration = .seconds(30), reboot: RebootPolicy = .init(),
    delayedRequest: DelayedRequestPolicy = .init(),
    challenge: ChallengePolicy = .init()
  ) {
    self.challenge = challenge
    self.reboot = reboot
    self.delayedRequest = delayedRequest
    self.backgroundTaskLimit = backgroundTaskLimit
    self.rateLimiter = rateLimiter
    self.discretionary = discretionary
    self.backgroundRunTime = backgroundRunTime
    self.completionHandlerTimeout = completionHandlerTimeout
    self.maxConnectionsPerHost = maxConnectionsPerHost
    self.retry = retry
  }

  /// Every knob at behavior.md's default (`bgsim policy --defaults` prints them).
  public static let defaults = Policy()
}

/// The daemon's per-app resume rate limiter (forum thread 14854 and behavior.md).
public struct RateLimiterPolicy: Hashable, Sendable {
  /// The delay before any wake.
  public var initialDelay: SimDuration
  /// The delay set by the first wake (60 s observed on iOS 12.4).
  public var firstDelay: SimDuration
  /// Factor applied to the delay at each later wake.
  public var growth: Double
  /// Cap on the delay; nil means no cap (no source gives one).
  public var maxDelay: SimDuration?
  /// Reset the delay to 0 when the user brings the app to the foreground.
  public var resetOnForeground: Bool
  /// Reset when no wake happens within `idleResetFactor x delay` of the wake that set it.
  public var idleResetFactor: Double

  /// A rate limiter; the defaults are the iOS 12.4 observation (0, then 60 s, doubling, no cap).
  public init(
    initialDelay: SimDuration = .zero, firstDelay: SimDuration = .seconds(60), growth: Double = 2.0,
    maxDelay: SimDuration? = nil, resetOnForeground: Bool = true, idleResetFactor: Double = 2.0
  ) {
    self.initialDelay = initialDelay
    self.firstDelay = firstDelay
    self.growth = growth
    self.maxDelay = maxDelay
    self.resetOnForeground = resetOnForeground
    self.idleResetFactor = idleResetFactor
  }
}

/// A condition a discretionary task waits for.
public enum DiscretionaryCondition: String, CaseIterable, Hashable, Sendable {
  /// An interface that is neither expensive nor constrained.
  case wifi
  /// External power.
  case charging
}

/// When the system considers conditions "optimal" for discretionary work (behavior.md,
/// "Discretionary work"). Apple says such transfers are more likely on Wi-Fi and power and that
/// the system "might delay transferring large files until plugged in": a preference and a size,
/// so the hard conditions depend on the transfer's size, and every number is a knob [S].
public struct DiscretionaryPolicy: Hashable, Sendable {
  /// Conditions every discretionary transfer waits for, in the order they are reported.
  public var requires: [DiscretionaryCondition]
  /// A transfer of at least this many bytes (the app's `countOfBytesClientExpectsToSend` and
  /// `...ToReceive`, else the upload's body or the resource's size) is large.
  public var largeTransferSize: Int64
  /// Conditions a large discretionary transfer waits for, besides `requires`.
  public var largeTransferRequires: [DiscretionaryCondition]
  /// Below this battery level (0...1) a discretionary transfer waits for power; 0 never waits.
  public var minimumBatteryLevel: Double
  /// Wait while Low Power Mode is on.
  public var avoidLowPowerMode: Bool

  /// The defaults: Wi-Fi for every transfer, the charger too for one of 50 MB or more, no battery
  /// floor, Low Power Mode avoided.
  public init(
    requires: [DiscretionaryCondition] = [.wifi], largeTransferSize: Int64 = 50_000_000,
    largeTransferRequires: [DiscretionaryCondition] = [.wifi, .charging], minimumBatteryLevel: Double = 0,
    avoidLowPowerMode: Bool = true
  ) {
    self.requires = requires
    self.largeTransferSize = largeTransferSize
    self.largeTransferRequires = largeTransferRequires
    self.minimumBatteryLevel = minimumBatteryLevel
    self.avoidLowPowerMode = avoidLowPowerMode
  }

  /// The conditions a transfer of `size` bytes waits for, each once, in report order.
  public func conditions(forSize size: Int64) -> [DiscretionaryCondition] {
    let all = size >= largeTransferSize ? requires + largeTransferRequires : requires
    return DiscretionaryCondition.allCases.filter(all.contains)
  }
}

/// Automatic retries of interrupted background transfers.
public struct RetryPolicy: Hashable, Sendable {
  /// Wait before the first retry; doubles at each further retry of the same task.
  public var backoff: SimDuration
  /// Cap on the retry wait.
  public var maxBackoff: SimDuration

  /// The defaults: 10 s, doubling up to 10 minutes.
  public init(backoff: SimDuration = .seconds(10), maxBackoff: SimDuration = .minutes(10)) {
    self.backoff = backoff
    self.maxBackoff = maxBackoff
  }
}

/// What a device restart does to background transfers (behavior.md, "Device restart"); no
/// source settles it, so both are knobs.
public struct RebootPolicy: Hashable, Sendable {
  /// Background sessions' tasks outlive the restart (the daemon keeps them) and continue after
  /// the first unlock; false: they are gone, and the app is never told.
  public var keepsBackgroundTasks: Bool
  /// From the restart to the user's first unlock (a user `launch` unlocks earlier).
  public var unlockAfter: SimDuration

  /// The defaults: tasks survive the restart and wait a minute for the first unlock.
  public init(keepsBackgroundTasks: Bool = true, unlockAfter: SimDuration = .minutes(1)) {
    self.keepsBackgroundTasks = keepsBackgroundTasks
    self.unlockAfter = unlockAfter
  }
}
