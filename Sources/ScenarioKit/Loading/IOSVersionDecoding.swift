import SafeOutput
import SimKernel
import TransferEngine

/// `device.iosVersion` and the draft interop versions of resumable uploads.
extension ValueType where T == IOSVersion {
  /// The expected form, for messages and the schema.
  static let iosVersionExpected =
    "an iOS version bgsim models as a string: \"12\" to \"18\" with an optional minor (\"18.1\"), or \"26\""

  /// A version string such as `"17"` or `"18.1"`; a JSON number is refused with the string to
  /// write (18.10 and 18.1 are one JSON number).
  static var iosVersion: ValueType<IOSVersion> {
    ValueType(expected: iosVersionExpected) { v, path, ctx in
      if let n = v.number {
        return nilAfter(
          ctx.invalid(path, v, "write the iOS version as a string, \"\(n.text)\", so 18.1 and 18.10 differ"))
      }
      guard let s = v.string else { return nilAfter(ctx.wrongType(path, v, expected: iosVersionExpected)) }
      guard let version = IOSVersion(s) else {
        return nilAfter(ctx.invalid(path, v, "'\(TerminalText.shortened(s))' is not \(iosVersionExpected)"))
      }
      return version
    }
  }
}

extension ValueType where T == ResumableUploadDraft {
  /// The expected form, for messages and the schema.
  static let draftExpected = "an interop version of the resumable upload draft: 3, 5 or 6"

  /// An interop version of the draft: 3, 5 or 6.
  static var uploadDraft: ValueType<ResumableUploadDraft> {
    ValueType(expected: draftExpected) { v, path, ctx in
      guard let n = v.number, n.isInteger else {
        return nilAfter(ctx.wrongType(path, v, expected: draftExpected))
      }
      guard let i = n.int64, let draft = ResumableUploadDraft(rawValue: Int(clamping: i)) else {
        return nilAfter(
          ctx.invalid(path, v, "\(n.text) is not \(draftExpected) (iOS 17: 3, 18.0: 5, 18.1 and later: 6)"))
      }
      return draft
    }
  }
}
