import AVFoundation

/// An app target (it has an Info.plist) that captures the microphone without declaring why.
final class Recorder {
    private let engine = AVAudioEngine() // lint: missing-usage-description

    func start() throws {
        engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in print(buffer.frameLength) }
        try engine.start()
    }
}
