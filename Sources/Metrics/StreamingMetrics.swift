import SpeechCore

/// What a recogniser showed, and when, while one utterance streamed: the input to latency and
/// stability metrics. Times are seconds from the first sample (t = 0), on the pacing clock.
public struct StreamingTimeline: Sendable, Hashable, Codable {
    public struct Event: Sendable, Hashable, Codable {
        /// When the result was published.
        public var time: Double
        public var isFinal: Bool
        /// The words the result shows (normalised), and the audio span it covers.
        public var words: [String]
        public var rangeStart: Double
        public var rangeEnd: Double

        public init(time: Double, isFinal: Bool, words: [String], rangeStart: Double, rangeEnd: Double) {
            self.time = time
            self.isFinal = isFinal
            self.words = words
            self.rangeStart = rangeStart
            self.rangeEnd = rangeEnd
        }
    }

    /// A reference word and where it is in the audio.
    public typealias TimedWord = SpeechCore.TimedWord

    public var events: [Event]
    /// Reference words with their spans (from the corpus alignment); empty when unknown.
    public var referenceWords: [TimedWord]
    /// When the last audio arrived.
    public var audioEnd: Double
    /// When the program ended the input (the call that finalizes through the end of the audio);
    /// nil where it was not recorded.
    public var inputEndedAt: Double?

    public init(events: [Event], referenceWords: [TimedWord], audioEnd: Double, inputEndedAt: Double? = nil) {
        self.events = events
        self.referenceWords = referenceWords
        self.audioEnd = audioEnd
        self.inputEndedAt = inputEndedAt
    }

    /// The transcript as it stood after each event: final words so far plus the newest volatile
    /// words that start after them (volatile text replaces earlier volatile text).
    public var hypotheses: [[String]] {
        var finals: [String] = []
        var out: [[String]] = []
        for event in events {
            if event.isFinal {
                finals += event.words
                out.append(finals)
            } else {
                out.append(finals + event.words)
            }
        }
        return out
    }

    public var finalWords: [String] { events.filter(\.isFinal).flatMap(\.words) }
}

/// Latency and stability of one streamed utterance (seconds; nil where undefined).
public struct StreamingMeasures: Sendable, Hashable, Codable {
    /// First partial (any result with words) minus the first reference word's start.
    public var firstPartialLatency: Double?
    /// Time of the last final result minus the last reference word's end.
    public var finalizationLatency: Double?
    /// Per reference word: first time a hypothesis contained it (in order) minus the word's end.
    public var emissionDelays: [Double]
    /// Words shown and later withdrawn, over the final word count: Σ(|h_k| − LCP(h_k, h_k+1)) / |final|.
    public var unstablePartialWordRatio: Double?
    /// Whether any shown word was later revised.
    public var hadRevisions: Bool
    /// Audio end minus the time the transcript caught up with all final words.
    public var transcriptLag: Double?
    /// Per reference word, when it was first shown and when it became final (``WordLatencies``);
    /// nil without reference word times, and in records written before it was measured.
    public var wordLatencies: WordLatencies?
    /// Changes to text already shown (``Corrections``); nil in records written before it was counted.
    public var corrections: Corrections?
    /// The drain: from the call that ended the input to the last final result (0 when the final
    /// result was already there); nil without a recorded end of input or a final result.
    public var drain: Double?

    public init(
        firstPartialLatency: Double? = nil, finalizationLatency: Double? = nil, emissionDelays: [Double] = [],
        unstablePartialWordRatio: Double? = nil, hadRevisions: Bool = false, transcriptLag: Double? = nil
    ) {
        self.firstPartialLatency = firstPartialLatency
        self.finalizationLatency = finalizationLatency
        self.emissionDelays = emissionDelays
        self.unstablePartialWordRatio = unstablePartialWordRatio
        self.hadRevisions = hadRevisions
        self.transcriptLag = transcriptLag
    }

    public static func measure(_ timeline: StreamingTimeline) -> StreamingMeasures {
        let hypotheses = timeline.hypotheses
        let finals = timeline.finalWords
        var measures = StreamingMeasures(emissionDelays: [], hadRevisions: false)
        if let first = timeline.events.first(where: { !$0.words.isEmpty }),
            let onset = timeline.referenceWords.first?.start
        {
            measures.firstPartialLatency = first.time - onset
        }
        if let lastFinal = timeline.events.last(where: { $0.isFinal && !$0.words.isEmpty }),
            let end = timeline.referenceWords.last?.end
        {
            measures.finalizationLatency = lastFinal.time - end
        }
        // Emission delay: the first event whose hypothesis has reference word i in place (aligned by prefix).
        for (i, reference) in timeline.referenceWords.enumerated() {
            if let k = hypotheses.indices.first(where: {
                hypotheses[$0].count > i && hypotheses[$0][i] == reference.word
            }) {
                measures.emissionDelays.append(timeline.events[k].time - reference.end)
            }
        }
        var withdrawn = 0
        for (a, b) in zip(hypotheses, hypotheses.dropFirst()) {
            let common = zip(a, b).prefix { $0 == $1 }.count
            withdrawn += a.count - common
        }
        measures.hadRevisions = withdrawn > 0
        measures.unstablePartialWordRatio =
            finals.isEmpty ? (withdrawn == 0 ? 0 : nil) : Double(withdrawn) / Double(finals.count)
        if let last = timeline.events.last(where: \.isFinal) { measures.transcriptLag = last.time - timeline.audioEnd }
        if !timeline.referenceWords.isEmpty { measures.wordLatencies = WordLatencies.measure(timeline) }
        measures.corrections = Corrections.count(timeline)
        measures.drain = drain(timeline)
        return measures
    }

    /// From the end of the input to the last final result (see ``drain``).
    public static func drain(_ timeline: StreamingTimeline) -> Double? {
        guard let ended = timeline.inputEndedAt, let last = timeline.events.last(where: \.isFinal) else { return nil }
        return max(0, last.time - ended)
    }
}
