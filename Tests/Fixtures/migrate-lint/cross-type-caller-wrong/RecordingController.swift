import Speech

/// The twin of cross-type-caller: the capture is stopped and the analyzer is left waiting.
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
        let done = Task.detached {
            capture.stop()
        }
        await done.value
    }
}
