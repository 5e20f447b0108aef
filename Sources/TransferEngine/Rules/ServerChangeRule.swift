import SimKernel

/// Rule: a resource on the server changes (a new version, size or status). Nothing running is
/// cut: a transfer meets the change at its next request, when a retry's validator or a resume
/// no longer matches (behavior.md, "Resume data").
enum ServerChangeRule {
  /// Applies `change` to `links` and appends what follows to `effects`.
  static func apply(_ change: ServerChange, to links: inout Links, into effects: inout EffectBuffer) {
    links.apply(change)
    effects.append(.trace(.serverChange, traceFields(change)))
  }

  /// `server.change`'s fields: the URL, and each of etag, size and status the change sets.
  static func traceFields(_ change: ServerChange) -> [TraceField] {
    var fields = [TraceField("url", .string(change.url.string))]
    if let etag = change.etag { fields.append(TraceField("etag", .string(etag ?? "none"))) }
    if let size = change.size { fields.append(TraceField("size", .int(size))) }
    if let status = change.status { fields.append(TraceField("status", .int(Int64(status)))) }
    return fields
  }
}
