import AVFoundation
import Speech

/// Keeps the analyzer's format and converts each buffer to it, force-unwrapping it.
final class Transcriber {
    var analyzer: SpeechAnalyzer?
    var analyzerFormat: AVAudioFormat? = nil

    func feed(_ buffer: AVAudioPCMBuffer) -> AVAudioConverter? {
        AVAudioConverter(from: buffer.format, to: analyzerFormat!)
    }
}
