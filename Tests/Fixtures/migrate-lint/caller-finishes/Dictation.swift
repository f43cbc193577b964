import AVFoundation
import Speech

/// Stopping is split in two: `stopAudio()` ends the input, and every caller finishes the analyzer
/// right after it. Each function alone looks incomplete; the type as a whole is right.
@MainActor
final class Dictation {
    private var inputBuilder: AsyncStream<AnalyzerInput>.Continuation?
    private var analyzer: SpeechAnalyzer?
    private let audioEngine = AVAudioEngine()
    private(set) var isRecording = false

    func start(with transcriber: SpeechTranscriber) async throws {
        let (sequence, builder) = AsyncStream<AnalyzerInput>.makeStream()
        inputBuilder = builder
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        try await analyzer.start(inputSequence: sequence)
        isRecording = true
    }

    private func stopAudio() {
        audioEngine.stop()
        audioEngine.inputNode.removeTap(onBus: 0)
        inputBuilder?.finish()
        isRecording = false
    }

    func stop() async throws {
        stopAudio()
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
    }

    /// Reached through `stop()`: two calls deep, still finished.
    func toggle() async throws {
        if isRecording { try await stop() }
    }
}

extension Dictation {
    /// The same type, declared in an extension.
    func abandon() async {
        self.stopAudio()
        await analyzer?.cancelAndFinishNow()
    }
}
