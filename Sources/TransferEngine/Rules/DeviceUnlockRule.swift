import SimKernel

/// Rule: the user unlocks the device for the first time after a restart (behavior.md, "Device
/// restart"), `reboot.unlockAfter` after it or at the first launch.
///
/// Until then no transfer starts and the app is not woken; now every waiting task is decided
/// again and a wake check is asked for. An unlock while the device is not locked since a restart
/// does nothing.
enum DeviceUnlockRule {
  /// Applies the unlock to `links` and appends what follows to `effects`.
  static func apply(to links: inout Links, into effects: inout EffectBuffer) {
    guard links.unlock() else { return }
    effects.append(.trace(.deviceUnlock, []))
    effects.append(.reevaluateWaiting)
    effects.append(.requestWakeCheck)
  }
}
