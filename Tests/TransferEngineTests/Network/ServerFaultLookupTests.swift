import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// A server with many faults finds a request's by its URL and its host (`ServerState`'s index),
/// and answers what looking at every fault in order answers: the first status window, any stall,
/// the first active drop with drops left.
@Suite struct ServerFaultLookupTests {
  static let urls = [
    "https://a.example.com/1", "https://a.example.com/2", "https://b.example.com/1",
    "https://c.example.com/9",
  ]
  .map { SimURL($0)! }

  /// 40 faults over the URLs and their hosts, windows and kinds spread by a fixed sequence.
  static func faults(_ count: Int) -> [ServerFault] {
    var state: UInt64 = 7
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    return (0..<count).map { _ in
      let url = urls[next(urls.count)]
      let target: FaultTarget = next(2) == 0 ? .url(url) : .host(url.host)
      let from = SimTime(.seconds(Int64(next(50))))
      let to = from + .seconds(Int64(1 + next(30)))
      switch next(3) {
      case 0: return .status(from: from, to: to, target: target, status: 500 + next(5))
      case 1: return .stall(from: from, to: to, target: target)
      default: return .dropConnection(at: from, target: target, times: 1 + next(2))
      }
    }
  }

  @Test("status and stalls agree with a look at every fault in order", arguments: [5, 40])
  func statusAndStalls(count: Int) {
    let faults = Self.faults(count)
    let server = ServerState(model: ServerModel(resources: [], faults: faults))
    for url in Self.urls + [SimURL("https://d.example.com/1")!] {
      for second in 0..<90 {
        let now = SimTime(.seconds(Int64(second)))
        var status = 404
        for case .status(let from, let to, let target, let code) in faults
        where from <= now && now < to && target.matches(url) {
          status = code
          break
        }
        let stalled = faults.contains {
          if case .stall(let from, let to, let target) = $0 {
            return from <= now && now < to && target.matches(url)
          }
          return false
        }
        #expect(server.status(for: url, at: now) == status, "\(url) at \(second)s")
        #expect(server.isStalled(url, at: now) == stalled, "\(url) at \(second)s")
      }
    }
  }

  @Test("drops are taken from the first active fault with drops left, in order", arguments: [5, 40])
  func drops(count: Int) {
    let faults = Self.faults(count)
    var server = ServerState(model: ServerModel(resources: [], faults: faults))
    var left = faults.map { fault -> Int in
      if case .dropConnection(_, _, let times) = fault { return times }
      return 0
    }
    var active = Array(repeating: false, count: faults.count)
    for (step, index) in faults.indices.enumerated() {
      if step % 2 == 0 {
        server.activateDrop(index)
        active[index] = true
      }
      for url in Self.urls {
        let expected = faults.indices.first {
          guard active[$0], left[$0] > 0, case .dropConnection(_, let target, _) = faults[$0] else {
            return false
          }
          return target.matches(url)
        }
        if let expected { left[expected] -= 1 }
        #expect(server.takeDrop(for: url) == (expected != nil), "step \(step) \(url)")
        #expect(server.dropsLeft == left, "step \(step) \(url)")
      }
    }
  }
}
