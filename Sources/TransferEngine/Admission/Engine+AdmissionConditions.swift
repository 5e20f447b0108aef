import SimKernel

extension Engine {
  /// What admission's blocks that last (`WaitReason.lastsUntilInputsChange`, and those that end
  /// at an instant, `Admission.timedBlockEnd`) depend on besides the task: while those its
  /// reason reads are equal (`WaitReason.inputGroups`), such a block stands. The time is not
  /// among them: a block that ends at an instant (a start date, the rate limiter's delay) is kept
  /// only before it (`KnownBlockedRun.earliestEnd`). The rate limiter's expiry is, as a later one
  /// can put a task behind it again.
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

  /// The numbers of admission's input groups as they are now (`AdmissionEpochs`): a group's
  /// number is bumped when one of its inputs differs from the last call's.
  func admissionEpochs() -> AdmissionEpochs {
    let inputs = admissionInputs
    guard let last = lastAdmissionInputs else {
      lastAdmissionInputs = inputs
      return admissionInputEpochs
    }
    if inputs != last {
      lastAdmissionInputs = inputs
      if inputs.deviceLocked != last.deviceLocked { admissionInputEpochs.lock &+= 1 }
      if inputs.appState != last.appState { admissionInputEpochs.appState &+= 1 }
      if inputs.rateLimiterExpiry != last.rateLimiterExpiry { admissionInputEpochs.rateLimiter &+= 1 }
      if inputs.network != last.network { admissionInputEpochs.network &+= 1 }
      if inputs.power != last.power { admissionInputEpochs.power &+= 1 }
      if (inputs.network != last.network || inputs.power != last.power)
        && discretionaryView(of: inputs) != discretionaryView(of: last)
      {
        admissionInputEpochs.discretionary &+= 1
      }
      if inputs.serverVersion != last.serverVersion || inputs.waitingTasksVersion != last.waitingTasksVersion
        || inputs.sessionAttachments != last.sessionAttachments
      {
        admissionInputEpochs.tasks &+= 1
      }
    }
    return admissionInputEpochs
  }

  private func discretionaryView(of inputs: AdmissionInputs) -> Admission.DiscretionaryView {
    Admission.DiscretionaryView(network: inputs.network, power: inputs.power, policy: policy.discretionary)
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
