/// Why a calibration could not run: bad input (a log that is not the trace format, a bad
/// `--param` range) or nothing to fit. `description` is the message shown to users.
public struct CalibrationError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  /// True when an output could not be written: the tool exits 74 for these, not 2.
  public var isOutputFailure: Bool
  public init(_ message: String, isOutputFailure: Bool = false) {
    self.message = message
    self.isOutputFailure = isOutputFailure
  }
  public var description: String { message }
}
