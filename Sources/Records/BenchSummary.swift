import Foundation
import Metrics

/// Pooled figures for one engine on one manifest (times in seconds), as results.json carries them.
public struct BenchSummary: Codable, Sendable, Hashable {
    public var engine: String
    public var manifest: String
    public var tier: String
    public var policy: String
    public var utterances: Int
    public var failedUtterances: Int
    public var audioSeconds: Double
    public var referenceWords: Int
    public var hits: Int
    public var substitutions: Int
    public var deletions: Int
    public var insertions: Int
    public var wer: Double
    public var werCI95: [Double]
    public var cer: Double
    /// The CER's 95% interval (bootstrap over utterances, as ``werCI95``); nil in results written
    /// before it was recorded.
    public var cerCI95: [Double]?
    public var ser: Double
    /// Audio seconds per compute second (CPU-based: see ``UtteranceRecord/computeSeconds``).
    public var rtfx: Double
    /// Audio seconds per second of wall time in the calls, waiting included.
    public var wallRTFx: Double?
    /// `cpu` when every utterance's compute was measured as CPU time, else `wall`.
    public var computeClock: String?
    public var loadSeconds: Double?
    public var peakRSSBytes: Int?
    public var firstPartialP50: Double?
    public var firstPartialP90: Double?
    public var finalizationP50: Double?
    public var finalizationP90: Double?
    public var emissionDelayP50: Double?
    public var emissionDelayP90: Double?
    /// Per reference word: first shown minus its end (`WordLatencies`), pooled over utterances.
    public var hypothesisLatency: LatencyPercentiles?
    /// Per reference word: final minus its end.
    public var confirmedLatency: LatencyPercentiles?
    /// Changes to text already shown (OpenBench's count), per utterance and per minute of audio;
    /// nil when no record counted them.
    public var correctionsPerUtterance: Double?
    public var correctionsPerMinute: Double?
    /// From the call that ends the input to the last final result, P50 and P90.
    public var drainP50: Double?
    public var drainP90: Double?
    public var unstablePartialWordRatio: Double?
    public var revisedUtteranceShare: Double?
    /// Whether any utterance had a result that was not final; when false the "first partial" is
    /// the final result under another name. Nil in results written before it was recorded.
    public var emitsPartials: Bool?
    /// True when the engine learned this locale from the voices of some of these utterances (the
    /// DSP engine's templates): the figure is speaker-dependent, and reports mark it so. Nil when
    /// none of them.
    public var speakerDependent: Bool?

    /// Aggregates the records of one engine × manifest. Failed utterances are counted apart and
    /// left out of the pooled figures.
    public static func make(
        engine: String, manifest: String, records: [UtteranceRecord], peakRSSBytes: Int? = nil,
        loadSeconds: Double? = nil
    ) -> BenchSummary {
        let scored = records.filter { $0.error == nil }
        let words = scored.reduce(ErrorCounts()) { $0 + $1.words }
        let characters = scored.reduce(ErrorCounts()) { $0 + $1.characters }
        let interval =
            ErrorRateStatistics.bootstrapInterval(scored.map(\.words)).map { [$0.lowerBound, $0.upperBound] } ?? []
        let characterInterval = ErrorRateStatistics.bootstrapInterval(scored.map(\.characters)).map {
            [$0.lowerBound, $0.upperBound]
        }
        let audio = scored.reduce(0) { $0 + $1.audioSeconds }, compute = scored.reduce(0) { $0 + $1.computeSeconds }
        let wall = scored.reduce(0) { $0 + ($1.wallSeconds ?? $1.computeSeconds) }
        let measures = scored.map(\.measures)
        func p(_ values: [Double], _ q: Double) -> Double? {
            values.isEmpty ? nil : ErrorRateStatistics.percentile(values.sorted(), q)
        }
        let firstPartial = measures.compactMap(\.firstPartialLatency),
            finalization = measures.compactMap(\.finalizationLatency)
        let emission = measures.flatMap(\.emissionDelays)
        let counted = measures.compactMap(\.corrections)
        let corrections = counted.isEmpty ? nil : counted.reduce(0) { $0 + $1.total }
        let withdrawnOverFinal: Double? = {
            let finals = scored.reduce(0) { $0 + $1.timeline.finalWords.count }
            guard finals > 0 else { return nil }
            let withdrawn = zip(measures, scored).reduce(0.0) {
                $0 + ($1.0.unstablePartialWordRatio ?? 0) * Double($1.1.timeline.finalWords.count)
            }
            return withdrawn / Double(finals)
        }()
        return BenchSummary(
            engine: engine, manifest: manifest, tier: records.first?.tier ?? "",
            policy: Set(records.map(\.policy)).sorted().joined(separator: ", "),
            utterances: records.count, failedUtterances: records.count - scored.count, audioSeconds: audio,
            referenceWords: words.referenceLength, hits: words.hits, substitutions: words.substitutions,
            deletions: words.deletions,
            insertions: words.insertions, wer: words.errorRate, werCI95: interval, cer: characters.errorRate,
            cerCI95: characterInterval,
            ser: scored.isEmpty ? 0 : Double(scored.filter { $0.words.errors > 0 }.count) / Double(scored.count),
            rtfx: compute > 0 ? audio / compute : 0,
            wallRTFx: wall > 0 && !scored.contains { $0.sharedDecodes == true } ? audio / wall : nil,
            computeClock: scored.allSatisfy { $0.computeClock == "cpu" } ? "cpu" : "wall",
            loadSeconds: loadSeconds ?? p(scored.compactMap(\.loadSeconds), 0.5), peakRSSBytes: peakRSSBytes,
            firstPartialP50: p(firstPartial, 0.5), firstPartialP90: p(firstPartial, 0.9),
            finalizationP50: p(finalization, 0.5), finalizationP90: p(finalization, 0.9),
            emissionDelayP50: p(emission, 0.5), emissionDelayP90: p(emission, 0.9),
            hypothesisLatency: LatencyPercentiles.make(measures.compactMap { $0.wordLatencies?.hypothesis }),
            confirmedLatency: LatencyPercentiles.make(measures.compactMap { $0.wordLatencies?.confirmed }),
            correctionsPerUtterance: corrections.map { Double($0) / Double(max(1, scored.count)) },
            correctionsPerMinute: corrections.flatMap { audio > 0 ? Double($0) / (audio / 60) : nil },
            drainP50: p(measures.compactMap(\.drain), 0.5), drainP90: p(measures.compactMap(\.drain), 0.9),
            unstablePartialWordRatio: withdrawnOverFinal,
            revisedUtteranceShare: scored.isEmpty
                ? nil : Double(measures.filter(\.hadRevisions).count) / Double(scored.count),
            emitsPartials: scored.contains { $0.timeline.events.contains { !$0.isFinal && !$0.words.isEmpty } },
            speakerDependent: records.contains { $0.enrolledSpeaker == true } ? true : nil)
    }

    /// One summary per engine × manifest present in `records`, in a stable order.
    public static func summarize(_ records: [UtteranceRecord], peakRSSBytes: Int? = nil) -> [BenchSummary] {
        let groups = Dictionary(grouping: records) { "\($0.engine)\u{1F}\($0.manifest)" }
        return groups.keys.sorted().map { key in
            // Sorted by id, so that merged shards give exactly the figures of one run.
            let group = groups[key]!.sorted { $0.id < $1.id }
            return make(
                engine: group[0].engine, manifest: group[0].manifest, records: group, peakRSSBytes: peakRSSBytes)
        }
    }
}

/// The whole of a run, written as results.json.
public struct BenchResults: Codable, Sendable {
    public var createdAt: String
    public var policy: String
    public var pacing: String
    public var shard: String
    public var summaries: [BenchSummary]
    public var issues: [BenchIssue]
    public var gateFailures: [GateFailure]
    /// WER by speaker and by task within each engine × manifest.
    public var breakdowns: [BenchBreakdown]?
    /// Engines against each other on the utterances they share (paired bootstrap).
    public var comparisons: [BenchComparison]?
    /// Engine × manifest pairs the regression baseline has no figures for.
    public var notInBaseline: [String]?
    /// Per worker engine: each worker process's peak resident memory, bytes.
    public var workerPeakMemory: [String: [Int]]?

    public init(
        createdAt: String, policy: String, pacing: String, shard: String, summaries: [BenchSummary],
        issues: [BenchIssue], gateFailures: [GateFailure], breakdowns: [BenchBreakdown]? = nil,
        comparisons: [BenchComparison]? = nil, notInBaseline: [String]? = nil
    ) {
        self.createdAt = createdAt
        self.policy = policy
        self.pacing = pacing
        self.shard = shard
        self.summaries = summaries
        self.issues = issues
        self.gateFailures = gateFailures
        self.breakdowns = breakdowns
        self.comparisons = comparisons
        self.notInBaseline = notInBaseline
    }
}

extension BenchResults {
    /// No gate failed, no utterance failed, and nothing stopped part of the run.
    public var isClean: Bool {
        gateFailures.isEmpty && issues.isEmpty && summaries.allSatisfy { $0.failedUtterances == 0 }
    }
}

/// A problem that stopped part of a run (not an utterance's own failure).
public struct BenchIssue: Codable, Sendable, Hashable {
    public var engine: String?
    public var manifest: String
    public var message: String

    public init(engine: String?, manifest: String, message: String) {
        self.engine = engine
        self.manifest = manifest
        self.message = message
    }
}
