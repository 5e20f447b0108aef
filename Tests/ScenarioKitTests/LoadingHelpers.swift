import ScenarioKit

/// Loads scenario text as the CLI would, for the loader tests.
func loadScenario(_ text: String, file: String = "s.json") throws(ScenarioErrors) -> Scenario {
  try ScenarioLoader.load(data: Array(text.utf8), file: file)
}

/// The loader's messages for scenario text, or none when it loads.
func loaderProblems(_ text: String) -> [String] {
  do {
    _ = try loadScenario(text)
    return []
  } catch {
    return error.lines
  }
}
