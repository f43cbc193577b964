import Speech

/// The twin of handler-two-levels: a failure below is only recorded, and the analyzer waits on.
@MainActor
final class Controller {
    private var analyzer: SpeechAnalyzer?
    private var service: RecognitionService?
    private(set) var lastError: String?

    func start(_ transcriber: SpeechTranscriber) async throws {
        let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        let service = RecognitionService(failureHandler: { [weak self] error in
            Task { @MainActor in self?.lastError = "\(error)" }
        })
        self.service = service
        service.start(continuation: continuation)
        try await analyzer.start(inputSequence: inputs)
    }

    func stop() async throws {
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
    }
}
