/// How a device writes resume data, which depends on its iOS version. Up to iOS 11 resume data
/// is a plain binary property list of the resume dictionary; from iOS 12 it is an
/// `NSKeyedArchiver` archive whose root object (under the key `"NSKeyedArchiveRootObjectKey"`)
/// is that dictionary. Libraries that read resume data (Tiercel's `ResumeDataHelper` and its
/// forks, the iOS 10 and 11 repair snippets) therefore try a keyed archive first and a property
/// list second, and the bridge reads both (`ResumeDataFormat.decode(_:)`).
public enum ResumeDataEncoding: String, Hashable, Sendable, CaseIterable {
  /// A binary property list of the resume dictionary (iOS 11 and earlier).
  case propertyList
  /// A keyed archive whose root object is the resume dictionary (iOS 12 and later).
  case keyedArchive

  /// The encoding a device of iOS `majorVersion` writes: the single place a simulated iOS
  /// version chooses it.
  public static func forIOS(majorVersion: Int) -> ResumeDataEncoding {
    majorVersion >= 12 ? .keyedArchive : .propertyList
  }

  /// The iOS version the bridge writes resume data for while a simulation names none.
  public static let newestIOSMajorVersion = 26

  /// The encoding of the newest iOS: what the bridge writes by default.
  public static var newest: ResumeDataEncoding { forIOS(majorVersion: newestIOSMajorVersion) }
}
