import Metrics

/// The harness's cost over an engine alone, from pairs: each utterance decoded by the engine alone
/// and through SpeechAnalyzer + SpeechTranscriber back to back, the side that goes first
/// alternating. A shared machine's speed drifts by more than the overhead over tens of seconds,
/// but hardly within one pair, so the two sides of a pair see the same machine.
public struct OverheadComparison: Sendable, Equatable {
    public struct Pair: Sendable, Equatable {
        public var utterance: String
        /// Each round decodes every utterance once on each side.
        public var round: Int
        /// Wall seconds in decoding, model load apart.
        public var aloneSeconds: Double
        public var harnessSeconds: Double
        /// The engine's own CPU time within the harness side (its calls' thread CPU clock).
        public var harnessEngineSeconds: Double
        /// Whether both sides wrote the same words (after the scoring policy).
        public var sameTranscript: Bool

        public init(
            utterance: String, round: Int, aloneSeconds: Double, harnessSeconds: Double, harnessEngineSeconds: Double,
            sameTranscript: Bool
        ) {
            self.utterance = utterance
            self.round = round
            self.aloneSeconds = aloneSeconds
            self.harnessSeconds = harnessSeconds
            self.harnessEngineSeconds = harnessEngineSeconds
            self.sameTranscript = sameTranscript
        }

        public var overhead: Double { harnessSeconds / aloneSeconds - 1 }
    }

    public private(set) var pairs: [Pair] = []

    public init(pairs: [Pair] = []) { self.pairs = pairs }

    public mutating func add(_ pair: Pair) { pairs.append(pair) }

    /// Whether the engine alone goes first for the `index`th utterance of `round`: every other
    /// one, and the other way round in the next round.
    public static func aloneFirst(round: Int, index: Int) -> Bool { (round + index).isMultiple(of: 2) }

    /// One round's totals: every utterance once on each side.
    public struct Round: Sendable, Equatable {
        public var number: Int
        public var aloneSeconds = 0.0
        public var harnessSeconds = 0.0
        public var harnessEngineSeconds = 0.0
        /// What the harness adds to the round's time.
        public var overhead: Double { harnessSeconds / aloneSeconds - 1 }
    }

    /// The rounds' totals, in round order.
    public var rounds: [Round] {
        var totals: [Int: Round] = [:]
        for pair in pairs {
            totals[pair.round, default: Round(number: pair.round)].aloneSeconds += pair.aloneSeconds
            totals[pair.round]!.harnessSeconds += pair.harnessSeconds
            totals[pair.round]!.harnessEngineSeconds += pair.harnessEngineSeconds
        }
        return totals.values.sorted { $0.number < $1.number }
    }

    /// Each round's overhead on its totals, in round order.
    public var roundOverheads: [Double] { rounds.map(\.overhead) }

    /// The figure: the median of the rounds' overheads (nil without pairs).
    public var overhead: Double? {
        let rounds = roundOverheads.sorted()
        return rounds.isEmpty ? nil : ErrorRateStatistics.percentile(rounds, 0.5)
    }

    /// The spread of single pairs: their overheads' quartiles.
    public var pairQuartiles: (low: Double, median: Double, high: Double)? {
        let sorted = pairs.map(\.overhead).sorted()
        guard !sorted.isEmpty else { return nil }
        return (
            ErrorRateStatistics.percentile(sorted, 0.25), ErrorRateStatistics.percentile(sorted, 0.5),
            ErrorRateStatistics.percentile(sorted, 0.75)
        )
    }

    public var differingTranscripts: Int { pairs.count { !$0.sameTranscript } }
}
