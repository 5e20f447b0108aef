import ScenarioKit

/// The arguments of one command, split into positionals, flags and options with values.
struct ParsedArguments {
  var positionals: [String] = []
  var flags: Set<String> = []
  var options: [String: String] = [:]
  /// Every value of a repeatable option, in order.
  var repeated: [String: [String]] = [:]
}

/// A small, strict scanner for `--flag`, `--option VALUE`, `--option=VALUE` and `--`.
///
/// Hand-written because the package has no dependencies; strictness (unknown or repeated
/// options are errors) keeps a typo from silently changing a run.
struct ArgumentScanner {
  let command: Command

  /// Short spellings of flags, as swift-argument-parser tools have them.
  static let shortFlags = ["-q": "--quiet"]

  func scan(_ arguments: [String]) throws(CommandLineError) -> ParsedArguments {
    var result = ParsedArguments()
    var i = 0
    var optionsEnded = false
    while i < arguments.count {
      let argument = arguments[i]
      i += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        result.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = Self.shortFlags[argument] ?? argument
      var inlineValue: String?
      if let eq = argument.firstIndex(of: "="), Self.shortFlags[argument] == nil {
        name = String(argument[..<eq])
        inlineValue = String(argument[argument.index(after: eq)...])
      }
      if command.flags.contains(name) {
        if inlineValue != nil { throw usage("option '\(name)' takes no value") }
        if !result.flags.insert(name).inserted { throw usage("option '\(name)' given twice") }
      } else if let option = command.options.first(where: { $0.name == name }) {
        if result.options[name] != nil && !option.repeatable { throw usage("option '\(name)' given twice") }
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if i < arguments.count {
          value = arguments[i]
          i += 1
        } else {
          throw usage("option '\(name)' needs a value")
        }
        // An empty path (an unset shell variable) must not become the current folder or, joined
        // with a file name, the file system's root.
        if value.isEmpty, let noun = Self.pathNoun(option.valueName) {
          throw usage("\(name) needs a \(noun)")
        }
        if option.valueName.hasPrefix("KEY="), !value.contains("=") {
          // `--param KEY V`: name the form that was meant.
          let next =
            inlineValue == nil && i < arguments.count && !arguments[i].hasPrefix("-") ? arguments[i] : nil
          let fix = next.map { "; write \(name) \(value)=\($0)" } ?? ""
          throw usage("\(name) expects \(option.valueName) with '=', found '\(value)'\(fix)")
        }
        result.options[name] = value
        if option.repeatable { result.repeated[name, default: []].append(value) }
      } else {
        let known = command.flags + command.options.map(\.name)
        let hint = Suggestion.didYouMean(name, among: known).map { "; did you mean '\($0)'?" } ?? ""
        throw usage("unknown option '\(name)' for 'bgsim \(command.name)'\(hint)")
      }
    }
    return result
  }

  private func usage(_ message: String) -> CommandLineError { .usage(message, command: command.name) }

  /// What an option whose value is a path names, by its value's name in the usage line; nil for
  /// the other options, which check their own values.
  static func pathNoun(_ valueName: String) -> String? {
    switch valueName {
    case "DIR": return "folder name"
    case "FILE", "F", "LOG.jsonl": return "file name"
    default: return nil
    }
  }
}
