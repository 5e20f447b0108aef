/// Why a calibration could not run: bad input (a log that is not the trace format, a bad
/// `--param` range) or nothing to fit. `description` is the message shown to users.
public struct CalibrationError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
