// Deprecated: the engines product of releases before 0.1.0, kept one release so that a team's package
// that imported it still builds. It re-exports the modules that replaced it; it will be removed in
// 0.2.0. Use `SpeechHarnessTesting` (for `ScriptedEngine`) or the engine's own product.
@_exported import DSPRecognizer
@_exported import EngineCore
@_exported import PocketSphinx
@_exported import Workers
