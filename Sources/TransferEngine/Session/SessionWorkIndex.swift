/// The session records that may hold delegate events or unfinished tasks living in the app's
/// process, by record index (`DaemonSession.index`): kept by the records as those lists change,
/// so a wake check and a suspension look at those records alone, not at every session the app
/// ever made (an app with thousands of sessions woken apart paid for each at every wake).
///
/// A record may stay listed a while after its list emptied (its events were taken back out by a
/// process's end, its tasks finished): readers check the record itself.
final class SessionWorkIndex {
  /// May hold delegate events (`DaemonSession.pending`).
  var pending = KeySet()
  /// May hold unfinished tasks that need the app's process (`unfinishedTasksNeedingAppProcess`).
  var inApp = KeySet()
}
