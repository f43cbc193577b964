import Metrics
import SpeechCore

/// One entry of a corpus: an audio file (or a part of one), what is said in it, and who says it.
///
/// This is the record of our JSON-lines manifest format (see `Corpus/README.md`); the Kaldi,
/// LibriSpeech and NeMo readers produce the same record.
public struct Utterance: Codable, Sendable, Hashable {
    public var id: String
    /// Audio path, relative to the manifest's directory unless absolute.
    public var audio: String
    /// What is said, in the tier's normal form (digits and symbols written as words).
    public var reference: String
    /// BCP-47 language tag, e.g. `en-US`.
    public var locale: String
    public var speaker: String
    /// The recognition task: `digits`, `commands`, `prompts`, `read`, …
    public var task: String
    /// Seconds of audio the utterance covers.
    public var duration: Double
    /// Where the utterance starts within the audio file, in seconds (segments of longer recordings).
    public var offset: Double?
    /// The corpus tier it belongs to, e.g. `real-digits-en`.
    public var tier: String?
    /// `enrollment` (may build engine templates) or `test` (never used for enrollment).
    public var split: Split?
    /// Word times where they are known exactly (from construction or a forced alignment).
    public var words: [AlignedWord]?

    public enum Split: String, ClosedSetValue, Encodable {
        case enrollment, test
        public static let valueName = "split"
    }

    /// Whether a run restricted to `split` (nil: no restriction) takes this utterance; one
    /// without a split of its own is taken by any run.
    public func isIncluded(in split: Split?) -> Bool {
        split == nil || self.split == nil || self.split == split
    }

    /// A word and its span in the audio (seconds).
    public typealias AlignedWord = StreamingTimeline.TimedWord

    public init(
        id: String, audio: String, reference: String, locale: String, speaker: String, task: String,
        duration: Double, offset: Double? = nil, tier: String? = nil, split: Split? = nil,
        words: [AlignedWord]? = nil
    ) {
        self.id = id
        self.audio = audio
        self.reference = reference
        self.locale = locale
        self.speaker = speaker
        self.task = task
        self.duration = duration
        self.offset = offset
        self.tier = tier
        self.split = split
        self.words = words
    }

    /// Number of whitespace-separated words in the reference.
    public var wordCount: Int { reference.split(whereSeparator: \.isWhitespace).count }
}
