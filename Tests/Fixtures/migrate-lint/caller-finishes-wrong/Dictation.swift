import AVFoundation
import Speech

/// The twin of caller-finishes: `pause()` calls the same helper and never finishes the analyzer,
/// so one path leaves the session waiting for input that will not come.
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
        inputBuilder?.finish() // lint: input-finish-without-analyzer-finish
        isRecording = false
    }

    func stop() async throws {
        stopAudio()
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
    }

    func pause() {
        stopAudio()
    }
}

/// Nobody in the type calls `end()`: there is no caller to follow, so it is reported.
final class Feeder {
    var continuation: AsyncStream<AnalyzerInput>.Continuation?

    func end() {
        continuation?.finish() // lint: input-finish-without-analyzer-finish
    }
}
