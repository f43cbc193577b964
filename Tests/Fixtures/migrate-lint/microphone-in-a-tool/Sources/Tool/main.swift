import AVFoundation

// A command-line tool captures the microphone with no Info.plist: there is nothing to declare in.
let engine = AVAudioEngine()
engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in print(buffer.frameLength) }
try engine.start()
