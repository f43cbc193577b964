import AVFoundation
import Speech

/// Microphone capture that feeds the analyzer's input. It does not own the analyzer: whoever
/// holds it stops it and then finishes the analyzer.
final class AudioCapture: @unchecked Sendable {
    let inputs: AsyncStream<AnalyzerInput>
    private let continuation: AsyncStream<AnalyzerInput>.Continuation
    private let engine = AVAudioEngine()

    init() {
        (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
    }

    func start() throws {
        let continuation = self.continuation
        engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in
            continuation.yield(AnalyzerInput(buffer: buffer))
        }
        try engine.start()
    }

    func stop() {
        engine.stop()
        engine.inputNode.removeTap(onBus: 0)
        continuation.finish()
    }
}
