import SimKernel

extension Simulation {
  /// The determinism check in one line: `make` builds a world afresh (a new simulation, the app
  /// installed, its actions scheduled), runs it and returns it; this runs it `runs` times and
  /// compares the traces (`DeterminismCheck`).
  ///
  /// ```swift
  /// let check = Simulation.checkDeterminism(runs: 10) { makeWorld() }
  /// #expect(check.isDeterministic, "\(check)")
  /// ```
  public static func checkDeterminism(runs: Int = 2, _ make: () throws -> Simulation) rethrows
    -> DeterminismCheck
  {
    try DeterminismCheck.run(times: runs) { try make().trace.events }
  }
}
