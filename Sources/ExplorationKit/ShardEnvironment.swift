/// `BGSIM_EXPLORE_SHARD=K/N`: a CI matrix runs part K of N of a Swift exploration in each job.
/// Read from an environment dictionary so a test can give one without changing the process's.
public enum ShardEnvironment {
  /// The variable's name.
  public static let variable = "BGSIM_EXPLORE_SHARD"

  /// The shard `environment` names: nil when the variable is unset or empty (the whole
  /// exploration), or a message saying what is wrong and how to fix it when it is malformed.
  public static func shard(in environment: [String: String]) -> Result<Shard?, ExploreError> {
    guard let text = environment[variable], !text.isEmpty else { return .success(nil) }
    guard let shard = Shard(text) else {
      let shown = text.count > 40 ? String(text.prefix(40)) + "..." : text
      return .failure(
        ExploreError(
          "\(variable) is '\(shown)', not K/N with 1 <= K <= N (such as 2/4): set it to this job's part, or unset it to explore everything"
        ))
    }
    return .success(shard)
  }
}
