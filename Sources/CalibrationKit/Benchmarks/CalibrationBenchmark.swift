import ScenarioKit
import SimKernel
import TransferEngine

/// The `calibrate` benchmark: a 30-wake log (a podcast app downloading 30 episodes one per
/// background wake, simulated with hidden knob values and reduced to what the app sees),
/// calibrated over three knobs: `rateLimiter.firstDelay`, `rateLimiter.growth` and
/// `backgroundRunTime`.
public enum CalibrationBenchmark {
  public static let wakes = 30
  /// The hidden values the log was made with, by knob.
  public static let hidden: [(key: String, value: Double)] = [
    ("rateLimiter.firstDelay", 45), ("rateLimiter.growth", 1.5), ("backgroundRunTime", 4),
  ]
  public static let ranges = [
    "rateLimiter.firstDelay=20s..3m", "rateLimiter.growth=1.2..3", "backgroundRunTime=1s..8s",
  ]

  /// The world: 30 episodes of 50 MB on 40 Mbps Wi-Fi, each started from the wake of the last,
  /// the delay capped at 10 minutes.
  public static func world(policy: String) -> String {
    """
    {"name": "calibrate-benchmark-30-wakes", "seed": 1, "duration": "2d",
     "device": {"network": [{"at": "0s", "interface": "wifi", "down": "40Mbps", "up": "10Mbps", "latency": "30ms"}],
                "power": [{"at": "0s", "charging": true}]},
     "server": {"resources": [{"url": "https://pod.example.com/ep-{n}.mp3", "count": \(wakes), "size": "50MB", "etag": "e"}]},
     "policy": \(policy),
     "app": {"sessions": [{"identifier": "Episodes", "kind": "background"}],
             "behavior": {"on": [{"event": "didFinishDownloading", "task": "ep-*", "firstNumber": 2, "times": \(wakes - 1),
               "do": [{"do": "download", "session": "Episodes", "url": "https://pod.example.com/ep-{n}.mp3", "name": "ep-{n}"}]}]}},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "Episodes", "url": "https://pod.example.com/ep-1.mp3", "name": "ep-1"},
                  {"at": "2s", "do": "background"}]}
    """
  }

  /// The calibration request of the benchmark (world, log, knobs), on `jobs` workers.
  public static func request(jobs: Int) -> CalibrationRequest {
    let hiddenPolicy =
      #"{"rateLimiter": {"firstDelay": "45s", "growth": 1.5, "maxDelay": "10m"}, "backgroundRunTime": "4s"}"#
    // The world and the log are fixed texts checked by the tests, so loading cannot fail.
    let truth = try! ScenarioLoader.load(data: Array(world(policy: hiddenPolicy).utf8), file: "hidden.json")
    let log = ObservableTrace.project(ScenarioRunner.run(truth).trace.events)
    let world = try! ScenarioLoader.load(
      data: Array(world(policy: #"{"rateLimiter": {"maxDelay": "10m"}}"#).utf8), file: "world.json")
    let knobs = ranges.map { try! KnobRange.parse($0, base: world.policy) }
    return CalibrationRequest(world: world, log: log, knobs: knobs, seeds: [1], jobs: jobs)
  }
}
