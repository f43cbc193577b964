/// A word and its span in the audio, in seconds: a corpus alignment, a final transcript, a trace.
public struct TimedWord: Sendable, Hashable, Codable {
    public var word: String
    public var start: Double
    public var end: Double

    public init(word: String, start: Double, end: Double) {
        self.word = word
        self.start = start
        self.end = end
    }
}
