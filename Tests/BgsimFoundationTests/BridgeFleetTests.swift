import BgsimFoundation
import Testing
import TransferEngine

@Suite struct BridgeFleetTests {
  /// The same world driven through Foundation and through `AppUnderTest` does the same work:
  /// the bridge adds overhead, not behaviour.
  @Test func theBridgedFleetDoesWhatTheEngineFleetDoes() {
    let bridged = BridgeFleetBenchmark.run(tasks: 120, seed: 3)
    let engine = FleetBenchmark.run(tasks: 120, seed: 3)
    #expect(bridged.tasksCreated == 120)
    #expect(bridged.tasksFinished == engine.tasksFinished)
    #expect(bridged.tasksFailed == engine.tasksFailed)
    #expect(bridged.backgroundLaunches == engine.backgroundLaunches)
    #expect(bridged.tasksFinished > 100)
    // Every finished or failed task was at least a didFinishDownloadingTo or a completion call.
    #expect(bridged.delegateCalls >= bridged.tasksFinished + bridged.tasksFailed)
  }

  /// The floor `bench bridge` compares the per-call cost with: a hand-off between two threads.
  @Test func theHandOffFloorIsMeasured() {
    let seconds = HandOffFloor.measure(handOffs: 2_000, rounds: 1)
    #expect(seconds > 0)
    #expect(seconds < 0.01)
  }
}
