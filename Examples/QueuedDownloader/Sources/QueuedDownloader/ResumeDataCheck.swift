import Foundation

/// Tells whether resume data can still resume: the partial file it names must exist in
/// `NSTemporaryDirectory()`, where the system keeps it (the check Tiercel makes before resuming;
/// data whose file is gone fails with -3003 once resumed, so the manager starts over instead).
enum ResumeDataCheck {
  static func partialFileExists(_ data: Data) -> Bool {
    guard let name = partialFileName(data), !name.isEmpty, !name.contains("/") else { return false }
    return FileManager.default.fileExists(
      atPath: (NSTemporaryDirectory() as NSString).appendingPathComponent(name))
  }

  /// `NSURLSessionResumeInfoTempFileName`: read from the plain property list iOS 11 and earlier
  /// write, or found in the object table of the keyed archive of iOS 12 and later. The archive is
  /// read as a property list rather than with `NSKeyedUnarchiver`, which traps in
  /// swift-corelibs-foundation on the archived requests inside it; the partial file's name is the
  /// table's one bare `.tmp` file name (`CFNetworkDownload_<id>.tmp`).
  static func partialFileName(_ data: Data) -> String? {
    guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    else { return nil }
    if let name = plist["NSURLSessionResumeInfoTempFileName"] as? String { return name }
    guard plist["$archiver"] != nil, let objects = plist["$objects"] as? [Any] else { return nil }
    let names = objects.compactMap { $0 as? String }.filter { $0.hasSuffix(".tmp") && !$0.contains("/") }
    return names.count == 1 ? names[0] : nil
  }
}
