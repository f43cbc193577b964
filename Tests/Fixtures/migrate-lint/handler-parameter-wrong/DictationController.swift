import Speech

/// The twin of handler-parameter: the controller calls the service itself, and the handler it
/// passes only shows the message, so the analyzer waits on for input that will never come.
@MainActor
final class DictationController {
    private let service: RecognitionService
    private(set) var message: String?

    init(service: RecognitionService) {
        self.service = service
    }

    func begin(_ transcriber: SpeechTranscriber) async throws {
        try await service.start(transcriber, failureHandler: { [weak self] text in
            Task { @MainActor in self?.message = text }
        })
    }
}
