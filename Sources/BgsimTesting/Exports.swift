// A test file imports `BgsimTesting` alone: the bridge (and through it `Simulation`, `SimTime`,
// `SimDuration`, the models and the trace) and the exploration's types.
@_exported import BgsimFoundation

@_exported import struct ExplorationKit.ExplorationOutcome
@_exported import struct ExplorationKit.ExplorationReport
@_exported import struct ExplorationKit.Fault
@_exported import struct ExplorationKit.FaultSet
@_exported import struct ExplorationKit.Finding
