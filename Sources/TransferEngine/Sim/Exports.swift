// `SimTime`, `SimDuration`, the trace types and the seeded generator are part of the engine's
// API: `import TransferEngine` alone is enough to build a world and read its trace.
@_exported import SimKernel
