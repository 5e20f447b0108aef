import SimKernel

/// The device's links and the server as they are now: the network and power state, the two
/// shared link directions with their completion timers, and the server's resources and faults.
///
/// A value owned by `Simulation`; only the methods here change it. Applying a network step
/// says whether the interface changed, which is what decides the transfers it cuts.
struct Links {
  private(set) var network: NetworkState = .offline
  private(set) var power = PowerState()
  /// The device restarted and the user has not unlocked it since: before the first unlock the
  /// app's data is out of reach, so no transfer runs and no app is launched in the background.
  private(set) var lockedSinceRestart = false
  /// Bumped at each restart, so an unlock armed for an earlier restart is stale.
  private(set) var restartCount: UInt32 = 0
  private(set) var server: ServerState
  private var down = SharedLink()
  private var up = SharedLink()
  /// The pending completion event of each direction (down, up).
  private var completionHandles: [EventHandle?] = [nil, nil]

  init(server: ServerModel) { self.server = ServerState(model: server) }

  // MARK: Device

  /// A new network step: re-rates both directions. Returns true when the interface changed
  /// (every connection on the old one is cut); a rate-only step cuts nothing by itself.
  mutating func apply(_ next: NetworkState, now: SimTime) -> (interfaceChanged: Bool, previous: NetworkState)
  {
    let previous = network
    network = next
    down.setCapacity(next.isUp ? next.down.bytesPerSecond : 0, now: now)
    up.setCapacity(next.isUp ? next.up.bytesPerSecond : 0, now: now)
    return (previous.interface != next.interface, previous)
  }

  mutating func apply(_ next: PowerState) { power = next }

  /// The device restarts: locked until the first unlock. Returns the restart's number.
  mutating func restart() -> UInt32 {
    lockedSinceRestart = true
    restartCount &+= 1
    return restartCount
  }

  /// The user unlocks the device; false when it was not locked since a restart.
  mutating func unlock() -> Bool {
    guard lockedSinceRestart else { return false }
    lockedSinceRestart = false
    return true
  }

  // MARK: Server

  mutating func apply(_ change: ServerChange) { server.apply(change) }
  mutating func activateDrop(_ index: Int) { server.activateDrop(index) }
  /// Consumes one drop of an active fault matching `url`, if any remains.
  mutating func takeDrop(for url: SimURL) -> Bool { server.takeDrop(for: url) }

  // MARK: Flows

  /// A flow of `bytes` joins the direction.
  mutating func add(_ flow: Int32, up isUp: Bool, bytes: Int64, now: SimTime) {
    if isUp { up.add(flow, bytes: bytes, now: now) } else { down.add(flow, bytes: bytes, now: now) }
  }

  /// Takes a flow off its direction; returns the bytes it still had to move (0 if absent).
  mutating func remove(_ flow: Int32, up isUp: Bool, now: SimTime) -> Double {
    isUp ? up.remove(flow, now: now) : down.remove(flow, now: now)
  }

  func bytesRemaining(_ flow: Int32, up isUp: Bool, now: SimTime) -> Double? {
    isUp ? up.bytesRemaining(flow, now: now) : down.bytesRemaining(flow, now: now)
  }

  /// Removes and returns the flows of a direction that have finished.
  mutating func popFinished(up isUp: Bool, now: SimTime) -> [Int32] {
    completionHandles[isUp ? 1 : 0] = nil
    return isUp ? up.popFinished(now: now) : down.popFinished(now: now)
  }

  func nextCompletion(up isUp: Bool) -> SimTime? { isUp ? up.nextCompletion() : down.nextCompletion() }

  /// A direction's pending completion timer, if any.
  func completionHandle(up isUp: Bool) -> EventHandle? { completionHandles[isUp ? 1 : 0] }

  /// Records a direction's new completion timer (the caller cancelled the old one).
  mutating func armed(up isUp: Bool, _ handle: EventHandle?) { completionHandles[isUp ? 1 : 0] = handle }

  /// The downlink's flow that finishes first if nothing changes.
  var nextDownFlowToFinish: Int32? { down.firstToFinish }

  /// Flows on each direction now.
  var activeFlows: (down: Int, up: Int) { (down.activeCount, up.activeCount) }

  /// The downlink's equal share per flow now, in bytes per second.
  var downShare: Double { down.capacity / Double(max(1, down.activeCount)) }
  /// The uplink's equal share per flow now, in bytes per second.
  var upShare: Double { up.capacity / Double(max(1, up.activeCount)) }
}
