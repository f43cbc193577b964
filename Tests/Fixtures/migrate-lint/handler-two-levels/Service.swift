import Speech

/// Owns the input; passes failures up through the handler its owner gave it.
final class RecognitionService {
    private let failureHandler: @Sendable (Error) -> Void
    private var input: AudioInput?

    init(failureHandler: @escaping @Sendable (Error) -> Void) {
        self.failureHandler = failureHandler
    }

    func start(continuation: AsyncStream<AnalyzerInput>.Continuation) {
        input = AudioInput(continuation: continuation, onError: failureHandler)
    }
}
