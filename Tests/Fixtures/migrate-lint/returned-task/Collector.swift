import Speech

/// Reads the transcriber's results in a task a helper makes and returns; the session keeps it.
final class Collector {
    private var collector: Task<Void, Never>?
    private(set) var text = ""

    func begin(_ transcriber: SpeechTranscriber) {
        collector = Self.collect(from: transcriber) { [weak self] piece in self?.text += piece }
    }

    func end() async {
        await collector?.value
        collector = nil
    }

    private static func collect(
        from transcriber: SpeechTranscriber, onText: @escaping @Sendable (String) -> Void
    ) -> Task<Void, Never> {
        Task {
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
