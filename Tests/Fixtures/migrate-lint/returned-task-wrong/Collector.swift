import Speech

/// The twin of returned-task: the helper starts the task and returns nothing, so nothing keeps it.
final class Collector {
    private var collector: Task<Void, Never>?
    private(set) var text = ""

    func begin(_ transcriber: SpeechTranscriber) {
        Self.collect(from: transcriber) { [weak self] piece in self?.text += piece }
    }

    func end() async {
        await collector?.value
        collector = nil
    }

    private static func collect(
        from transcriber: SpeechTranscriber, onText: @escaping @Sendable (String) -> Void
    ) {
        Task { // lint: untracked-result-task
            do {
                for try await result in transcriber.results where result.isFinal {
                    onText(String(result.text.characters))
                }
            } catch {
                onText("")
            }
        }
    }
}
