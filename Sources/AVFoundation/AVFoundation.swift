// `import AVFoundation` on Linux: the audio classes and CoreMedia times speech code needs.
@_exported import AVFAudio
@_exported import CoreMedia
