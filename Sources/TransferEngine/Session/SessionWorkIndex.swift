/// The session records that may hold delegate events or unfinished tasks living in the app's
/// process, those attached to an extension, those of default sessions, and those with
/// transfers holding connections, by record index
/// (`DaemonSession.index`): kept by the records as those lists change, so a wake check, a
/// suspension and an extension's end look at those records alone, not at every session the app
/// ever made (an app with thousands of sessions woken apart paid for each at every wake).
///
/// A record is listed with events exactly while it holds some. It may stay listed with tasks in
/// the app's process after they finished, until the next look clears it: readers check the
/// record itself.
///
/// `@exclusivity(unchecked)` as `Engine`'s state: one thread, and no app code runs while a list
/// changes; a transfer's start and end change `transferring`, and the access checks showed in
/// `share`'s instructions.
final class SessionWorkIndex {
  /// May hold delegate events (`DaemonSession.pending`).
  @exclusivity(unchecked) var pending = KeySet()
  /// May hold unfinished tasks that need the app's process (`unfinishedTasksNeedingAppProcess`).
  @exclusivity(unchecked) var inApp = KeySet()
  /// Attached to a session object of an extension's process, exactly: the records an
  /// extension's end detaches (an app with thousands of extensions paid for every record).
  @exclusivity(unchecked) var inExtension = KeySet()
  /// Records of default (not background) sessions: the transfers the app's suspension pauses
  /// and its return resumes are theirs. Listed when made; a record's kind never changes.
  @exclusivity(unchecked) var defaultSessions = KeySet()
  /// Hold transfers connecting or moving bytes, exactly (`DaemonSession.activeUIDs`): a network
  /// change and a fault look at these records alone (an app with thousands of sessions paid for
  /// each at every step of the network).
  @exclusivity(unchecked) var transferring = KeySet()
}
