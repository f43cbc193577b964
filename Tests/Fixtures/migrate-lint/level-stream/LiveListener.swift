import AVFoundation
import Speech

/// Feeds the analyzer from the microphone and publishes input levels on a stream of its own. The
/// level stream's continuation is handed a closure parameter named like the input's; ending it
/// leaves the analyzer alone.
actor LiveListener {
    private var analyzer: SpeechAnalyzer?
    private var input: AsyncStream<AnalyzerInput>.Continuation?
    private var levelContinuation: AsyncStream<Double>.Continuation?

    func levels() -> AsyncStream<Double> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            levelContinuation?.finish()
            levelContinuation = continuation
        }
    }

    func start(_ transcriber: SpeechTranscriber) async throws {
        let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        input = continuation
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        try await analyzer.start(inputSequence: inputs)
    }

    func stop() async throws {
        input?.finish()
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
    }
}
