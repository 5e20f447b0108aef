@_exported import struct ScenarioKit.ExpectationResult
@_exported import struct ScenarioKit.RunResult
@_exported import struct ScenarioKit.ScenarioErrors
@_exported import enum ScenarioKit.ScenarioLoader
@_exported import enum ScenarioKit.ScenarioRunner
@_exported import struct SimKernel.DeterminismCheck
@_exported import struct SimKernel.SimDuration
@_exported import struct SimKernel.SimTime
@_exported import struct SimKernel.TraceEvent
@_exported import struct SimKernel.TraceField
@_exported import struct SimKernel.TraceLog
@_exported import enum SimKernel.TraceValue
@_exported import enum TransferEngine.AppState
@_exported import enum TransferEngine.AuthenticationMethod
@_exported import struct TransferEngine.DataRate
@_exported import struct TransferEngine.DeviceModel
@_exported import struct TransferEngine.IOSVersion
@_exported import enum TransferEngine.InterfaceKind
@_exported import enum TransferEngine.LaunchReason
@_exported import struct TransferEngine.NetworkState
@_exported import struct TransferEngine.Policy
@_exported import struct TransferEngine.PowerState
@_exported import struct TransferEngine.ProtectionSpace
@_exported import enum TransferEngine.ResumableUploadDraft
@_exported import struct TransferEngine.ServerChange
@_exported import enum TransferEngine.ServerFault
@_exported import struct TransferEngine.ServerModel
@_exported import struct TransferEngine.ServerResource
@_exported import struct TransferEngine.SimURL
// What a test needs to build a world and read a trace, so `import BgsimFoundation` alone is
// enough. Engine names an app may define itself (`SessionConfiguration`, `AppContext`, the
// `Sim*` session types) are left out so an app's own types never clash with them.
@_exported import class TransferEngine.Simulation
@_exported import struct TransferEngine.Step
