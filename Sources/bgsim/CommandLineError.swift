import SafeOutput
import ScenarioKit
import SweepKit

/// Everything that can stop a command before it has done its work.
enum CommandLineError: Error {
  /// Wrong arguments; printed with the usage line of the command named (nil: the tool itself).
  case usage(String, command: String?)
  /// A scenario that failed validation.
  case invalidScenario(ScenarioErrors)
  /// Asked for something this build does not have yet (a benchmark workload).
  case unavailable(String)
  /// An output file could not be written (a full disk, a missing folder); exit 74.
  case cannotWrite(FileWriteError)
  /// An output could not be written, already said in a sentence (sweeps, calibration); exit 74.
  case outputFailed(String)

  /// A sweep's error: exit 74 when an output could not be written, else 2.
  static func sweep(_ error: SweepError) -> CommandLineError {
    error.isOutputFailure ? .outputFailed(error.message) : .unavailable(error.message)
  }
}

/// Turns any `CommandLineError` into its message on standard error and its exit code: the one
/// place that decides how failures look.
enum ErrorRenderer {
  static func report(_ error: CommandLineError) -> Int32 {
    switch error {
    case .usage(let message, let command):
      Console.error("bgsim: \(message)")
      if let command = command.flatMap(CommandTable.named) {
        Console.error("usage: \(command.synopsis)")
        Console.error("See 'bgsim \(command.name) --help'.")
      } else {
        Console.error("usage: \(Usage.synopsis)")
        Console.error("See 'bgsim --help'.")
      }
      return ExitCode.invalidInput
    case .invalidScenario(let errors):
      for problem in errors.problems { Console.error(LocatedProblem(problem).text) }
      Console.error(Usage.formatHint)
      return ScenarioErrors.exitCode
    case .unavailable(let message):
      Console.error("bgsim: \(message)")
      return ExitCode.invalidInput
    case .cannotWrite(let error):
      Console.error("bgsim: \(error)")
      return ExitCode.ioError
    case .outputFailed(let message):
      Console.error("bgsim: \(message)")
      return ExitCode.ioError
    }
  }
}
