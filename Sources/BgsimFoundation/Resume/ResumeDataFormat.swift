import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The contents of resume data in Darwin's format: the resume dictionary with the keys
/// `nsurlsessiond` writes (version 2), plus three `Bgsim*` keys that tie it to the simulation's
/// record of the partial download, in the encoding the simulated iOS version writes
/// (`ResumeDataEncoding`). Libraries that read or repair Darwin's resume data find the keys they
/// expect; the bridge itself reads only the plain keys, never an archived request.
public struct ResumeDataRecord: Hashable, Sendable {
  /// `NSURLSessionDownloadURL`.
  public var url: URL
  /// `NSURLSessionResumeBytesReceived`: bytes already in the partial file.
  public var bytesReceived: Int64
  /// `NSURLSessionResumeInfoTempFileName`: the partial file, in the app's temporary directory.
  public var tempFileName: String
  /// `NSURLSessionResumeEntityTag`: the validator, when the server sent an ETag.
  public var entityTag: String?
  /// `NSURLSessionResumeServerDownloadDate`: the `Last-Modified` validator otherwise.
  public var serverDownloadDate: String?
  /// `BgsimResumeToken`: which production of resume data this is (single use).
  public var token: Int
  /// `BgsimSessionIdentifier`: the session the download belonged to.
  public var sessionIdentifier: String

  /// A record with every key the format writes.
  public init(
    url: URL, bytesReceived: Int64, tempFileName: String, entityTag: String?, serverDownloadDate: String?,
    token: Int, sessionIdentifier: String
  ) {
    self.url = url
    self.bytesReceived = bytesReceived
    self.tempFileName = tempFileName
    self.entityTag = entityTag
    self.serverDownloadDate = serverDownloadDate
    self.token = token
    self.sessionIdentifier = sessionIdentifier
  }
}

/// Why resume data could not be used. The bridge fails the new task with
/// `NSURLErrorCannotWriteToFile` (-3003), as Darwin does for invalid resume data, and traces
/// this problem's `name`.
public enum ResumeDataProblem: Error, Hashable, Sendable {
  /// Not a property list at all (truncated, random bytes, empty).
  case notAPropertyList
  /// A property list whose root is not a dictionary.
  case notADictionary
  /// `NSURLSessionResumeInfoVersion` missing or not 1 or 2.
  case unsupportedVersion
  /// A required key is missing or has the wrong type.
  case badKey(String)
  /// Well-formed, but not made by this simulation's bridge (no `Bgsim*` keys, other version).
  case notFromSimulation
  /// Made by this bridge, but unknown to this simulation or already consumed.
  case stale
  /// Made by this bridge in another simulation of this test process: its partial file is in that
  /// simulation's container (resume data kept in a static, say).
  case fromAnotherSimulation
  /// An upload's resume data handed to `downloadTask(withResumeData:)`, or a download's to
  /// `uploadTask(withResumeData:)` (the engine's `wrongTaskKind`).
  case wrongTaskKind

  /// The `problem` field of the `bridge.resumeDataRejected` trace event.
  public var name: String {
    switch self {
    case .notAPropertyList: return "notAPropertyList"
    case .notADictionary: return "notADictionary"
    case .unsupportedVersion: return "unsupportedVersion"
    case .badKey(let key): return "badKey:\(key)"
    case .notFromSimulation: return "notFromSimulation"
    case .stale: return "stale"
    case .fromAnotherSimulation: return "fromAnotherSimulation"
    case .wrongTaskKind: return "wrongTaskKind"
    }
  }
}

/// Reads and writes `ResumeDataRecord`s as Darwin-format resume data.
public enum ResumeDataFormat {
  /// Version of the `Bgsim*` keys; a change of meaning bumps it and old data is refused.
  public static let bgsimVersion = 1

  enum Key {
    static let version = "NSURLSessionResumeInfoVersion"
    static let url = "NSURLSessionDownloadURL"
    static let bytes = "NSURLSessionResumeBytesReceived"
    static let tempFile = "NSURLSessionResumeInfoTempFileName"
    static let currentRequest = "NSURLSessionResumeCurrentRequest"
    static let originalRequest = "NSURLSessionResumeOriginalRequest"
    static let entityTag = "NSURLSessionResumeEntityTag"
    static let serverDate = "NSURLSessionResumeServerDownloadDate"
    static let token = "BgsimResumeToken"
    static let session = "BgsimSessionIdentifier"
    static let bgsimVersion = "BgsimResumeDataVersion"
  }

  /// Resume data for `record` in `encoding` (by default the one the newest iOS writes). The
  /// dictionary's `NSURLSessionResumeCurrentRequest` and `NSURLSessionResumeOriginalRequest`
  /// hold the platform's own keyed archive of the request (with its `Range` and `If-Range`
  /// headers), as Darwin writes them, for libraries that repair resume data; the bridge never
  /// decodes them (on Linux, secure unarchiving of an `NSURLRequest` traps in
  /// swift-corelibs-foundation).
  public static func encode(_ record: ResumeDataRecord, encoding: ResumeDataEncoding = .newest) -> Data {
    var plist: [String: Any] = [
      Key.version: 2,
      Key.url: record.url.absoluteString,
      Key.bytes: record.bytesReceived,
      Key.tempFile: record.tempFileName,
      Key.token: record.token,
      Key.session: record.sessionIdentifier,
      Key.bgsimVersion: bgsimVersion,
    ]
    if let tag = record.entityTag { plist[Key.entityTag] = tag }
    if let date = record.serverDownloadDate { plist[Key.serverDate] = date }
    var original = URLRequest(url: record.url)
    original.httpMethod = "GET"
    var current = original
    current.setValue("bytes=\(record.bytesReceived)-", forHTTPHeaderField: "Range")
    if let validator = record.entityTag ?? record.serverDownloadDate {
      current.setValue(validator, forHTTPHeaderField: "If-Range")
    }
    if let archived = archive(current) { plist[Key.currentRequest] = archived }
    if let archived = archive(original) { plist[Key.originalRequest] = archived }
    switch encoding {
    case .propertyList:
      do {
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
      } catch {
        // Every value above is a plist type, so this cannot happen.
        preconditionFailure("resume data property list could not be written")
      }
    case .keyedArchive:
      return ResumeDataArchive.archive(plist)
    }
  }

  /// Parses resume data; any malformed input is a `ResumeDataProblem`, never a trap.
  public static func decode(_ data: Data) -> Result<ResumeDataRecord, ResumeDataProblem> {
    let plist: [String: Any]
    switch resumeDictionary(in: data) {
    case .failure(let problem): return .failure(problem)
    case .success(let dictionary): plist = dictionary
    }
    if UploadResumeDataFormat.isUploadDictionary(plist) { return .failure(.wrongTaskKind) }
    guard let version = integer(plist[Key.version]), version == 1 || version == 2 else {
      return .failure(.unsupportedVersion)
    }
    guard let urlString = plist[Key.url] as? String, let url = URL(string: urlString), url.scheme != nil
    else {
      return .failure(.badKey(Key.url))
    }
    guard let bytes = integer(plist[Key.bytes]), bytes >= 0 else { return .failure(.badKey(Key.bytes)) }
    guard let tempFile = plist[Key.tempFile] as? String, isPlainFileName(tempFile) else {
      return .failure(.badKey(Key.tempFile))
    }
    if plist[Key.entityTag] != nil && !(plist[Key.entityTag] is String) {
      return .failure(.badKey(Key.entityTag))
    }
    if plist[Key.serverDate] != nil && !(plist[Key.serverDate] is String) {
      return .failure(.badKey(Key.serverDate))
    }
    guard integer(plist[Key.bgsimVersion]) == Int64(bgsimVersion),
      let token = integer(plist[Key.token]), token >= 0, token <= Int64(Int32.max),
      let session = plist[Key.session] as? String
    else { return .failure(.notFromSimulation) }
    return .success(
      ResumeDataRecord(
        url: url, bytesReceived: bytes, tempFileName: tempFile, entityTag: plist[Key.entityTag] as? String,
        serverDownloadDate: plist[Key.serverDate] as? String, token: Int(token), sessionIdentifier: session))
  }

  /// The resume dictionary in either encoding a device writes: a keyed archive (its root object
  /// under `NSKeyedArchiveRootObjectKey`) or a plain property list (binary or XML, as libraries
  /// that repair resume data rewrite it). Never traps: the data is first read as a property
  /// list, and only an archive that says it is one is unarchived (`ResumeDataArchive`).
  static func resumeDictionary(in data: Data) -> Result<[String: Any], ResumeDataProblem> {
    guard !data.isEmpty, BinaryPropertyListCheck.isSafeToParse(data),
      let root = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    else { return .failure(.notAPropertyList) }
    guard let plist = root as? [String: Any] else { return .failure(.notADictionary) }
    guard ResumeDataArchive.isKeyedArchive(plist) else { return .success(plist) }
    guard let unarchived = ResumeDataArchive.unarchive(data, plist: plist) else {
      return .failure(.notADictionary)
    }
    return .success(unarchived)
  }

  /// A property-list integer of any width (Linux and Darwin bridge them differently); nil for
  /// booleans, reals and everything else.
  static func integer(_ value: Any?) -> Int64? {
    switch value {
    case let v as Int: return Int64(v)
    case let v as Int64: return v
    case let v as Int32: return Int64(v)
    case let v as UInt64: return v <= UInt64(Int64.max) ? Int64(v) : nil
    default: return nil
    }
  }

  /// A file name with no directory part, so resume data cannot name a file outside tmp.
  static func isPlainFileName(_ name: String) -> Bool {
    !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
  }

  static func archive(_ request: URLRequest) -> Data? {
    try? NSKeyedArchiver.archivedData(withRootObject: request as NSURLRequest, requiringSecureCoding: true)
  }
}
