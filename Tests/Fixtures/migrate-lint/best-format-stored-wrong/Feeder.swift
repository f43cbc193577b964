import AVFoundation
import Speech

/// The twin of best-format-stored: the stored formats are read as if they were always there.
final class Feeder {
    private var analyzerFormat: AVAudioFormat?
    private var fallbackFormat: AVAudioFormat?
    private var continuation: AsyncStream<AnalyzerInput>.Continuation?

    func prepare(_ transcriber: SpeechTranscriber) async {
        analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]) // lint: unguarded-best-format
        let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber, transcriber]) // lint: unguarded-best-format
        self.fallbackFormat = format
    }

    func feed(_ buffer: AVAudioPCMBuffer) throws {
        let converter = AnalyzerInputConverter(analyzerFormat: analyzerFormat!)
        for input in try converter.convert(buffer, at: nil) { continuation?.yield(input) }
    }

    func describe() -> String {
        "\(fallbackFormat!.sampleRate) Hz"
    }
}
