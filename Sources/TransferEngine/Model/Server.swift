import SimKernel

/// An `http` or `https` URL, split into the parts the engine needs.
///
/// Written here rather than using Foundation's `URL` so that parsing is identical everywhere
/// and the rules are visible: scheme, host (with optional port) and the rest.
public struct SimURL: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The URL as written.
  public let string: String
  /// The scheme, lowercased; URLSession's daemon takes only `http` and `https`.
  public let scheme: String
  /// The host, lowercased, without the port: what connection limits and host faults match.
  public let host: String

  /// Parses `scheme://host[:port][/path...]`; nil when the text is not of that shape.
  public init?(_ string: String) {
    let parsed: (scheme: String, host: String)?
    if let ascii = SimURL.asciiParts(of: string) {
      parsed = ascii
    } else {
      parsed = SimURL.characterParts(of: string)
    }
    guard let parts = parsed else { return nil }
    self.string = string
    self.scheme = parts.scheme
    self.host = parts.host
  }

  /// The scheme and host, both lowercased, or nil when `string` is not of the shape `init` takes.
  /// The rules, by `Character`: the scheme is what precedes the first `://`, non-empty, of
  /// letters, digits, `+`, `-` and `.`; the authority runs to the first `/`, `?` or `#`; the
  /// host is its last `@`-separated part up to any `:`, and is non-empty; the text holds no
  /// space and no newline.
  static func characterParts(of string: String) -> (scheme: String, host: String)? {
    guard let sep = string.firstRange(of: "://") else { return nil }
    let scheme = String(string[..<sep.lowerBound]).lowercased()
    guard !scheme.isEmpty, scheme.allSatisfy(SimURL.isSchemeCharacter) else { return nil }
    let rest = string[sep.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    let hostPart = authority.split(separator: "@").last.map(String.init) ?? ""
    let host = String(hostPart.prefix { $0 != ":" }).lowercased()
    guard !host.isEmpty, !string.contains(where: { $0 == " " || $0.isNewline }) else { return nil }
    return (scheme, host)
  }

  /// The answer of `characterParts` for an all-ASCII text, worked out on its UTF-8 bytes (a
  /// fifth of the time: every task's URL is parsed); `.some(nil)` when the text is ASCII but
  /// not a URL, nil when it is not ASCII (or not contiguous), which only `characterParts`
  /// decides. In ASCII the only `Character` of more than one byte is CR LF, and no rule above
  /// treats it differently from its two bytes: it is neither a scheme character, nor a
  /// delimiter, and it is a newline, as CR and LF are.
  static func asciiParts(of string: String) -> (scheme: String, host: String)?? {
    let parsed = string.utf8.withContiguousStorageIfAvailable { bytes -> (scheme: String, host: String)?? in
      // First, whether it is ASCII at all: a non-ASCII scalar may join the byte before it into
      // one `Character` (a space and a combining accent are not a space).
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      var separator: Int?
      for (i, byte) in bytes.enumerated() {
        // Space, and the newlines LF, VT, FF and CR.
        if byte == 0x20 || (0x0A...0x0D).contains(byte) { return .some(nil) }
        if separator == nil, byte == UInt8(ascii: ":"), i + 2 < bytes.count,
          bytes[i + 1] == UInt8(ascii: "/"), bytes[i + 2] == UInt8(ascii: "/")
        {
          separator = i
        }
      }
      guard let separator, separator > 0,
        bytes[..<separator].allSatisfy(SimURL.isSchemeByte)
      else { return .some(nil) }
      let rest = bytes[(separator + 3)...]
      let authorityEnd =
        rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        ?? rest.endIndex
      let authority = bytes[rest.startIndex..<authorityEnd]
      // The last non-empty part between `@`s (empty when there is none).
      var partEnd = authority.endIndex
      while partEnd > authority.startIndex && bytes[partEnd - 1] == UInt8(ascii: "@") { partEnd -= 1 }
      var partStart = partEnd
      while partStart > authority.startIndex && bytes[partStart - 1] != UInt8(ascii: "@") { partStart -= 1 }
      let hostPart = partStart..<partEnd
      let hostEnd = bytes[hostPart].firstIndex(of: UInt8(ascii: ":")) ?? hostPart.upperBound
      guard hostEnd > hostPart.lowerBound else { return .some(nil) }
      return (
        SimURL.lowercased(bytes[..<separator]), SimURL.lowercased(bytes[hostPart.lowerBound..<hostEnd])
      )
    }
    return parsed ?? nil
  }

  static func isSchemeCharacter(_ c: Character) -> Bool {
    c.isLetter || c.isNumber || c == "+" || c == "-" || c == "."
  }

  private static func isSchemeByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
      return true
    default:
      return false
    }
  }

  /// ASCII `bytes` as a `String`, letters lowercased. Decoded from contiguous bytes, which
  /// copies them at once: decoding a lazily mapped sequence went byte by byte, about 1,800
  /// instructions for a host name, twice for every task made (callgrind of `bench fleet`).
  private static func lowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
    let buffer = UnsafeBufferPointer(rebasing: bytes)
    guard buffer.contains(where: isUppercase) else { return String(decoding: buffer, as: UTF8.self) }
    return String(decoding: buffer.map { isUppercase($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
  }

  private static func isUppercase(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }

  /// Only `http` and `https` are accepted by URLSession's background daemon [A].
  public var isHTTP: Bool { scheme == "http" || scheme == "https" }
  public var description: String { string }

  // Equal, hashed and ordered by the bytes of the URL as written (the scheme and host follow
  // from it): `String` takes a path or host in another Unicode normalization form as equal,
  // where on a device the two are percent-encoded as different bytes and name two resources.
  public static func == (a: SimURL, b: SimURL) -> Bool { a.string.hasSameUTF8(b.string) }
  public func hash(into hasher: inout Hasher) { string.hashUTF8(into: &hasher) }
  public static func < (a: SimURL, b: SimURL) -> Bool { WrittenKey(a.string) < WrittenKey(b.string) }
}

/// A resource the simulated server holds: something to download, or an upload target.
public struct ServerResource: Hashable, Sendable {
  /// Where the resource is; tasks name it by this URL.
  public var url: SimURL
  /// Body size in bytes (for upload targets, the size of what the server stores; unused).
  public var size: Int64
  /// The `ETag` the server sends; a change makes resume data stale and restarts transfers from 0.
  public var etag: String?
  /// The `Last-Modified` the server sends, the validator when there is no ETag.
  public var lastModified: String?
  /// Whether the server honours `Range` requests (needed for resume data).
  public var acceptsRanges: Bool
  /// HTTP status of the response; error statuses are not transport errors [A].
  public var status: Int
  /// When set, the server answers with a redirect here (followed automatically in background sessions).
  public var redirectTo: SimURL?
  /// Bytes the server answers with (an upload's response body).
  public var responseBody: Int64
  /// `GET` for downloads, `POST` or `PUT` for upload targets.
  public var method: String
  /// An upload target that speaks the resumable upload draft (answers `104 Upload Resumption
  /// Supported` with an upload URL): an interrupted upload to it continues from the bytes it has.
  public var resumableUploads = false
  /// The newest interop version of the draft the server speaks; it answers a device on that
  /// version or an older one, as swift-nio-extras' server does. Nil: whatever the device speaks.
  public var resumableUploadDraft: ResumableUploadDraft?
  /// The protection spaces the server challenges in, in the order it offers them; empty when
  /// the resource needs no credential (behavior.md, "Authentication challenges").
  public var auth: [ProtectionSpace]

  /// A resource of `size` bytes at `url`, answered with 200 and accepting ranges unless told otherwise.
  public init(
    url: SimURL, size: Int64, etag: String? = nil, lastModified: String? = nil, acceptsRanges: Bool = true,
    status: Int = 200, redirectTo: SimURL? = nil, responseBody: Int64 = 0, method: String = "GET",
    auth: [ProtectionSpace] = []
  ) {
    self.auth = auth
    self.url = url
    self.size = size
    self.etag = etag
    self.lastModified = lastModified
    self.acceptsRanges = acceptsRanges
    self.status = status
    self.redirectTo = redirectTo
    self.responseBody = responseBody
    self.method = method
  }
}

/// A change to a resource at a moment in time (a new version of a file, a new status).
public struct ServerChange: Hashable, Sendable {
  /// When the change happens.
  public var at: SimTime
  /// The resource it changes.
  public var url: SimURL
  /// The new ETag: nil leaves it, `.some(nil)` removes it.
  public var etag: String??
  /// The new Last-Modified: nil leaves it, `.some(nil)` removes it.
  public var lastModified: String??
  /// The new size in bytes; nil leaves it.
  public var size: Int64?
  /// The new HTTP status; nil leaves it.
  public var status: Int?
  /// Whether range requests are honoured from now on; nil leaves it.
  public var acceptsRanges: Bool?
  /// The new redirect target: nil leaves it, `.some(nil)` removes the redirect.
  public var redirectTo: SimURL??

  /// A change of `url` at `at`; each field left nil stays as it was.
  public init(
    at: SimTime, url: SimURL, etag: String?? = nil, lastModified: String?? = nil, size: Int64? = nil,
    status: Int? = nil, acceptsRanges: Bool? = nil, redirectTo: SimURL?? = nil
  ) {
    self.at = at
    self.url = url
    self.etag = etag
    self.lastModified = lastModified
    self.size = size
    self.status = status
    self.acceptsRanges = acceptsRanges
    self.redirectTo = redirectTo
  }
}

/// What a fault applies to: one URL or every URL of a host. Hosts compare by their bytes, as
/// URLs do.
public enum FaultTarget: Hashable, Sendable {
  /// Exactly this URL.
  case url(SimURL)
  /// Every URL on this host.
  case host(String)

  /// Whether the fault applies to requests for `url`.
  public func matches(_ url: SimURL) -> Bool {
    switch self {
    case .url(let u): return u == url
    case .host(let h): return url.host.hasSameUTF8(h)
    }
  }

  public static func == (a: FaultTarget, b: FaultTarget) -> Bool {
    switch (a, b) {
    case (.url(let u), .url(let v)): return u == v
    case (.host(let h), .host(let i)): return h.hasSameUTF8(i)
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .url(let u):
      hasher.combine(0)
      hasher.combine(u)
    case .host(let h):
      hasher.combine(1)
      h.hashUTF8(into: &hasher)
    }
  }
}

/// A server misbehaviour injected by the scenario.
public enum ServerFault: Hashable, Sendable {
  /// From `at`, the next `times` connections to the target are dropped: one running at `at`
  /// is cut then, later ones are cut as soon as they connect.
  case dropConnection(at: SimTime, target: FaultTarget, times: Int)
  /// Every response for the target in [from, to) has this HTTP status.
  case status(from: SimTime, to: SimTime, target: FaultTarget, status: Int)
  /// The server stops sending to the target in [from, to): connections stay open but no byte
  /// moves, so `timeoutIntervalForRequest` (an idle timer) decides what happens.
  case stall(from: SimTime, to: SimTime, target: FaultTarget)
}

/// The simulated server: resources, their changes over time, and faults.
public struct ServerModel: Hashable, Sendable {
  /// What the server holds; a URL not among them is answered with 404.
  public var resources: [ServerResource]
  /// Sorted by time.
  public var changes: [ServerChange]
  /// Misbehaviour injected at given times (dropped connections, error statuses, stalls).
  public var faults: [ServerFault]

  /// A server with these resources, changes over time and faults.
  public init(resources: [ServerResource] = [], changes: [ServerChange] = [], faults: [ServerFault] = []) {
    self.resources = resources
    self.changes = changes
    self.faults = faults
  }
}
