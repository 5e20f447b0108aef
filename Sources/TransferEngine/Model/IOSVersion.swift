/// The iOS version a simulated device runs (`device.iosVersion`): one setting for the
/// behaviours that changed between versions, so a scenario says "iOS 17" instead of setting
/// each of them (behavior.md, "iOS versions").
public struct IOSVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The major version: 12 to 18, or 26 (Apple numbered the release after 18 as 26).
  public let major: Int
  /// The minor version: 18.1 is the first to speak interop version 6 of the upload draft.
  public let minor: Int

  /// The major versions bgsim models; the oldest is the one developers' observations start at.
  public static let modelledMajors = [12, 13, 14, 15, 16, 17, 18, 26]

  /// The newest version modelled: the default of a device that names none.
  public static let newest = IOSVersion(checkedMajor: 26, minor: 0)

  /// A version bgsim models, or nil (an unknown major, or a minor outside 0...99).
  public init?(major: Int, minor: Int = 0) {
    guard Self.modelledMajors.contains(major), (0...99).contains(minor) else { return nil }
    self.major = major
    self.minor = minor
  }

  private init(checkedMajor major: Int, minor: Int) {
    self.major = major
    self.minor = minor
  }

  /// Reads `"17"`, `"18.1"` or `"18.1.2"` (a patch level is accepted and changes nothing).
  public init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count),
      parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let major = Int(parts[0]), let minor = parts.count > 1 ? Int(parts[1]) : 0
    else { return nil }
    self.init(major: major, minor: minor)
  }

  /// `17`, `18.1`: the form the scenario format reads.
  public var description: String { minor == 0 ? "\(major)" : "\(major).\(minor)" }

  public static func < (a: IOSVersion, b: IOSVersion) -> Bool { (a.major, a.minor) < (b.major, b.minor) }

  /// Upload resume data (`cancel(byProducingResumeData:)` on an upload task,
  /// `uploadTask(withResumeData:)`, `NSURLSessionUploadTaskResumeData`) exists from iOS 17 [A].
  public var hasUploadResumeData: Bool { major >= 17 }

  /// The interop version of the resumable upload draft this version's URLSession speaks, nil
  /// before iOS 17: 3 on 17, 5 on 18.0, 6 from 18.1 (behavior.md says how certain each is).
  public var resumableUploadDraft: ResumableUploadDraft? {
    if major < 17 { return nil }
    if major == 17 { return .v3 }
    if major == 18 && minor == 0 { return .v5 }
    return .v6
  }
}

/// An interop version of the IETF resumable upload draft (`Upload-Draft-Interop-Version`), the
/// versions swift-nio-extras' server implements.
public enum ResumableUploadDraft: Int, CaseIterable, Comparable, Hashable, Sendable {
  /// iOS 17: an incomplete upload says `Upload-Incomplete: ?1`.
  case v3 = 3
  /// iOS 18.0: `Upload-Complete: ?0` replaces `Upload-Incomplete`.
  case v5 = 5
  /// iOS 18.1 and later: append requests carry `Content-Type: application/partial-upload`.
  case v6 = 6

  public static func < (a: ResumableUploadDraft, b: ResumableUploadDraft) -> Bool { a.rawValue < b.rawValue }
}

extension Policy {
  /// Behavior.md's defaults on a device running `version`: the knobs a version sets
  /// (`resumableUploads`, `resumableUploadDraft`) take its values; explicit knobs are applied
  /// over these.
  public static func defaults(for version: IOSVersion) -> Policy {
    var policy = Policy.defaults
    policy.resumableUploads = version.resumableUploadDraft != nil
    policy.resumableUploadDraft = version.resumableUploadDraft ?? .v3
    return policy
  }
}
