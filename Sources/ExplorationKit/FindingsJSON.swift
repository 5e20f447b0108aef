import SimKernel

/// `findings.json` of `bgsim explore`: the report as JSON, keys in a fixed order, so the same
/// exploration always writes the same bytes.
public enum FindingsJSON {
  /// The report; `replayFiles[i]` names the replay scenario written for finding `i`.
  public static func render(
    _ report: ExplorationReport, scenario: String, seeds: String, shard: String?, replayFiles: [String]
  ) -> String {
    render(
      ExploreResult(
        report: report, scenario: scenario, scenarioSHA256: "", version: "", seeds: seeds, shard: nil),
      shard: shard, replayFiles: replayFiles)
  }

  /// A result, whole or one shard's, or merged; `replayFiles[i]` names finding `i`'s replay.
  public static func render(_ result: ExploreResult, shard: String?, replayFiles: [String]) -> String {
    var out = "{\n"
    out += "  \"scenario\": \(JSONText.quoted(result.scenario)),\n"
    out += "  \"seeds\": \(JSONText.quoted(result.seeds)),\n"
    out += "  \"shard\": \(shard.map(JSONText.quoted) ?? "null"),\n"
    out += "  \"killPoints\": \(result.killPoints),\n"
    out += "  \"killPointsRun\": \(result.killPointsRun),\n"
    out += "  \"runs\": \(result.runs),\n"
    out += "  \"findings\": ["
    for (index, finding) in result.findings.enumerated() {
      out += index == 0 ? "\n" : ",\n"
      out += "    {\"rule\": \(JSONText.quoted(finding.rule)), \"reachedBy\": \(finding.reachedBy), "
      out += "\"seed\": \(finding.seed), \"replay\": \(JSONText.quoted(replayFiles[index])),\n"
      out += "     \"faults\": [" + finding.faultsJSON.joined(separator: ", ") + "],\n"
      out += "     \"message\": \(JSONText.quoted(finding.message))}"
    }
    out += result.findings.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
    return out
  }

  static func fault(_ fault: Fault) -> String {
    var fields: [String]
    switch fault.kind {
    case .terminate: fields = ["\"kind\": \"terminate\""]
    case .forceQuit: fields = ["\"kind\": \"forceQuit\""]
    case .reboot: fields = ["\"kind\": \"reboot\""]
    case .network(let kind, let lasting):
      fields = [
        "\"kind\": \"network\"", "\"network\": \"\(kind.rawValue)\"", "\"lasting\": \"\(lasting.formatted)\"",
      ]
    }
    fields.append("\"at\": \"\(fault.at.sinceStart.formatted)\"")
    if let after = fault.after { fields.append("\"after\": \(JSONText.quoted(after))") }
    return "{" + fields.joined(separator: ", ") + "}"
  }
}
