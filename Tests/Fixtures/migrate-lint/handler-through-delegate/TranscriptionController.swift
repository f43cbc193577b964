import Speech

/// Owns the analyzer and is its input's delegate: a failed input cancels the analysis.
@MainActor
final class TranscriptionController {
    private var analyzer: SpeechAnalyzer?
    private var input: AudioInput?
    private(set) var status = "idle"

    func start(_ transcriber: SpeechTranscriber) async throws {
        let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        let input = AudioInput(continuation: continuation)
        input.delegate = self
        self.input = input
        try await analyzer.start(inputSequence: inputs)
    }

    func stop() async throws {
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
    }
}

extension TranscriptionController: AudioInputDelegate {
    nonisolated func audioInput(_ input: AudioInput, didFailWith error: Error) {
        Task { @MainActor in
            status = "failed: \(error)"
            await analyzer?.cancelAndFinishNow()
        }
    }
}
