// What a team's tests use to drive Apple-style code on Linux: the simulated device (virtual
// microphone, permissions: `DeviceSettings`, `PermissionLedger`) and the engine choice
// (`EngineSelection`, `ScriptedEngine`, `EngineScript`). Off Linux this product is empty.
@_exported import Engines
@_exported import VirtualDevice
