import Speech

/// A state machine over the analyzer: events come in as actions, and `send` decides what each one
/// does. A failure from below arrives as `.recognitionFailed` and cancels the analysis.
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
            Task { await analyzer?.cancelAndFinishNow() }
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
