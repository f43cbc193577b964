import AVFoundation
import Speech

/// The optional format is kept on the type and unwrapped where it is used: every read of the stored
/// property handles nil, so storing it was not a mistake.
final class Feeder {
    private var analyzerFormat: AVAudioFormat?
    private var fallbackFormat: AVAudioFormat?
    private var continuation: AsyncStream<AnalyzerInput>.Continuation?

    enum FeedError: Error { case notPrepared }

    func prepare(_ transcriber: SpeechTranscriber) async {
        analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
        let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber, transcriber])
        self.fallbackFormat = format
    }

    func feed(_ buffer: AVAudioPCMBuffer) throws {
        guard let continuation, let analyzerFormat else { throw FeedError.notPrepared }
        let converter = AnalyzerInputConverter(analyzerFormat: analyzerFormat)
        for input in try converter.convert(buffer, at: nil) { continuation.yield(input) }
    }

    func describe() -> String {
        if let fallbackFormat { return "\(fallbackFormat.sampleRate) Hz" }
        return "no format"
    }
}
