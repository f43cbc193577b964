import AVFoundation
import Speech

/// Failure paths end the input and hand over to code whose job is to cancel the analyzer: a
/// stored closure set up in `init`, and a method that tears down through another method.
final class Session {
    private var continuation: AsyncStream<AnalyzerInput>.Continuation?
    private var analyzer: SpeechAnalyzer?
    private let converter: AnalyzerInputConverter
    private var onFailure: (() async -> Void)?

    init(analyzer: SpeechAnalyzer, format: AVAudioFormat) {
        self.analyzer = analyzer
        converter = AnalyzerInputConverter(analyzerFormat: format)
        onFailure = { [weak self] in
            await self?.analyzer?.cancelAndFinishNow()
        }
    }

    func feed(_ buffer: AVAudioPCMBuffer) async {
        do {
            for input in try converter.convert(buffer, at: nil) { continuation?.yield(input) }
        } catch {
            continuation?.finish()
            await onFailure?()
        }
    }

    func interrupted() async {
        continuation?.finish()
        await fail(reason: "audio session interrupted")
    }

    private func fail(reason: String) async {
        print("transcription stopped: \(reason)")
        await tearDown()
    }

    private func tearDown() async {
        await analyzer?.cancelAndFinishNow()
        analyzer = nil
    }
}
