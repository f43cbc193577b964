// What a team's tests use to drive Apple-style code on Linux: the context the code runs under
// (`HarnessContext`: the engine choice, the simulated device, the settings), the simulated device
// (virtual microphone, permissions: `DeviceSettings`, `PermissionLedger`) and the engines
// (`EngineRegistry`, `ScriptedEngine`, `EngineScript`). Linking this product also
// links the composition point, so every engine id works in the test program. Off Linux this
// product is empty.
@_exported import EngineCore
@_exported import SpeechCore
@_exported import VirtualDevice
