import Speech

/// The twin of handler-through-reducer: `.recognitionFailed` only changes the state, and the
/// analyzer waits on for input that will never come.
@MainActor
final class DictationModel {
    enum Action {
        case startTapped(SpeechTranscriber)
        case stopTapped
        case recognitionFailed(Error)
    }

    enum State { case idle, listening, failed(String) }

    private(set) var state = State.idle
    private var analyzer: SpeechAnalyzer?
    private var service: RecognitionService?

    func send(_ action: Action) {
        switch action {
        case .startTapped(let transcriber):
            state = .listening
            Task { try await begin(transcriber) }
        case .stopTapped:
            state = .idle
            Task { try await analyzer?.finalizeAndFinishThroughEndOfInput() }
        case .recognitionFailed(let error):
            state = .failed("\(error)")
        }
    }

    private func begin(_ transcriber: SpeechTranscriber) async throws {
        let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        let service = RecognitionService(failureHandler: { [weak self] error in
            Task { @MainActor in self?.send(.recognitionFailed(error)) }
        })
        self.service = service
        service.start(continuation: continuation)
        try await analyzer.start(inputSequence: inputs)
    }
}
