/// `--format text|json|github` of `check` and `validate`: who reads the output.
enum OutputFormat: String, CaseIterable {
  /// People, Xcode and editors: problems as `FILE:LINE:COL: error: json.path: message`.
  case text
  /// Programs: one JSON document on standard output.
  case json
  /// GitHub Actions: the text lines, with each problem as an `::error file=...::` annotation.
  case github

  static let option = Command.Option(name: "--format", valueName: "FORMAT")

  /// The format asked for (default text), or a usage error naming the choices.
  static func parse(_ arguments: ParsedArguments, command: Command) throws(CommandLineError) -> OutputFormat {
    guard let text = arguments.options[option.name] else { return .text }
    guard let format = OutputFormat(rawValue: text) else {
      let names = allCases.map(\.rawValue).joined(separator: ", ")
      throw .usage("--format expects one of \(names), found '\(text)'", command: command.name)
    }
    return format
  }

  /// The lines that show `problem` in this format (`json` is rendered by the caller).
  /// The location line starts at column 0, as Xcode and editors want it; details are indented.
  func lines(_ problem: LocatedProblem, indent: String = "") -> [String] {
    switch self {
    case .github: return [problem.githubAnnotation]
    case .text, .json: return [problem.text] + problem.details.map { indent + "  " + $0 }
    }
  }
}
