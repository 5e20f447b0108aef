import Foundation

/// What the bridge's upload resume data (iOS 17) says. Apple documents it as an opaque blob and
/// its layout is private, so the bridge writes its own dictionary, in the encoding the simulated
/// iOS version writes a download's (`ResumeDataEncoding`): an app that only stores and hands it
/// back sees no difference, and one that reads it as a download's finds no download keys.
struct UploadResumeDataRecord: Hashable, Sendable {
  /// The upload's URL.
  var url: URL
  /// Body bytes the server has: where the continued upload starts.
  var offset: Int64
  /// The whole body's size.
  var bodySize: Int64
  /// Which production of resume data this is in its simulation (single use).
  var token: Int
  /// The session the upload belonged to.
  var sessionIdentifier: String
  /// The name of the container of the simulation that made it: data kept in a static and handed
  /// to a later simulation of the test process is refused, as a download's is.
  var container: String
}

/// Reads and writes `UploadResumeDataRecord`s. Never traps on input: the dictionary is found with
/// `ResumeDataFormat.resumeDictionary(in:)`, which reads garbage and damaged archives safely.
enum UploadResumeDataFormat {
  /// The version of this layout; a change of meaning bumps it and old data is refused.
  static let version = 1

  enum Key {
    static let version = "BgsimUploadResumeDataVersion"
    static let url = "BgsimUploadURL"
    static let offset = "BgsimUploadOffset"
    static let bodySize = "BgsimUploadBodySize"
    static let token = "BgsimResumeToken"
    static let session = "BgsimSessionIdentifier"
    static let container = "BgsimContainer"
  }

  static func encode(_ record: UploadResumeDataRecord, encoding: ResumeDataEncoding) -> Data {
    let plist: [String: Any] = [
      Key.version: version, Key.url: record.url.absoluteString, Key.offset: record.offset,
      Key.bodySize: record.bodySize, Key.token: record.token, Key.session: record.sessionIdentifier,
      Key.container: record.container,
    ]
    switch encoding {
    case .propertyList:
      // Strings and integers only: writing them cannot fail.
      return (try? PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
        ?? Data()
    case .keyedArchive:
      return ResumeDataArchive.archive(plist)
    }
  }

  /// True for a resume dictionary the bridge wrote for an upload (a download handed it is
  /// refused as `wrongTaskKind`).
  static func isUploadDictionary(_ plist: [String: Any]) -> Bool { plist[Key.version] != nil }

  /// Parses upload resume data; a download's (it has the download keys) is `wrongTaskKind`.
  static func decode(_ data: Data) -> Result<UploadResumeDataRecord, ResumeDataProblem> {
    let plist: [String: Any]
    switch ResumeDataFormat.resumeDictionary(in: data) {
    case .failure(let problem): return .failure(problem)
    case .success(let dictionary): plist = dictionary
    }
    guard isUploadDictionary(plist) else {
      let isDownload = plist[ResumeDataFormat.Key.url] != nil || plist[ResumeDataFormat.Key.tempFile] != nil
      return .failure(isDownload ? .wrongTaskKind : .notFromSimulation)
    }
    guard ResumeDataFormat.integer(plist[Key.version]) == Int64(version) else {
      return .failure(.unsupportedVersion)
    }
    guard let text = plist[Key.url] as? String, let url = URL(string: text), url.scheme != nil else {
      return .failure(.badKey(Key.url))
    }
    guard let size = ResumeDataFormat.integer(plist[Key.bodySize]), size >= 0 else {
      return .failure(.badKey(Key.bodySize))
    }
    guard let offset = ResumeDataFormat.integer(plist[Key.offset]), offset >= 0, offset <= size else {
      return .failure(.badKey(Key.offset))
    }
    guard let token = ResumeDataFormat.integer(plist[Key.token]), token >= 0, token <= Int64(Int32.max) else {
      return .failure(.badKey(Key.token))
    }
    guard let session = plist[Key.session] as? String else { return .failure(.badKey(Key.session)) }
    guard let container = plist[Key.container] as? String else { return .failure(.badKey(Key.container)) }
    return .success(
      UploadResumeDataRecord(
        url: url, offset: offset, bodySize: size, token: Int(token), sessionIdentifier: session,
        container: container))
  }
}
