import SimKernel

extension Engine {
  /// Re-arms the single completion event of each link direction at the links' current shares.
  ///
  /// Engine bookkeeping that owns a timer handle (the links keep each direction's event), so it
  /// changes `scheduler` directly, as `detach` changes the links.
  func rescheduleLinks() {
    for up in [false, true] {
      if let old = links.completionHandle(up: up) { scheduler.cancel(old) }
      links.armed(
        up: up,
        links.nextCompletion(up: up).map { scheduler.schedule(.linkCompletion(up: up), at: max($0, now)) })
    }
  }

  /// Re-arms the links for a rule that changed them: at once when the rule has appended nothing
  /// yet, else as a `.rescheduleLinks` effect after what it appended. Events at one instant fire
  /// in the order they were scheduled, so a completion re-armed ahead of a delivery, a progress
  /// check or a start the same input asked for would fire before them.
  func rescheduleLinks(after effects: inout EffectBuffer) {
    if effects.isEmpty { rescheduleLinks() } else { effects.append(.rescheduleLinks) }
  }
}
