import SafeOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the tool writes: results to standard output, problems to standard error, so that
/// scripts can capture one without the other.
///
/// A write that fails (a full disk, a closed pipe, `>/dev/full`) ends the process with
/// `ExitCode.ioError` and one line on standard error (when standard error still works), never
/// a trap. With SIGPIPE at its default the system ends the process quietly when the reader of
/// the pipe goes away, as for any Unix tool; with SIGPIPE ignored the write fails with EPIPE and
/// takes the same clean exit.
enum Console {
  static func out(_ text: String, terminator: String = "\n") {
    if let code = DescriptorWriter.writeAll(1, text + terminator) { fail("standard output", code) }
  }

  static func error(_ text: String, terminator: String = "\n") { errorFragment(text + terminator) }

  /// Writes to standard error without adding a newline (a progress line redrawn with `\r`).
  static func errorFragment(_ text: String) {
    if let code = DescriptorWriter.writeAll(2, text) { fail("standard error", code) }
  }

  /// Says why (when standard error still works) and ends with `ExitCode.ioError`.
  private static func fail(_ stream: String, _ code: Int32) -> Never {
    _ = DescriptorWriter.writeAll(2, "bgsim: cannot write to \(stream): \(SystemError.describe(code))\n")
    exit(ExitCode.ioError)
  }
}

/// The exit codes of scenario-format.md, Command line.
enum ExitCode {
  static let ok: Int32 = 0
  /// An expectation of the scenario did not hold.
  static let expectationFailed: Int32 = 1
  /// An invalid scenario, or a usage error.
  static let invalidInput: Int32 = 2
  /// Output could not be written (`EX_IOERR` of sysexits.h): a full disk, a closed pipe, a
  /// file that could not be replaced.
  static let ioError: Int32 = 74
}
