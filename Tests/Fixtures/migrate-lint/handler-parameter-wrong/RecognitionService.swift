import Speech

/// Owns the analyzer; a session's failures go to the handler `start` is given.
actor RecognitionService {
    private var analyzer: SpeechAnalyzer?
    private var input: MicrophoneInput?

    func start(_ transcriber: SpeechTranscriber, failureHandler: @escaping @Sendable (String) -> Void) async throws {
        let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        input = MicrophoneInput(
            continuation: continuation,
            failureHandler: { error in
                failureHandler(error.localizedDescription)
            })
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        try await analyzer.start(inputSequence: inputs)
    }

    func cancel() async {
        await analyzer?.cancelAndFinishNow()
    }
}
