import Foundation
import Testing

@testable import ScenarioKit

/// The scripted app's index of reactions keeps every reaction that may follow a callback, in the
/// file's order.
@Suite struct ReactionIndexTests {
  static let reactions: [Reaction] = [
    Reaction(event: .didFinishDownloading, task: "a", actions: [], path: "0"),
    Reaction(event: .didFinishDownloading, task: nil, actions: [], path: "1"),
    Reaction(event: .didComplete, task: "a", actions: [], path: "2"),
    Reaction(event: .didFinishDownloading, task: "a*", actions: [], path: "3"),
    Reaction(event: .didFinishDownloading, task: "b", actions: [], path: "4"),
    Reaction(event: .didFinishDownloading, task: "a", actions: [], path: "5"),
    Reaction(event: .didLaunch, task: nil, actions: [], path: "6"),
    Reaction(event: .continuedProcessingStarted, task: "sync", actions: [], path: "7"),
    Reaction(event: .didFinishDownloading, task: "*", actions: [], path: "8"),
  ]

  /// The reactions whose event and task pattern fit, as the app checked them before the index.
  static func fitting(_ event: Reaction.Event, _ task: String?) -> [Int] {
    reactions.indices.filter { i in
      guard reactions[i].event == event else { return false }
      guard let pattern = reactions[i].task else { return true }
      return task.map { TracePattern.wildcardMatch(pattern, $0) } ?? false
    }
  }

  @Test("the candidates hold every fitting reaction, in the file's order")
  func candidatesKeepEveryFittingReaction() {
    let index = ReactionIndex(Self.reactions)
    for event in Reaction.Event.allCases {
      for task in [nil, "a", "ab", "b", "c", "sync"] as [String?] {
        let candidates = index.candidates(event, task: task)
        #expect(candidates == candidates.sorted(), "\(event) \(task ?? "nil")")
        #expect(
          candidates.filter { Self.fitting(event, task).contains($0) } == Self.fitting(event, task),
          "\(event) \(task ?? "nil")")
      }
    }
    #expect(index.candidates(.didFinishDownloading, task: "a") == [0, 1, 3, 5, 8])
    #expect(index.candidates(.didFinishDownloading, task: "c") == [1, 3, 8], "not those for 'a' or 'b'")
  }

  @Test("a list of answers by task (challenges, delayed requests) keeps every fitting entry, in order")
  func taskEntryIndexKeepsEveryFittingEntry() {
    let tasks: [String?] = ["a", nil, "a*", "b", "a", "*", "c"]
    let index = TaskEntryIndex(tasks: tasks)
    for task in ["a", "ab", "b", "c", "d"] {
      let fitting = tasks.indices.filter { tasks[$0].map { TracePattern.wildcardMatch($0, task) } ?? true }
      let candidates = index.candidates(task: task)
      #expect(candidates == candidates.sorted(), "\(task)")
      #expect(candidates.filter(fitting.contains) == fitting, "\(task)")
    }
    #expect(index.candidates(task: "a") == [0, 1, 2, 4, 5])
    #expect(index.candidates(task: "d") == [1, 2, 5], "not those for 'a', 'b' or 'c'")
  }
}
