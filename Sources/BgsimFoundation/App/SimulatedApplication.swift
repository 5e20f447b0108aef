import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The process's `UIApplication` stand-in: one object per launch. After the process dies it
/// keeps answering (its state reads `.suspended`), but its sessions do nothing and its timers
/// never fire.
public final class SimulatedApplication: @unchecked Sendable {
  /// Why this process started.
  public let launchReason: LaunchReason
  /// The app's sandbox: a real directory, one per simulation, that survives terminations.
  public let containerDirectory: URL
  /// Weak: the engine owns the process; once it ends, this object's calls do nothing.
  weak var process: BridgeProcess?

  /// The simulation's bridge, kept so `now` works after the process ended.
  private(set) weak var host: BridgeHost?

  init(process: BridgeProcess, launchReason: LaunchReason, containerDirectory: URL) {
    self.process = process
    self.host = process.host
    self.launchReason = launchReason
    self.containerDirectory = containerDirectory
  }

  /// The app's tmp inside the container: partial downloads named by resume data live here.
  public var temporaryDirectory: URL { containerDirectory.appendingPathComponent("tmp", isDirectory: true) }

  /// `UIApplication.applicationState`, plus `.suspended`.
  public var applicationState: ApplicationState {
    guard let host = process?.liveHost else { return .suspended }
    switch host.simulation?.appState {
    case .foreground: return .active
    case .background: return .background
    default: return .suspended
    }
  }

  /// Simulated wall-clock time: the simulation's `referenceDate` plus simulated time.
  public var now: Date {
    guard let simulation = host?.simulation else { return Simulation.defaultReferenceDate }
    return simulation.referenceDate.addingTimeInterval(simulation.now.sinceStart.seconds)
  }

  /// Simulated time as a Swift `Clock` (`Duration`, `sleep(until:)` on simulated time), for code
  /// that takes a clock: `Debouncer(clock: application.clock)`.
  public var clock: SimulatedClock { SimulatedClock(application: self) }

  /// THE seam: `URLSession(configuration:delegate:delegateQueue:)`, backed by the simulation.
  public func makeURLSession(
    configuration: URLSessionConfiguration, delegate: URLSessionDelegate?, delegateQueue: OperationQueue?
  ) -> URLSession {
    if let process {
      return process.makeSession(
        configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
    }
    host?.noteCallFromDeadProcess()
    return BridgedSession(
      process: nil, configuration: configuration.bridgeCopy(), delegate: delegate,
      delegateQueue: delegateQueue)
  }

  /// Says that the callback running now takes `seconds` of the app's own time on a device (a
  /// slow unzip or database write in `didFinishDownloadingTo`): simulated time does not move
  /// while app code runs, so this is how app code charges for its work. The next callbacks wait
  /// until it is done, and during a background wake it counts against the wake's time: work
  /// still running when that is up gets the app killed by the watchdog (lint `slowCallback`).
  /// Zero, negative or non-finite values do nothing.
  public func spend(_ seconds: TimeInterval) {
    guard let process, let simulation = process.liveHost?.simulation else {
      return host?.noteCallFromDeadProcess() ?? ()
    }
    guard seconds.isFinite, seconds > 0 else { return }
    simulation.appSpends(.seconds(rounding: min(seconds, 86_400)))
  }

  /// A timer on simulated time with the shape of an `asyncAfter` wrapper: runs late (at the next
  /// resume) when the process is suspended when it is due, never if the process dies first.
  public func after(_ delay: TimeInterval, _ work: @escaping () -> Void) {
    guard let process else { return host?.noteCallFromDeadProcess() ?? () }
    process.schedule(after: delay, work)
  }
}

extension Simulation {
  /// The wall-clock date simulated time 0 stands for in this simulation: its device's
  /// `clockAtStart` (a scenario's `startsAt`, read as UTC), by default 2100-01-01T00:00:00Z.
  public var referenceDate: Date { Date(timeIntervalSince1970: TimeInterval(deviceModel.clockAtStart)) }

  /// 2100-01-01T00:00:00Z: the reference date of a simulation whose device sets none, decades
  /// from any host's clock so that a `Date()` the app passes by mistake stands out.
  public static let defaultReferenceDate = Date(
    timeIntervalSince1970: TimeInterval(DeviceModel.defaultClockAtStart))
}
