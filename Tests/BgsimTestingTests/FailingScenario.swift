import BgsimTesting
import Foundation

/// A scenario that launches once and expects two launches, run with `LateWriteApp`: one failed
/// expectation, for the tests of what a scenario run's issues say and carry.
func runScenarioExpectingTwoLaunches() throws -> RunResult {
  let json = """
    {"name": "expects-a-launch", "duration": "1m", "timeline": [{"at": "1s", "do": "launch"}],
     "expect": [{"trace": "app.launch", "count": 2}]}
    """
  let file = FileManager.default.temporaryDirectory.appendingPathComponent(
    "bgsim-expect-\(UInt32.random(in: 0...UInt32.max)).json")
  try json.write(to: file, atomically: true, encoding: .utf8)
  defer { try? FileManager.default.removeItem(at: file) }
  return try ScenarioRunner.run(file: file.path) { _ in LateWriteApp(saveDelay: 0) }
}
