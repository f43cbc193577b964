// `import Speech` on Linux: the reference SpeechAnalyzer family and the legacy SFSpeechRecognizer API, with the Foundation, CoreMedia and
// AVFAudio names its API is written in, as Apple's module makes them visible.
@_exported import AVFoundation
@_exported import Foundation
@_exported import LegacySpeech
@_exported import SpeechReference
