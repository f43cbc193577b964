import Speech

/// Owns the analyzer: a failure anywhere below cancels it.
@MainActor
final class Controller {
    private var analyzer: SpeechAnalyzer?
    private var service: RecognitionService?

    func start(_ transcriber: SpeechTranscriber) async throws {
        let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        let service = RecognitionService(failureHandler: { [weak self] _ in
            Task { @MainActor in await self?.analyzer?.cancelAndFinishNow() }
        })
        self.service = service
        service.start(continuation: continuation)
        try await analyzer.start(inputSequence: inputs)
    }

    func stop() async throws {
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
    }
}
