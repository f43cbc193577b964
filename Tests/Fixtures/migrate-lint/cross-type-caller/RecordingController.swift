import Speech

/// Holds the capture in a local; stopping it and finishing the analyzer happen together, in a
/// detached task.
final class RecordingController {
    private let analyzer: SpeechAnalyzer

    init(transcriber: SpeechTranscriber) {
        analyzer = SpeechAnalyzer(modules: [transcriber])
    }

    func record(for seconds: Double) async throws {
        let capture = AudioCapture()
        try capture.start()
        try await analyzer.start(inputSequence: capture.inputs)
        try await Task.sleep(for: .seconds(seconds))
        let analyzer = self.analyzer
        let done = Task.detached {
            capture.stop()
            try await analyzer.finalizeAndFinishThroughEndOfInput()
        }
        try await done.value
    }
}
