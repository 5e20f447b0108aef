import SimKernel

/// The server as it is now: resources after the changes applied so far, and fault bookkeeping.
struct ServerState {
  private(set) var resources: [SimURL: ServerResource] = [:]
  /// The scenario's faults, with their index by target when there are many.
  private let faultTable: FaultTable
  var faults: [ServerFault] { faultTable.list }
  /// Connections still to drop, per `dropConnection` fault index, once that fault is active.
  private(set) var dropsLeft: [Int]
  private var dropActive: [Bool]
  /// Up to this many faults a plain look at each is cheaper than two hashed lookups.
  private static let faultsLookedAtInTurn = 8
  /// Whether faults are found by target (more than `faultsLookedAtInTurn` of them).
  var indexesFaults: Bool { faultTable.byTarget != nil }
  /// Changes applied so far: a resource's size is one of admission's inputs (a discretionary
  /// transfer's size), so its waiting tasks' blocks are checked again after one.
  private(set) var version = 0

  init(model: ServerModel) {
    // Sized once: grown one resource at a time, a 10,000-file server rehashed every URL again
    // at each doubling.
    resources.reserveCapacity(model.resources.count)
    for resource in model.resources { resources[resource.url] = resource }
    faultTable = FaultTable(model.faults, indexed: model.faults.count > Self.faultsLookedAtInTurn)
    dropsLeft = model.faults.map { fault in
      if case .dropConnection(_, _, let times) = fault { return times }
      return 0
    }
    dropActive = Array(repeating: false, count: model.faults.count)
  }

  func resource(_ url: SimURL) -> ServerResource? { resources[url] }

  mutating func apply(_ change: ServerChange) {
    var r = resources[change.url] ?? ServerResource(url: change.url, size: 0)
    if let etag = change.etag { r.etag = etag }
    if let lastModified = change.lastModified { r.lastModified = lastModified }
    if let size = change.size { r.size = size }
    if let status = change.status { r.status = status }
    if let acceptsRanges = change.acceptsRanges { r.acceptsRanges = acceptsRanges }
    if let redirect = change.redirectTo { r.redirectTo = redirect }
    resources[change.url] = r
    version += 1
  }

  /// The validator a range request would compare: the ETag, else Last-Modified.
  func validator(_ url: SimURL) -> String? { resources[url]?.validator }

  /// The HTTP status the server answers for `url` at `now`: a status window's, else the resource's,
  /// else 404 for a URL the server does not have.
  func status(for url: SimURL, at now: SimTime) -> Int {
    status(for: url, resource: resources[url], at: now)
  }

  /// `status(for:at:)` when the caller already looked up `resource`, the resource at `url`: each
  /// lookup hashes the whole URL.
  func status(for url: SimURL, resource: ServerResource?, at now: SimTime) -> Int {
    let window = firstFault(for: url) { fault, _ in
      if case .status(let from, let to, _, _) = fault { return from <= now && now < to }
      return false
    }
    if let window, case .status(_, _, _, let status) = faults[window] { return status }
    return resource?.status ?? 404
  }

  /// Whether a `stall` fault holds `url` at `now`.
  func isStalled(_ url: SimURL, at now: SimTime) -> Bool {
    firstFault(for: url) { fault, _ in
      if case .stall(let from, let to, _) = fault { return from <= now && now < to }
      return false
    } != nil
  }

  /// Marks a drop fault active; the simulation cuts running connections then.
  mutating func activateDrop(_ index: Int) { dropActive[index] = true }

  /// Consumes one drop of an active fault matching `url`, if any remains.
  mutating func takeDrop(for url: SimURL) -> Bool {
    let drop = firstFault(for: url) { [dropActive, dropsLeft] fault, i in
      guard case .dropConnection = fault else { return false }
      return dropActive[i] && dropsLeft[i] > 0
    }
    guard let drop else { return false }
    dropsLeft[drop] -= 1
    return true
  }

  /// The first fault, in the scenario's order, that targets `url` (by URL or by host) and passes
  /// `test` (given the fault and its index): past `faultsLookedAtInTurn` faults, only those the
  /// index files under the URL and its host are looked at.
  @inline(__always)
  private func firstFault(for url: SimURL, where test: (ServerFault, Int) -> Bool) -> Int? {
    if faults.isEmpty { return nil }
    if let byTarget = faultTable.byTarget {
      return byTarget.candidates(for: url).first { test(faults[$0], $0) }
    }
    return faults.indices.first { faults[$0].target.matches(url) && test(faults[$0], $0) }
  }
}

/// A server's faults, and (`indexed`) their indexes by target, ascending: the faults that can
/// hold a request are those for its URL and for its host, not every fault (a server with a fault
/// per host looked at all of them at every response). One reference for `ServerState` to hold:
/// it is copied often, and each reference it holds is counted at every copy.
final class FaultTable: Sendable {
  let list: [ServerFault]
  let byTarget: FaultIndex?

  init(_ faults: [ServerFault], indexed: Bool) {
    list = faults
    byTarget = indexed ? FaultIndex(faults) : nil
  }
}

/// Fault indexes by target, ascending.
struct FaultIndex: Sendable {
  private let indexes: [FaultTarget: [Int]]

  init(_ faults: [ServerFault]) {
    var indexes: [FaultTarget: [Int]] = [:]
    for (i, fault) in faults.enumerated() { indexes[fault.target, default: []].append(i) }
    self.indexes = indexes
  }

  /// The faults that target `url` (by URL or by host), in the scenario's order.
  func candidates(for url: SimURL) -> [Int] {
    mergedAscending(indexes[.url(url)] ?? [], indexes[.host(url.host)] ?? [])
  }
}

extension ServerFault {
  /// What the fault applies to.
  var target: FaultTarget {
    switch self {
    case .dropConnection(_, let target, _), .status(_, _, let target, _), .stall(_, _, let target):
      return target
    }
  }
}

extension ServerResource {
  /// The validator a range request would compare: the ETag, else Last-Modified.
  var validator: String? { etag ?? lastModified }
}
