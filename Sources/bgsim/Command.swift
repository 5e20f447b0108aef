/// One subcommand of `bgsim`: its name, what it accepts, its help, and what it does.
struct Command {
  /// An option that takes a value, such as `--seed N`.
  struct Option {
    var name: String
    var valueName: String
    /// May be given more than once (`--param`); the values collect in `ParsedArguments.repeated`.
    var repeatable = false
  }

  var name: String
  /// The usage line: `bgsim run FILE [--trace-out F] [--seed N] [--quiet]`.
  var synopsis: String
  /// One line for the overall help.
  var summary: String
  /// The text of `bgsim NAME --help`, after the usage line.
  var details: String
  /// Options without a value, with their dashes: `--quiet`.
  var flags: [String] = []
  var options: [Option] = []
  var run: (ParsedArguments, Command) throws(CommandLineError) -> Int32

  /// The whole `--help` text.
  var help: String { "usage: \(synopsis)\n\n\(summary)\n\n\(details)" }
}

/// Every command, in the order the overall help lists them.
enum CommandTable {
  static var all: [Command] {
    [
      RunCommand.command, ExplainCommand.command, CheckCommand.command, ValidateCommand.command,
      PolicyCommand.command,
      ReportCommand.command, BenchCommand.command, SweepCommand.command, SweepMergeCommand.command,
      ExploreCommand.command, ExploreMergeCommand.command,
      FuzzCommand.command, SchemaCommand.command, CompletionCommand.command, CalibrateCommand.command,
    ]
  }

  static func named(_ name: String) -> Command? { all.first { $0.name == name } }
}
