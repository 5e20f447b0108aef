extension ParallelRunner {
  /// Runs `body` for every seed of `seeds`, a block of `perJob` seeds per thread at a time on
  /// `jobs` threads, and hands each outcome to `handle` in seed order, on the calling thread,
  /// once its block is done. What `handle` prints or writes is therefore the same whatever
  /// `jobs` is, and a long range never holds more than one block of outcomes. `keepGoing` is
  /// asked before each block (a time budget stops there). Returns how many seeds ran.
  ///
  /// The range may end at `UInt64.max`. `perJob` trades the idle time a block's slowest seed
  /// leaves on the other threads against how soon `keepGoing` is asked again; it and `jobs` are
  /// taken as at least 1 and at most 65,536, so a block's size cannot overflow.
  public static func forEachSeed<Outcome: Sendable>(
    in seeds: ClosedRange<UInt64>, jobs: Int, perJob: UInt64 = 32, keepGoing: () -> Bool = { true },
    _ body: @escaping @Sendable (UInt64) -> Outcome, handle: (UInt64, Outcome) -> Void
  ) -> Int {
    let blockSize = min(max(perJob, 1), 65_536) * UInt64(min(max(jobs, 1), 65_536))
    var first = seeds.lowerBound
    var tried = 0
    while keepGoing() {
      // The block's last seed, computed without passing the range's end.
      let last = seeds.upperBound - first >= blockSize ? first + (blockSize - 1) : seeds.upperBound
      let base = first
      let outcomes = map(count: Int(last - base) + 1, jobs: jobs) { body(base + UInt64($0)) }
      for (offset, outcome) in outcomes.enumerated() { handle(base + UInt64(offset), outcome) }
      tried += outcomes.count
      if last == seeds.upperBound { break }
      first = last + 1
    }
    return tried
  }
}
