import Speech

/// Owns the input; hands its failures up through the handler its owner gave it.
final class RecognitionService {
    private let failureHandler: @Sendable (Error) -> Void
    private var input: MicrophoneInput?

    init(failureHandler: @escaping @Sendable (Error) -> Void) {
        self.failureHandler = failureHandler
    }

    func start(continuation: AsyncStream<AnalyzerInput>.Continuation) {
        input = MicrophoneInput(continuation: continuation, onError: failureHandler)
    }
}
