import SimKernel

/// Which entries of a list the scripted app consults for a task (reactions, challenge answers,
/// delayed-request answers) may apply to it, found without looking at each: an entry naming one
/// task exactly (no `*`) is filed under that name. A scenario with thousands of entries, each for
/// one task, looked at every entry at every callback.
///
/// It only narrows: the caller still checks each candidate's pattern (and error filter, `times`),
/// in the entries' own order.
struct TaskEntryIndex {
  /// Entries for exactly one task, by its name's bytes (as a pattern matches).
  private var byTask: [WrittenKey: [Int]] = [:]
  /// Entries for any task, for a `*` pattern, or for a callback without a task.
  private var others: [Int] = []

  /// Files entry `index`, whose task pattern is `task` (nil: any task). Indexes must ascend.
  mutating func add(_ index: Int, task: String?) {
    if let task, !task.containsBytes(of: "*") {
      byTask[WrittenKey(task), default: []].append(index)
    } else {
      others.append(index)
    }
  }

  init() {}

  /// An index of entries whose task patterns are `tasks`, in order.
  init(tasks: [String?]) {
    for (i, task) in tasks.enumerated() { add(i, task: task) }
  }

  /// The entries that may apply to `task`, in their order in the file.
  func candidates(task: String?) -> [Int] {
    guard let task, let named = byTask[WrittenKey(task)] else { return others }
    return mergedAscending(named, others)
  }
}

/// The app's reactions by the callback they follow, then by task (`TaskEntryIndex`).
struct ReactionIndex {
  private var byEvent: [Reaction.Event: TaskEntryIndex] = [:]

  init(_ reactions: [Reaction]) {
    for (i, reaction) in reactions.enumerated() {
      byEvent[reaction.event, default: TaskEntryIndex()].add(i, task: reaction.task)
    }
  }

  /// The reactions that may follow `event` for `task`, in their order in the file.
  func candidates(_ event: Reaction.Event, task: String?) -> [Int] {
    byEvent[event]?.candidates(task: task) ?? []
  }
}
