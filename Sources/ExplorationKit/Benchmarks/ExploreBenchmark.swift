import ScenarioKit
import SimKernel

/// performance.md's `explore`: the shipped example app's world (Examples/PodcastDownloader: one
/// 300 MB episode on Wi-Fi, the user launches the app, starts the download at 1 s and leaves at
/// 2 s, an hour) explored at every kill point and over seeds 1-100, on both cores.
///
/// The bgsim tool cannot depend on the example's package, so the app is the scenario's scripted
/// app (one background session) in the same world, as `bgsim explore` explores it: the baseline,
/// the kill points, each run played twice, the oracles. The example's late state write is not
/// there; the scripted app's own gap is (it does not restart a download a force quit cancelled),
/// so one finding, `forceQuitNotRecovered`, is shrunk and replayed as the example's would be.
/// Wall time is measured by the caller.
public enum ExploreBenchmark {
  /// The world as a scenario.
  public static let scenario = """
    {"name": "bench-explore", "seed": 1, "duration": "1h",
     "device": {"network": [{"at": "0s", "interface": "wifi", "down": "50Mbps", "up": "10Mbps", "latency": "30ms"}]},
     "server": {"resources": [{"url": "https://podcasts.example.com/ep42.mp3", "size": "300MB", "etag": "ep42-v1"}]},
     "app": {"sessions": [{"identifier": "Podcasts", "kind": "background"}]},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "Podcasts",
                   "url": "https://podcasts.example.com/ep42.mp3", "name": "ep42.mp3"},
                  {"at": "2s", "do": "background"}]}
    """

  /// The seeds performance.md names.
  public static let seeds = Array(UInt64(1)...100)

  /// The world loaded; throws only if `scenario` stopped loading (a bug in this file).
  public static func load() throws(ScenarioErrors) -> Scenario {
    try ScenarioLoader.load(data: Array(scenario.utf8), file: "bench-explore.json")
  }

  /// Explores the world `load` gave on `jobs` workers.
  public static func run(_ loaded: Scenario, jobs: Int) -> ExplorationReport {
    let plan = ExplorationPlan(seeds: seeds, jobs: jobs, worldSeed: loaded.seed)
    return Explorer.explore(ScenarioExploration.subject(loaded), plan: plan, property: nil)
  }
}
