import AVFoundation
import Speech

/// The twin of handler-from-another-type: the failure handler only records the error, and `stop()`
/// closes the feeder without finishing the analyzer.
@MainActor
final class TranscriptionSession {
    private var analyzer: SpeechAnalyzer?
    private var feeder: AudioFeeder?
    private(set) var lastError: String?

    func start(with transcriber: SpeechTranscriber, converter: AVAudioConverter) async throws {
        let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        feeder = AudioFeeder(
            continuation: continuation, converter: converter,
            onFailure: { [weak self] error in
                Task { @MainActor in self?.lastError = "\(error)" }
            })
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        try await analyzer.start(inputSequence: inputs)
    }

    func stop() async throws {
        feeder?.close()
        analyzer = nil
    }
}
