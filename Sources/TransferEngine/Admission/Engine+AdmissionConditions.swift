import SimKernel

extension Engine {
  /// What admission's blocks that last (`WaitReason.lastsUntilInputsChange`, and those that end
  /// at an instant, `Admission.timedBlockEnd`) depend on besides the task: while these are
  /// equal, such a block stands. The time is not among them: a block that ends at an instant (a
  /// start date, the rate limiter's delay) is kept only before it (`WaitQueue.knownBlockedUntil`).
  /// The rate limiter's expiry is, as a later one can put a task behind it again.
  struct AdmissionInputs: Equatable {
    var network: NetworkState
    var power: PowerState
    var appState: AppState
    var deviceLocked: Bool
    var rateLimiterExpiry: SimTime
    var serverVersion: Int
    var waitingTasksVersion: UInt64
    var sessionAttachments: Int
  }

  /// The number of admission's inputs as they are now: the same number while they stay equal.
  func admissionInputsEpoch() -> UInt64 {
    let inputs = admissionInputs
    if inputs != lastAdmissionInputs {
      lastAdmissionInputs = inputs
      admissionInputsEpochs &+= 1
    }
    return admissionInputsEpochs
  }

  var admissionInputs: AdmissionInputs {
    AdmissionInputs(
      network: links.network, power: links.power, appState: lifecycle.state,
      deviceLocked: links.lockedSinceRestart, rateLimiterExpiry: rateLimiter.expiry,
      serverVersion: links.server.version, waitingTasksVersion: tasks.waitingInputsVersion,
      sessionAttachments: daemon.attachments)
  }

  /// The conditions admission decides on, now: the device, the app's state, the rate limiter,
  /// the discretionary knobs and the lock after a restart.
  var admissionConditions: Admission.Conditions {
    Admission.Conditions(
      now: now, network: links.network, power: links.power, appState: lifecycle.state,
      rateLimiterExpiry: rateLimiter.expiry, discretionary: policy.discretionary,
      deviceLocked: links.lockedSinceRestart,
      connectionSlack: injectedFault == .connectionLimitOffByOne ? 1 : 0)
  }
}
