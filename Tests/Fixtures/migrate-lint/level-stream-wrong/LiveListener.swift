import AVFoundation
import Speech

/// The twin of level-stream: the second stream is the analyzer's input too, so ending it there
/// leaves the analyzer waiting.
actor LiveListener {
    private var analyzer: SpeechAnalyzer?
    private var input: AsyncStream<AnalyzerInput>.Continuation?
    private var levelContinuation: AsyncStream<AnalyzerInput>.Continuation?

    func levels() -> AsyncStream<AnalyzerInput> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            levelContinuation?.finish() // lint: input-finish-without-analyzer-finish
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
