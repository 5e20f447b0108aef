// A test file imports `BgsimTesting` alone: the bridge (and through it `Simulation`, `SimTime`,
// `SimDuration`, the models and the trace) and the exploration's types.
@_exported import BgsimFoundation
// The whole kernel, not only its types: `SimTime` and `SimDuration`'s operators (`t + .seconds(1)`,
// `t - u`) are not visible through an import of the struct alone (`import struct`).
@_exported import SimKernel

@_exported import struct ExplorationKit.ExplorationOutcome
@_exported import struct ExplorationKit.ExplorationReport
@_exported import struct ExplorationKit.Fault
@_exported import struct ExplorationKit.FaultSet
@_exported import struct ExplorationKit.Finding
