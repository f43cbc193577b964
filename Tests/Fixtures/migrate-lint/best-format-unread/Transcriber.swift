import AVFoundation
import Speech

/// Keeps the analyzer's format, and nothing reads it (buffers go in as they come: a mistake of another kind).
final class Transcriber {
    var analyzer: SpeechAnalyzer?
    var analyzerFormat: AVAudioFormat? = nil
}
