import Foundation
import SimKernel
import TransferEngine

extension BridgeHost {
  /// How near the host's clock a date must be to be taken for one read from it.
  static let hostClockWindow: TimeInterval = 366 * 86_400

  /// Lints `wallClockDate` once per property and run: a `Date` the app passed is nearer the
  /// host's clock (`Date()`) than the simulation's, so the app read the wrong clock (Apple's
  /// Listing 2: `Date().addingTimeInterval(60 * 60)`). The message names the simulated time, not
  /// the host's, so the trace stays the same on every run.
  func checkWallClockDate(_ date: Date, property: String) {
    guard let simulation else { return }
    let simulated = simulation.referenceDate.addingTimeInterval(simulation.now.sinceStart.seconds)
    let fromHost = abs(date.timeIntervalSinceNow)
    guard fromHost < Self.hostClockWindow, fromHost < abs(date.timeIntervalSince(simulated)) else { return }
    guard !wallClockDatesLinted.contains(property) else { return }
    wallClockDatesLinted.insert(property)
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    simulation.bridgeLint(
      .wallClockDate,
      "\(property) was set to a date near the host's clock (Date() on this machine), not the simulation's "
        + "(SimulatedApplication.now is \(formatter.string(from: simulated))): the app read the wrong clock; "
        + "take dates from SimulatedApplication.now (application.now.addingTimeInterval(3600) in place of "
        + "Date().addingTimeInterval(3600)), or inject a clock",
      [TraceField("property", .string(property))])
  }
}
