import AVFoundation
import Speech

/// Owns the analyzer: the feeder's failure handler cancels it, and `stop()` finishes it before
/// closing the feeder.
@MainActor
final class TranscriptionSession {
    private var analyzer: SpeechAnalyzer?
    private var feeder: AudioFeeder?

    func start(with transcriber: SpeechTranscriber, converter: AVAudioConverter) async throws {
        let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        feeder = AudioFeeder(
            continuation: continuation, converter: converter,
            onFailure: { [weak self] _ in
                Task { await self?.abort() }
            })
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        try await analyzer.start(inputSequence: inputs)
    }

    func abort() async {
        await analyzer?.cancelAndFinishNow()
    }

    func stop() async throws {
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
        feeder?.close()
    }
}
