import CalibrationKit
import ScenarioKit
import SimKernel
import TransferEngine

/// Worlds for the calibration tests, and logs simulated in them with hidden knob values.
enum CalibrationWorlds {
  /// A podcast app that downloads one episode per background wake (the rate limiter's
  /// staircase): `episodes` episodes, each 50 MB on 40 Mbps Wi-Fi (10 s, so the first ends after the app is suspended).
  static func oneEpisodePerWake(episodes: Int = 8, policy: String = "{}") -> String {
    """
    {
      "name": "one-episode-per-wake",
      "seed": 3,
      "duration": "20d",
      "device": {
        "network": [{"at": "0s", "interface": "wifi", "down": "40Mbps", "up": "10Mbps", "latency": "30ms"}],
        "power": [{"at": "0s", "charging": true}]
      },
      "server": {"resources": [{"url": "https://pod.example.com/ep-{n}.mp3", "count": \(episodes), "size": "50MB", "etag": "e"}]},
      "policy": \(policy),
      "app": {
        "sessions": [{"identifier": "Episodes", "kind": "background"}],
        "behavior": {"on": [{"event": "didFinishDownloading", "task": "ep-*", "firstNumber": 2, "times": \(episodes - 1),
          "do": [{"do": "download", "session": "Episodes", "url": "https://pod.example.com/ep-{n}.mp3", "name": "ep-{n}"}]}]}
      },
      "timeline": [
        {"at": "0s", "do": "launch"},
        {"at": "1s", "do": "download", "session": "Episodes", "url": "https://pod.example.com/ep-1.mp3", "name": "ep-1"},
        {"at": "2s", "do": "background"}
      ]
    }
    """
  }

  /// A download in a default (in-process) session that runs until the app is suspended,
  /// pauses, and finishes after the user opens the app again: its end moves with
  /// `backgroundRunTime`.
  static func pausedInProcessDownload(policy: String = "{}") -> String {
    """
    {
      "name": "paused-in-process-download",
      "seed": 1,
      "duration": "1h",
      "device": {"network": [{"at": "0s", "interface": "wifi", "down": "8Mbps", "up": "8Mbps", "latency": "20ms"}]},
      "server": {"resources": [{"url": "https://cdn.example.com/big.bin", "size": "60MB", "etag": "x"}]},
      "policy": \(policy),
      "app": {"sessions": [{"identifier": "Live", "kind": "default", "timeoutForRequest": "1h"}]},
      "timeline": [
        {"at": "0s", "do": "launch"},
        {"at": "1s", "do": "download", "session": "Live", "url": "https://cdn.example.com/big.bin", "name": "big"},
        {"at": "2s", "do": "background"},
        {"at": "10m", "do": "launch"}
      ]
    }
    """
  }

  static func load(_ json: String, file: String = "world.json") throws -> Scenario {
    try ScenarioLoader.load(data: Array(json.utf8), file: file)
  }

  /// What an app would have recorded in `json`'s world: the app-visible events of its run.
  static func observedLog(_ json: String) throws -> [TraceEvent] {
    let world = try load(json)
    return ObservableTrace.project(ScenarioRunner.run(world).trace.events)
  }

  static func knob(_ text: String, _ world: Scenario) throws -> KnobRange {
    try KnobRange.parse(text, base: world.policy)
  }
}
