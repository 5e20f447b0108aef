import SimKernel
import TransferEngine

extension Simulation {
  /// When the live process's timers (`SimulatedApplication.after`) are due, earliest first,
  /// including those that came due while it was suspended and run at its next resume; empty
  /// while the app is not running. Exploration reads it to place kill points before a timer
  /// fires and to tell apart points where the app's observable state is the same.
  public var pendingAppTimers: [SimTime] {
    self.bridgeHost?.process?.pendingTimerDues ?? []
  }
}
