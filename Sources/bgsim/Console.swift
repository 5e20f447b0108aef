import Foundation

/// Where the tool writes: results to standard output, problems to standard error, so that
/// scripts can capture one without the other.
enum Console {
  static func out(_ text: String, terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((text + terminator).utf8))
  }

  static func error(_ text: String, terminator: String = "\n") {
    FileHandle.standardError.write(Data((text + terminator).utf8))
  }
}

/// The exit codes of scenario-format.md, Command line.
enum ExitCode {
  static let ok: Int32 = 0
  /// An expectation of the scenario did not hold.
  static let expectationFailed: Int32 = 1
  /// An invalid scenario, or a usage error.
  static let invalidInput: Int32 = 2
}
