import SimKernel
import TransferEngine

/// `server`: resources, their changes over time, and injected faults.
extension ValueType where T == ServerModel {
  static var server: ValueType<ServerModel> {
    .object("an object with resources, changes and faults") { r in
      let resources = r.optional(
        "resources", .objects("a resource like {\"url\": ..., \"size\": \"50MB\"}", resourceGroup)
      )
      .map { $0.flatMap { $0 } }
      let changes = r.optional(
        "changes", .objects("a change like {\"at\": \"2h\", \"url\": ..., \"etag\": \"v2\"}", change))
      let faults = r.optional(
        "faults",
        .objects("a fault like {\"at\": \"10m\", \"url\": ..., \"kind\": \"dropConnection\"}", fault))
      let sortedChanges = (changes ?? []).enumerated()
        .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
      if resources != nil, let raw = r.raw("resources")?.array {
        reportDuplicates(raw, path: JSONPath.member(r.path, "resources"), context: r.context)
      }
      return ServerModel(resources: resources ?? [], changes: sortedChanges, faults: faults ?? [])
    }
  }

  private static var statusType: ValueType<Int> {
    ValueType<Int>.int(100...599, "an HTTP status from 100 to 599")
  }

  /// A resource, or with `"count": N` and `{n}` in its URL, N numbered resources
  /// (`https://example.com/img/{n}.jpg` for n = 1...N) that are otherwise alike, but for a
  /// `{n}` in `redirectTo`, which is each copy's number too.
  private static func resourceGroup(_ r: inout ObjectReader) -> [ServerResource]? {
    let count = r.optional("count", .int(1...100_000, "a number of numbered resources from 1 to 100000"))
    guard let resource = resource(&r, numbered: count != nil) else { return nil }
    guard let count else { return [resource] }
    if let v = r.raw("count") {
      r.context.references.resourceCounts.append(
        (count, .init(name: "", path: JSONPath.member(r.path, "count"), position: v.position)))
    }
    if !resource.url.string.hasNumberPlaceholder, let v = r.raw("url") {
      r.context.invalid(
        JSONPath.member(r.path, "url"), v,
        "a resource with 'count' needs '{n}' in its URL, where each copy's number goes")
      return nil
    }
    return (1...count).compactMap { n in
      guard let url = SimURL(resource.url.string.replacingAll("{n}", with: String(n))) else { return nil }
      var copy = resource
      copy.url = url
      // A redirect's target may be numbered too: copy n redirects to its own target n.
      if let target = resource.redirectTo?.string, target.hasNumberPlaceholder {
        copy.redirectTo = SimURL(target.replacingAll("{n}", with: String(n)))
      }
      return copy
    }
  }

  private static func resource(_ r: inout ObjectReader, numbered: Bool) -> ServerResource? {
    let url = r.required("url", .httpURL)
    if let url {
      r.context.references.declaredResources.append(url)
      if numbered { r.context.references.numberedResources.append(url.string) }
    }
    let method = r.optional("method", .string)
    if let url { r.context.references.resourceMethods.append((url.string, method ?? "GET")) }
    let isUpload = method.map { $0 != "GET" } ?? false
    let size = isUpload ? r.optional("size", .size) : r.required("size", .size)
    let etag = r.optional("etag", .nullable(.string))
    let lastModified = r.optional("lastModified", .nullable(.string))
    let acceptsRanges = r.optional("acceptsRanges", .bool)
    let status = r.optional("status", statusType)
    let redirectTo = r.optional("redirectTo", .nullable(.httpURL))
    let responseBody = r.optional("responseBody", .size)
    let resumable = r.optional("resumableUploads", .bool)
    if resumable == true, !isUpload, let v = r.raw("resumableUploads") {
      r.context.invalid(
        JSONPath.member(r.path, "resumableUploads"), v,
        "'resumableUploads' says an upload target speaks the resumable upload draft; this resource is "
          + "downloaded with GET, so give it \"method\": \"POST\" or \"PUT\", or remove the key")
    }
    let draft = r.optional("resumableUploadDraft", .uploadDraft)
    if draft != nil, resumable != true, let v = r.raw("resumableUploadDraft") {
      r.context.invalid(
        JSONPath.member(r.path, "resumableUploadDraft"), v,
        "'resumableUploadDraft' says which draft a resumable upload target speaks; add "
          + "\"resumableUploads\": true to this resource, or remove the key")
    }
    let auth = r.optional("auth", .protectionSpaces)
    if let method, !["GET", "POST", "PUT"].contains(method), let v = r.raw("method") {
      let hint = Suggestion.didYouMean(method, among: ["GET", "POST", "PUT"]).map { "did you mean '\($0)'?" }
      r.context.invalid(
        JSONPath.member(r.path, "method"), v,
        "unknown method '\(method)'; \(hint ?? "expected GET, POST or PUT")")
      return nil
    }
    guard let url else { return nil }
    var resource = ServerResource(
      url: url, size: size ?? 0, etag: etag ?? nil, lastModified: lastModified ?? nil,
      acceptsRanges: acceptsRanges ?? true, status: status ?? 200, redirectTo: redirectTo ?? nil,
      responseBody: responseBody ?? 0, method: method ?? "GET")
    resource.resumableUploads = resumable ?? false
    resource.resumableUploadDraft = draft
    resource.auth = auth ?? []
    return resource
  }

  private static func change(_ r: inout ObjectReader) -> ServerChange? {
    let at = r.required("at", .instant)
    let url = r.required("url", .httpURL)
    let etag = r.optional("etag", .nullable(.string))
    let lastModified = r.optional("lastModified", .nullable(.string))
    let size = r.optional("size", .size)
    let status = r.optional("status", statusType)
    let acceptsRanges = r.optional("acceptsRanges", .bool)
    let redirectTo = r.optional("redirectTo", .nullable(.httpURL))
    if let url, let v = r.raw("url") {
      r.context.references.resourceUses.append((url, JSONPath.member(r.path, "url"), v.position))
    }
    guard let at, let url else { return nil }
    return ServerChange(
      at: at, url: url, etag: etag, lastModified: lastModified, size: size, status: status,
      acceptsRanges: acceptsRanges, redirectTo: redirectTo)
  }

  private static func fault(_ r: inout ObjectReader) -> ServerFault? {
    let kind: FaultKind? = r.required("kind", .enumeration("fault kind"))
    let target = faultTarget(&r)
    switch kind {
    case .dropConnection:
      let at = r.required("at", .instant)
      let times = r.optional("times", .int(1...1_000_000, "a positive number of connections"))
      guard let at, let target else { return nil }
      return .dropConnection(at: at, target: target, times: times ?? 1)
    case .status:
      let from = r.required("from", .instant)
      let to = r.required("to", .instant)
      let status = r.required("status", statusType)
      guard let from, let to, let status, let target else { return nil }
      if to <= from, let v = r.raw("to") {
        r.context.invalid(JSONPath.member(r.path, "to"), v, "'to' (\(to)) must be after 'from' (\(from))")
        return nil
      }
      return .status(from: from, to: to, target: target, status: status)
    case .stall:
      let from = r.required("from", .instant)
      let to = r.required("to", .instant)
      guard let from, let to, let target else { return nil }
      if to <= from, let v = r.raw("to") {
        r.context.invalid(JSONPath.member(r.path, "to"), v, "'to' (\(to)) must be after 'from' (\(from))")
        return nil
      }
      return .stall(from: from, to: to, target: target)
    case nil:
      r.accept("at", "times", "from", "to", "status")
      return nil
    }
  }

  /// Exactly one of `url` (one resource) or `host` (every resource of a host).
  private static func faultTarget(_ r: inout ObjectReader) -> FaultTarget? {
    let url = r.optional("url", .httpURL)
    let host = r.optional("host", .name("a host name"))
    switch (url, host, r.has("url"), r.has("host")) {
    case (let url?, nil, _, false):
      if let v = r.raw("url") {
        r.context.references.resourceUses.append((url, JSONPath.member(r.path, "url"), v.position))
      }
      return .url(url)
    case (nil, let host?, false, _):
      if let v = r.raw("host") {
        r.context.references.hostUses.append((host, JSONPath.member(r.path, "host"), v.position))
      }
      return .host(host.lowercased())
    case (_, _, true, true):
      r.context.report(.value, r.path, at: r.value.position, "a fault names either 'url' or 'host', not both")
      return nil
    case (_, _, false, false):
      r.context.report(
        .missingKey, r.path, at: r.value.position,
        "missing required key 'url' or 'host' (what the fault applies to)")
      return nil
    default: return nil
    }
  }

  /// Two resources with one URL would make the server ambiguous.
  private static func reportDuplicates(_ raw: [JSONValue], path: String, context: DecodeContext) {
    var seen = Set<SimURL>()
    for (i, item) in raw.enumerated() {
      guard let text = item["url"]?.string, let url = SimURL(text) else { continue }
      if !seen.insert(url).inserted, let v = item["url"] {
        context.invalid(
          JSONPath.member(JSONPath.element(path, i), "url"), v, "resource '\(text)' is declared twice")
      }
    }
  }
}

/// The `kind` of a server fault.
enum FaultKind: String, CaseIterable {
  case dropConnection, status, stall
}
