// `import AVFoundation` on Linux: the audio classes, CoreMedia times and content types speech code
// needs, and AVCaptureDevice's microphone permission.
@_exported import AVFAudio
@_exported import CoreMedia
// As on Apple's platforms, the framework brings Foundation with it.
@_exported import Foundation
@_exported import UniformTypeIdentifiers
