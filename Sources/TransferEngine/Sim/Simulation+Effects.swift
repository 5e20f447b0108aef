import SimKernel

/// The effect interpreter: carries out what a rule (`Rules/`) appended, in order.
extension Simulation {
  /// The reused buffer for the next rule, or a new one when a rule runs inside another's
  /// effects (then both keep their own order).
  func takeEffectBuffer() -> EffectBuffer {
    guard let buffer = spareEffects else { return EffectBuffer() }
    spareEffects = nil
    return buffer
  }

  /// Performs `effects` in order, then keeps the emptied buffer for the next rule.
  func interpret(_ effects: consuming EffectBuffer) {
    for effect in effects.effects {
      switch effect {
      case .trace(let kind, let fields): emit(kind, fields)
      case .interrupt(let uid, let reason, let retryNow):
        interrupt(daemon.tasks[Int(uid)], reason: reason, retryNow: retryNow)
      case .requeueAhead(let uid):
        // Only a task the interruption did queue again at once (a background task: a default
        // session's task failed instead) is waiting to reclaim its slot.
        let task = daemon.tasks[Int(uid)]
        if task.machine.isWaiting && task.machine.reclaimsSlot { _ = daemon.insert(task) }
      case .rescheduleLinks: rescheduleLinks()
      case .reevaluateWaiting: reevaluateAllWaiting()
      }
    }
    effects.removeAll()
    spareEffects = effects
  }
}
