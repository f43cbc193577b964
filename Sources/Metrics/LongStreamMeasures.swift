/// One recording placed in a long stream: where it sits and what is said in it.
public struct LongStreamPiece: Sendable, Hashable, Codable {
    public var id: String
    /// Seconds from the stream's first sample.
    public var start: Double
    public var end: Double
    /// The reference words (normalised).
    public var words: [String]
    /// Each word's end in the stream, where the recording has word times.
    public var wordEnds: [Double]?

    public init(id: String, start: Double, end: Double, words: [String], wordEnds: [Double]? = nil) {
        self.id = id
        self.start = start
        self.end = end
        self.words = words
        self.wordEnds = wordEnds
    }
}

/// What was measured while a long stream played, besides the results: cumulative compute and
/// resident memory against the audio time they were read at.
public struct LongStreamSamples: Sendable, Hashable, Codable {
    public struct Reading: Sendable, Hashable, Codable {
        /// Audio seconds streamed when read.
        public var audio: Double
        /// Engine CPU seconds spent so far.
        public var compute: Double
        /// This process's resident memory, bytes.
        public var toolResident: Int?
        /// The engine's worker processes' resident memory, bytes (nil: none).
        public var workerResident: Int?

        public init(audio: Double, compute: Double, toolResident: Int? = nil, workerResident: Int? = nil) {
            self.audio = audio
            self.compute = compute
            self.toolResident = toolResident
            self.workerResident = workerResident
        }
    }

    public var readings: [Reading]

    public init(readings: [Reading] = []) { self.readings = readings }
}

/// Everything one engine showed while a long stream played, and the readings taken meanwhile:
/// what the minute-by-minute figures are computed from.
public struct LongStreamTrace: Sendable, Hashable, Codable {
    public var events: [StreamingTimeline.Event]
    public var pieces: [LongStreamPiece]
    public var samples: LongStreamSamples
    public var audioSeconds: Double
    public var inputEndedAt: Double?

    public init(
        events: [StreamingTimeline.Event], pieces: [LongStreamPiece], samples: LongStreamSamples,
        audioSeconds: Double, inputEndedAt: Double?
    ) {
        self.events = events
        self.pieces = pieces
        self.samples = samples
        self.audioSeconds = audioSeconds
        self.inputEndedAt = inputEndedAt
    }

    public var figures: LongStreamMeasures.Figures {
        LongStreamMeasures.measure(
            events: events, pieces: pieces, finalWords: events.filter(\.isFinal).flatMap(\.words), samples: samples,
            audioSeconds: audioSeconds)
    }
}

/// One minute of a long stream, as the engine heard it.
public struct LongStreamMinute: Sendable, Hashable, Codable {
    /// 0 for the first minute.
    public var minute: Int
    /// Errors of the final words against the reference words of the minute's recordings.
    public var words: ErrorCounts
    /// Reference words with times that were ever shown (hypothesis) or made final (confirmed).
    public var hypothesisWords: Int
    public var confirmedWords: Int
    public var hypothesisP50: Double?
    public var hypothesisP90: Double?
    public var confirmedP50: Double?
    public var confirmedP90: Double?
    /// Engine CPU seconds per audio second in this minute.
    public var cpuPerAudioSecond: Double?
    /// Highest resident memory read in this minute, bytes.
    public var toolResidentPeak: Int?
    public var workerResidentPeak: Int?

    public init(minute: Int, words: ErrorCounts = ErrorCounts(), hypothesisWords: Int = 0, confirmedWords: Int = 0) {
        self.minute = minute
        self.words = words
        self.hypothesisWords = hypothesisWords
        self.confirmedWords = confirmedWords
    }

    public var wer: Double { words.errorRate }
}

/// Minute-by-minute figures of one long stream: per-word latency, WER, CPU and memory over the
/// session, to show drift. A word belongs to the minute its end falls in (a word without times,
/// to the minute its recording ends in).
///
/// Per-word latency is placed as in ``WordLatencies`` (a reference word counts once the sclite
/// alignment matches it), but each result is aligned only with the recordings its audio range
/// overlaps (a second of margin each side): a whole-stream alignment per result would cost the
/// square of the stream's length for every result. Where a result covers more than
/// ``windowLimit`` seconds, only its last ``windowLimit`` seconds of recordings, and as many of its
/// last words, are aligned.
public enum LongStreamMeasures {
    public static let windowLimit = 60.0

    /// The minutes, and per recording the latencies of its words (for whole-stream percentiles
    /// resampled by recording).
    public struct Figures: Sendable {
        public var minutes: [LongStreamMinute]
        public var hypothesisByPiece: [[Double]]
        public var confirmedByPiece: [[Double]]
    }

    public static func measure(
        events: [StreamingTimeline.Event], pieces: [LongStreamPiece], finalWords: [String],
        samples: LongStreamSamples, audioSeconds: Double
    ) -> Figures {
        let count = max(1, Int((audioSeconds / 60).rounded(.up)))
        func minute(_ time: Double) -> Int { min(count - 1, max(0, Int(time / 60))) }
        let reference = ReferenceIndex(pieces)
        var out = (0..<count).map {
            LongStreamMinute(minute: $0, words: ErrorCounts(), hypothesisWords: 0, confirmedWords: 0)
        }

        // WER: one alignment of every final word with the whole reference, each step counted in
        // the minute of its reference word (an insertion, in that of the word before it).
        var position = 0
        for step in WordAligner.align(reference: reference.words, hypothesis: finalWords).steps {
            let anchor = min(max(0, position - (step.isInsertion ? 1 : 0)), reference.count - 1)
            let slot = anchor < 0 ? 0 : minute(reference.times[anchor])
            switch step {
            case .correct: out[slot].words.hits += 1
            case .substitution: out[slot].words.substitutions += 1
            case .deletion: out[slot].words.deletions += 1
            case .insertion: out[slot].words.insertions += 1
            }
            if !step.isInsertion { position += 1 }
        }

        // Latencies: the first result that shows each timed word, and the first final one.
        var shown = [Double?](repeating: nil, count: reference.count)
        var confirmed = [Double?](repeating: nil, count: reference.count)
        for event in events where !event.words.isEmpty {
            let window = reference.window(from: event.rangeStart, to: event.rangeEnd)
            guard !window.isEmpty else { continue }
            let hypothesis = event.words.suffix(
                event.rangeEnd - event.rangeStart > windowLimit ? 2 * window.count + 20 : event.words.count)
            let alignment = WordAligner.align(reference: Array(reference.words[window]), hypothesis: Array(hypothesis))
            for (offset, _) in alignment.matchedPositions {
                let index = window.lowerBound + offset
                guard let end = reference.ends[index] else { continue }
                if shown[index] == nil { shown[index] = event.time - end }
                if event.isFinal, confirmed[index] == nil { confirmed[index] = event.time - end }
            }
        }
        var hypothesisByMinute = [[Double]](repeating: [], count: count)
        var confirmedByMinute = [[Double]](repeating: [], count: count)
        for index in 0..<reference.count {
            let slot = minute(reference.times[index])
            if let value = shown[index] { hypothesisByMinute[slot].append(value) }
            if let value = confirmed[index] { confirmedByMinute[slot].append(value) }
        }
        for slot in 0..<count {
            let h = hypothesisByMinute[slot].sorted(), c = confirmedByMinute[slot].sorted()
            out[slot].hypothesisWords = h.count
            out[slot].confirmedWords = c.count
            if !h.isEmpty {
                out[slot].hypothesisP50 = ErrorRateStatistics.percentile(h, 0.5)
                out[slot].hypothesisP90 = ErrorRateStatistics.percentile(h, 0.9)
            }
            if !c.isEmpty {
                out[slot].confirmedP50 = ErrorRateStatistics.percentile(c, 0.5)
                out[slot].confirmedP90 = ErrorRateStatistics.percentile(c, 0.9)
            }
        }

        // CPU: compute spent between the last reading of the minute before and the last of this
        // one; the final reading (after the input ended) counts in the last minute.
        var previous = 0.0
        for slot in 0..<count {
            let inMinute = samples.readings.filter { reading in
                let m = reading.audio >= audioSeconds ? count - 1 : minute(reading.audio)
                return m == slot
            }
            guard let last = inMinute.last else { continue }
            let audio = min(audioSeconds, Double(slot + 1) * 60) - Double(slot) * 60
            if audio > 0 { out[slot].cpuPerAudioSecond = (last.compute - previous) / audio }
            previous = last.compute
            out[slot].toolResidentPeak = inMinute.compactMap(\.toolResident).max()
            out[slot].workerResidentPeak = inMinute.compactMap(\.workerResident).max()
        }
        let byPiece = { (values: [Double?]) in
            reference.spans.map { span in span.words.compactMap { values[$0] } }
        }
        return Figures(minutes: out, hypothesisByPiece: byPiece(shown), confirmedByPiece: byPiece(confirmed))
    }

    /// The reference words of every piece in stream order, with the time each belongs to.
    struct ReferenceIndex {
        var words: [String] = []
        /// Each word's end where known.
        var ends: [Double?] = []
        /// The time that places the word in a minute: its end, else its piece's end.
        var times: [Double] = []
        /// Per piece, its span and its words' range.
        var spans: [(start: Double, end: Double, words: Range<Int>)] = []

        var count: Int { words.count }

        init(_ pieces: [LongStreamPiece]) {
            for piece in pieces.sorted(by: { $0.start < $1.start }) {
                let first = words.count
                words += piece.words
                let timed = piece.wordEnds?.count == piece.words.count ? piece.wordEnds : nil
                for index in piece.words.indices {
                    ends.append(timed?[index])
                    times.append(timed?[index] ?? piece.end)
                }
                spans.append((piece.start, piece.end, first..<words.count))
            }
        }

        /// The words of the pieces overlapping [start − 1 s, end + 1 s], at most the last
        /// `windowLimit` seconds of them.
        func window(from start: Double, to end: Double) -> Range<Int> {
            let low = max(start, end - LongStreamMeasures.windowLimit) - 1, high = end + 1
            // Pieces are in order and do not overlap: find the first ending after `low`.
            var lo = 0, hi = spans.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if spans[mid].end < low { lo = mid + 1 } else { hi = mid }
            }
            var last = lo
            while last < spans.count, spans[last].start <= high { last += 1 }
            guard lo < last else { return 0..<0 }
            return spans[lo].words.lowerBound..<spans[last - 1].words.upperBound
        }
    }
}

extension AlignmentStep {
    var isInsertion: Bool {
        if case .insertion = self { return true }
        return false
    }
}
