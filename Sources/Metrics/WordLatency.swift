import SpeechCore

/// When each reference word was shown and when it became final, against the word's end in the
/// audio: the per-word latencies streaming benchmarks report (OpenBench's hypothesis and
/// confirmed latency; docs/scoring.md says where the definitions differ). Words are placed by the
/// sclite alignment of the reference with what the recogniser showed at each result.
public struct WordLatencies: Sendable, Hashable, Codable {
    /// Per reference word the recogniser ever showed correctly: the first time it was shown
    /// (in a volatile or a final result) minus the word's end.
    public var hypothesis: [Double]
    /// Per reference word a final result holds: the time of that result minus the word's end.
    public var confirmed: [Double]

    public init(hypothesis: [Double] = [], confirmed: [Double] = []) {
        self.hypothesis = hypothesis
        self.confirmed = confirmed
    }

    /// The latencies of one streamed utterance; empty without reference word times.
    public static func measure(_ timeline: StreamingTimeline) -> WordLatencies {
        let reference = timeline.referenceWords
        guard !reference.isEmpty else { return WordLatencies() }
        let words = reference.map(\.word)
        var shown = [Double?](repeating: nil, count: reference.count)
        var confirmed = [Double?](repeating: nil, count: reference.count)
        var finals: [String] = []
        for (event, hypothesis) in zip(timeline.events, timeline.hypotheses) {
            for (index, _) in WordAligner.align(reference: words, hypothesis: hypothesis).matchedPositions
            where shown[index] == nil {
                shown[index] = event.time - reference[index].end
            }
            guard event.isFinal, !event.words.isEmpty else { continue }
            finals += event.words
            for (index, _) in WordAligner.align(reference: words, hypothesis: finals).matchedPositions
            where confirmed[index] == nil {
                confirmed[index] = event.time - reference[index].end
            }
        }
        return WordLatencies(hypothesis: shown.compactMap { $0 }, confirmed: confirmed.compactMap { $0 })
    }
}

/// A latency distribution pooled over utterances: P50, P90 and P99 with 95% intervals from the
/// utterance bootstrap (words of one utterance are resampled together, as their latencies are
/// not independent).
public struct LatencyPercentiles: Sendable, Hashable, Codable {
    public var words: Int
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var p50CI95: [Double]
    public var p90CI95: [Double]
    public var p99CI95: [Double]

    /// Nil when no utterance has a latency.
    public static func make(
        _ utterances: [[Double]], resamples: Int = 1_000, seed: UInt64 = 1
    ) -> LatencyPercentiles? {
        let pooled = utterances.flatMap { $0 }.sorted()
        guard !pooled.isEmpty else { return nil }
        let groups = utterances.filter { !$0.isEmpty }
        var rng = SeededGenerator(seed: seed)
        let quantiles = [0.5, 0.9, 0.99]
        var resampled = [[Double]](repeating: [], count: quantiles.count)
        for _ in 0..<resamples {
            var sample: [Double] = []
            for _ in groups.indices { sample += groups[Int(rng.next() % UInt64(groups.count))] }
            sample.sort()
            for (slot, q) in quantiles.enumerated() {
                resampled[slot].append(ErrorRateStatistics.percentile(sample, q))
            }
        }
        let intervals = resampled.map { values -> [Double] in
            let sorted = values.sorted()
            return [ErrorRateStatistics.percentile(sorted, 0.025), ErrorRateStatistics.percentile(sorted, 0.975)]
        }
        return LatencyPercentiles(
            words: pooled.count, p50: ErrorRateStatistics.percentile(pooled, 0.5),
            p90: ErrorRateStatistics.percentile(pooled, 0.9), p99: ErrorRateStatistics.percentile(pooled, 0.99),
            p50CI95: intervals[0], p90CI95: intervals[1], p99CI95: intervals[2])
    }
}

/// Changes to text already shown, counted between each result and the next as OpenBench counts
/// them (`num_corrections.py`): the new transcript is aligned to the one before by plain edit
/// distance (jiwer's), and every shown word replaced, withdrawn, or added before the end of what
/// was shown counts once. Words appended after what was shown are not corrections.
public struct Corrections: Sendable, Hashable, Codable {
    /// Shown words replaced by another word.
    public var substitutions = 0
    /// Shown words withdrawn.
    public var deletions = 0
    /// Words put in among the shown ones.
    public var insertions = 0

    public init(substitutions: Int = 0, deletions: Int = 0, insertions: Int = 0) {
        self.substitutions = substitutions
        self.deletions = deletions
        self.insertions = insertions
    }

    public var total: Int { substitutions + deletions + insertions }

    public static func count(_ timeline: StreamingTimeline) -> Corrections {
        var counts = Corrections()
        let shown = timeline.hypotheses
        for (before, after) in zip(shown, shown.dropFirst()) where before != after {
            // Reference: the new transcript; hypothesis: the one shown before (as OpenBench does).
            var position = 0
            for step in WordAligner.align(reference: after, hypothesis: before, costs: .levenshtein).steps {
                switch step {
                case .correct: position += 1
                case .substitution:
                    counts.substitutions += 1
                    position += 1
                case .deletion:
                    // A word the new transcript has and the old lacked: a correction only inside
                    // what was shown.
                    if position < before.count { counts.insertions += 1 }
                    position += 1
                case .insertion: counts.deletions += 1
                }
            }
        }
        return counts
    }
}
