/// Which of the app's reactions may follow a callback, found without looking at each: by event,
/// and, for a reaction naming one task exactly (no `*`), by that name. A scenario with thousands
/// of reactions, each for one task, looked at every reaction at every callback.
///
/// It only narrows: `ScriptedApp.react` still checks each candidate's pattern, error filter and
/// `times`, in the reactions' own order.
struct ReactionIndex {
  private struct Candidates {
    /// Reactions for exactly one task, by its name.
    var byTask: [String: [Int]] = [:]
    /// Reactions for any task, for a `*` pattern, or for a callback without a task.
    var others: [Int] = []
  }

  private var byEvent: [Reaction.Event: Candidates] = [:]

  init(_ reactions: [Reaction]) {
    for (i, reaction) in reactions.enumerated() {
      if let task = reaction.task, !task.contains("*") {
        byEvent[reaction.event, default: Candidates()].byTask[task, default: []].append(i)
      } else {
        byEvent[reaction.event, default: Candidates()].others.append(i)
      }
    }
  }

  /// The reactions that may follow `event` for `task`, in their order in the file.
  func candidates(_ event: Reaction.Event, task: String?) -> [Int] {
    guard let entry = byEvent[event] else { return [] }
    guard let task, let named = entry.byTask[task] else { return entry.others }
    // Both lists ascend: merge them.
    var merged: [Int] = []
    merged.reserveCapacity(named.count + entry.others.count)
    var a = 0
    var b = 0
    while a < named.count || b < entry.others.count {
      if b == entry.others.count || (a < named.count && named[a] < entry.others[b]) {
        merged.append(named[a])
        a += 1
      } else {
        merged.append(entry.others[b])
        b += 1
      }
    }
    return merged
  }
}
