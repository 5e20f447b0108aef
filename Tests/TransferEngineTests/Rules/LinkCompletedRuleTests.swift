import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// A link direction's flows finishing, alone: (the flows on the link, their kinds) -> (effects,
/// state after), on an `Engine` built without a `Simulation`.
@Suite("Rule: a link finishes a flow")
struct LinkCompletedRuleTests {
  static let url = TransferWorld.url

  /// A world serving a 1,000-byte download and an upload answered with `responseBody` bytes.
  static func world(responseBody: Int64 = 0) -> TransferWorld {
    TransferWorld([
      ServerResource(url: url, size: 1_000),
      ServerResource(url: TransferWorld.moved, size: 0, responseBody: responseBody, method: "POST"),
    ])
  }

  /// A task whose response arrived: its body is on its link.
  static func transferring(
    _ name: String, _ kind: SimURLSessionTask.Kind = .download, url: SimURL = url, in world: TransferWorld
  ) -> SimURLSessionTask {
    let task = world.connecting(name, kind, url: url)
    _ = world.connected(task)
    return task
  }

  @Test("a download's body all in finishes the task; then the links are re-armed")
  func downloadFinishes() {
    let world = Self.world()
    let task = Self.transferring("f", in: world)
    #expect(world.completeLink(up: false) == [.finish(uid: task.uid), .rescheduleLinks])
    #expect(task.countOfBytesReceived == 1_000)
    #expect(world.engine.links.activeFlows.down == 0)
  }

  @Test("two bodies that finish at one instant finish in link order")
  func twoAtOnce() {
    let world = Self.world()
    let first = Self.transferring("f", in: world)
    let second = Self.transferring("g", in: world)
    #expect(
      world.completeLink(up: false) == [.finish(uid: first.uid), .finish(uid: second.uid), .rescheduleLinks])
  }

  /// (the upload's response body, effects with `uid` 0, the flows on the downlink after).
  static let uploadTable: [(Int64, [Effect], Int)] = [
    (0, [.reportBodyDone(uid: 0), .finish(uid: 0), .rescheduleLinks], 0),
    (200, [.reportBodyDone(uid: 0), .rescheduleLinks], 1),
  ]

  @Test(
    "an upload's body all sent reports it, then its response body comes down or it finishes",
    arguments: uploadTable)
  func uploadBodySent(_ responseBody: Int64, _ expected: [Effect], _ downFlows: Int) {
    let world = Self.world(responseBody: responseBody)
    let task = Self.transferring("u", .upload(fromFile: true, size: 500), url: TransferWorld.moved, in: world)
    #expect(task.uid == 0)
    #expect(world.completeLink(up: true) == expected)
    #expect(task.countOfBytesSent == 500)
    #expect(world.engine.links.activeFlows.up == 0)
    #expect(world.engine.links.activeFlows.down == downFlows)
    // With no response body the task stays on its upload until `.finish` is carried out.
    #expect(task.machine.state == .transferring(up: downFlows == 0))
  }

  @Test("a completion that finds no flow done re-arms the links at once")
  func nothingDone() {
    let world = Self.world()
    let task = Self.transferring("f", in: world)
    #expect(world.effects { LinkCompletedRule.apply(up: false, engine: world.engine, into: &$0) }.isEmpty)
    #expect(world.engine.links.completionHandle(up: false) != nil)
    #expect(world.engine.scheduler.pendingCount == 1)
    #expect(task.machine.state == .transferring(up: false))
  }
}
