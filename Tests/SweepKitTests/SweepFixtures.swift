import ScenarioKit
import SweepKit

/// Scenarios for the sweep tests.
enum SweepFixtures {
  /// One episode per wake, three episodes, with random Wi-Fi outages and terminations.
  static let chain = #"""
    {
      "name": "chain",
      "seed": 3,
      "duration": "2d",
      "device": {"network": [{"at": "0s", "interface": "wifi", "down": "40Mbps"}], "power": [{"at": "0s", "charging": true}]},
      "server": {"resources": [{"url": "https://e.com/1", "size": "60MB", "etag": "a"},
                               {"url": "https://e.com/2", "size": "60MB", "etag": "b"},
                               {"url": "https://e.com/3", "size": "60MB"}]},
      "app": {
        "sessions": [{"identifier": "S", "kind": "background", "allowsCellularAccess": false}],
        "behavior": {"on": [
          {"event": "didFinishDownloading", "task": "e1",
           "do": [{"do": "download", "session": "S", "url": "https://e.com/2", "name": "e2"}]},
          {"event": "didFinishDownloading", "task": "e2",
           "do": [{"do": "download", "session": "S", "url": "https://e.com/3", "name": "e3"}]}]}
      },
      "random": {
        "network": {"on": {"interface": "wifi", "down": "40Mbps"}, "off": {"interface": "none"},
                    "onFor": {"exponential": "20m"}, "offFor": {"uniform": ["1m", "10m"]}},
        "power": {"on": {"charging": true}, "off": {"charging": true, "battery": 0.4},
                  "onFor": "3h", "offFor": {"exponential": "1h"}, "startsOn": true, "until": "1d"},
        "terminations": {"every": {"exponential": "30m"}, "from": "10m"}
      },
      "timeline": [
        {"at": "0s", "do": "launch"},
        {"at": "1s", "do": "download", "session": "S", "url": "https://e.com/1", "name": "e1"},
        {"at": "5s", "do": "background"}
      ]
    }
    """#

  /// The manifest of a whole sweep of `chain.json` over `plan`.
  static func manifest(_ plan: SweepPlan, charts: [String]) -> SweepManifest {
    SweepManifest(
      scenario: "chain.json", scenarioSHA256: SHA256.hex(Array(chain.utf8)), name: "chain",
      parameters: plan.parameters, seeds: SeedList.text(plan.seeds), runs: plan.runCount, charts: charts,
      bgsim: SweepBuild(version: "0.1.0", build: "test"))
  }

  static func load(_ text: String = chain) throws -> Scenario {
    try ScenarioLoader.load(data: Array(text.utf8), file: "chain.json")
  }
}
