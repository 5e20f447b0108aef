#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a piece of resume data says: the engine's decoded form of the opaque `Data` that
/// `cancel(byProducingResumeData:)` and a failed download's error hand the app. An app treats
/// the `Data` as opaque; tests and tools read it with `init(_:)`.
public struct ResumeDataContents: Hashable, Sendable {
  /// Which production of resume data this is in its simulation (resume data is single use).
  public let token: Int
  /// The URL the download was for; resume data for another URL is refused.
  public let url: SimURL
  /// Bytes already on disk.
  public let offset: Int64
  /// The validator the range request sends (`If-Range`): the ETag, else Last-Modified.
  public let validator: String
  /// The session the download belonged to.
  public let sessionIdentifier: String
  /// Set for an upload's resume data (iOS 17 and later); `offset` is then the body bytes the
  /// server has, and `validator` is empty.
  public let upload: UploadResumeInfo?

  init(
    token: Int, url: SimURL, offset: Int64, validator: String, sessionIdentifier: String,
    upload: UploadResumeInfo? = nil
  ) {
    self.token = token
    self.url = url
    self.offset = offset
    self.validator = validator
    self.sessionIdentifier = sessionIdentifier
    self.upload = upload
  }

  /// Reads resume data made by any bgsim simulation; malformed data is an error, never a trap.
  /// Whether the simulation that is handed it knows it is checked there (`stale`).
  public init(_ data: Data) throws(ResumeDataError) {
    self = try ResumeDataCoding.decode(Array(data))
  }

  /// The opaque bytes an app stores (on disk, across processes) and hands back.
  public var data: Data { Data(ResumeDataCoding.encode(self)) }
}

/// What an upload's resume data adds: the body to send the rest of, and the draft spoken.
public struct UploadResumeInfo: Hashable, Sendable {
  /// The whole body's size in bytes.
  public let bodySize: Int64
  /// Whether the body is a file (`uploadTask(with:fromFile:)`) or data in memory.
  public let fromFile: Bool
  /// The interop version of the resumable upload draft the upload was made with.
  public let draft: ResumableUploadDraft
}

/// Why resume data cannot be used. The task made from it fails with `cannotWriteToFile`
/// (-3003), Darwin's code for resume data whose partial download cannot be used.
public enum ResumeDataError: Error, Hashable, Sendable {
  /// Not resume data: empty, truncated, corrupted, or not made by bgsim.
  case malformed
  /// Made by a bgsim whose resume-data format has another version.
  case unsupportedVersion(Int)
  /// Well-formed, but this simulation never produced it (another run's data, or edited fields).
  case stale
  /// A download's resume data handed to `uploadTask(withResumeData:)`, or an upload's to
  /// `downloadTask(withResumeData:)`.
  case wrongTaskKind

  /// The `problem` field of `task.resumeDataRejected`.
  public var name: String {
    switch self {
    case .malformed: return "malformed"
    case .unsupportedVersion: return "unsupportedVersion"
    case .stale: return "stale"
    case .wrongTaskKind: return "wrongTaskKind"
    }
  }
}

/// The byte layout of resume data, version 1 (a download): the magic `BGRD`, a version byte,
/// the token and the offset (8 bytes each, big endian), the URL, validator and session
/// identifier (a 4-byte length, then UTF-8), and an FNV-1a checksum of everything before it.
/// Version 2 (an upload) adds, before the checksum, the body size (8 bytes), a byte that is 1
/// for a file body, and the draft's interop version (1 byte). A change of layout or meaning
/// bumps the version, and data of an unknown version is refused, not misread.
enum ResumeDataCoding {
  static let magic: [UInt8] = Array("BGRD".utf8)
  static let version: UInt8 = 1
  static let uploadVersion: UInt8 = 2
  /// A field longer than this is not from bgsim (URLs and identifiers are far shorter).
  static let maxStringBytes = 1 << 20

  static func encode(_ contents: ResumeDataContents) -> [UInt8] {
    var bytes = magic
    bytes.append(contents.upload == nil ? version : uploadVersion)
    append(UInt64(truncatingIfNeeded: contents.token), to: &bytes)
    append(UInt64(truncatingIfNeeded: contents.offset), to: &bytes)
    for text in [contents.url.string, contents.validator, contents.sessionIdentifier] {
      let utf8 = Array(text.utf8)
      append(UInt32(truncatingIfNeeded: utf8.count), to: &bytes)
      bytes += utf8
    }
    if let upload = contents.upload {
      append(UInt64(truncatingIfNeeded: upload.bodySize), to: &bytes)
      bytes.append(upload.fromFile ? 1 : 0)
      bytes.append(UInt8(truncatingIfNeeded: upload.draft.rawValue))
    }
    append(checksum(bytes[...]), to: &bytes)
    return bytes
  }

  static func decode(_ bytes: [UInt8]) throws(ResumeDataError) -> ResumeDataContents {
    var reader = Reader(bytes: bytes[...])
    guard bytes.count >= magic.count + 1 + 8, reader.take(magic.count) == magic[...] else {
      throw .malformed
    }
    guard let found = reader.take(1)?.first else { throw .malformed }
    guard found == version || found == uploadVersion else { throw .unsupportedVersion(Int(found)) }
    guard let token = reader.integer(UInt64.self), let offset = reader.integer(UInt64.self),
      let url = reader.string(), let validator = reader.string(), let session = reader.string()
    else { throw .malformed }
    var upload: UploadResumeInfo?
    if found == uploadVersion {
      guard let size = reader.integer(UInt64.self), size <= UInt64(Int64.max), offset <= size,
        let file = reader.take(1)?.first, file <= 1,
        let draftByte = reader.take(1)?.first, let draft = ResumableUploadDraft(rawValue: Int(draftByte))
      else { throw .malformed }
      upload = UploadResumeInfo(bodySize: Int64(size), fromFile: file == 1, draft: draft)
    }
    let body = bytes[..<reader.position]
    guard let sum = reader.integer(UInt64.self), reader.isAtEnd, sum == checksum(body) else {
      throw .malformed
    }
    guard token > 0, token <= UInt64(Int32.max), offset <= UInt64(Int64.max), let simURL = SimURL(url),
      simURL.isHTTP
    else { throw .malformed }
    return ResumeDataContents(
      token: Int(token), url: simURL, offset: Int64(offset), validator: validator, sessionIdentifier: session,
      upload: upload)
  }

  static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    var big = value.bigEndian
    withUnsafeBytes(of: &big) { bytes += $0 }
  }

  /// 64-bit FNV-1a: catches truncation and stray edits, not tampering (the data is not a secret).
  static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }

  /// Reads fields front to back; every read checks the bytes are there.
  struct Reader {
    var bytes: ArraySlice<UInt8>
    var position: Int { bytes.startIndex }
    var isAtEnd: Bool { bytes.isEmpty }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
      guard count >= 0, count <= bytes.count else { return nil }
      defer { bytes = bytes.dropFirst(count) }
      return bytes.prefix(count)
    }

    mutating func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T? {
      guard let raw = take(MemoryLayout<T>.size) else { return nil }
      return raw.reduce(T(0)) { ($0 << 8) | T($1) }
    }

    mutating func string() -> String? {
      guard let length = integer(UInt32.self), Int(length) <= ResumeDataCoding.maxStringBytes,
        let raw = take(Int(length))
      else { return nil }
      // `String(validating:as:)` needs macOS 15: decode, then refuse what did not round-trip.
      let text = String(decoding: raw, as: UTF8.self)
      return text.utf8.elementsEqual(raw) ? text : nil
    }
  }
}
