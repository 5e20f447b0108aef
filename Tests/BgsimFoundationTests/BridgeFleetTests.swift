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
  }
}
