import Metrics

/// Pooled WER of one engine × manifest split by speaker or by task: where the errors are.
public struct BenchBreakdown: Codable, Sendable, Hashable {
    public var engine: String
    public var manifest: String
    /// `speaker` or `task`.
    public var dimension: String
    public var key: String
    public var utterances: Int
    public var referenceWords: Int
    public var wer: Double
    public var werCI95: [Double]

    /// Every engine × manifest × speaker and × task with at least two groups to tell apart.
    public static func make(_ records: [UtteranceRecord]) -> [BenchBreakdown] {
        let scored = records.filter { $0.error == nil }
        let runs = Dictionary(grouping: scored) { "\($0.engine)\u{1F}\($0.manifest)" }
        var out: [BenchBreakdown] = []
        for runKey in runs.keys.sorted() {
            let run = runs[runKey]!
            for (dimension, key) in [("speaker", \UtteranceRecord.speaker), ("task", \UtteranceRecord.task)] {
                let groups = Dictionary(grouping: run) { $0[keyPath: key] }
                guard groups.count > 1 else { continue }
                for name in groups.keys.sorted() {
                    let group = groups[name]!.sorted { $0.id < $1.id }
                    let counts = group.map(\.words)
                    let pooled = counts.reduce(ErrorCounts(), +)
                    out.append(
                        BenchBreakdown(
                            engine: group[0].engine, manifest: group[0].manifest, dimension: dimension, key: name,
                            utterances: group.count,
                            referenceWords: pooled.referenceLength, wer: pooled.errorRate,
                            werCI95: ErrorRateStatistics.bootstrapInterval(counts).map {
                                [$0.lowerBound, $0.upperBound]
                            } ?? []))
                }
            }
        }
        return out
    }
}

/// Two engines on the same utterances of a manifest, by paired bootstrap: B against A.
public struct BenchComparison: Codable, Sendable, Hashable {
    public var manifest: String
    public var a: String
    public var b: String
    /// Utterances both engines scored.
    public var utterances: Int
    public var werA: Double
    public var werB: Double
    /// WER(B) − WER(A), with its 95% interval.
    public var difference: Double
    public var differenceCI95: [Double]
    /// Share of resamples in which B's WER is lower than A's.
    public var probabilityBBetter: Double

    /// Every pair of engines (in name order) that ran on the same manifest.
    public static func make(_ records: [UtteranceRecord]) -> [BenchComparison] {
        let scored = records.filter { $0.error == nil }
        let byManifest = Dictionary(grouping: scored, by: \.manifest)
        var out: [BenchComparison] = []
        for manifest in byManifest.keys.sorted() {
            let byEngine = Dictionary(grouping: byManifest[manifest]!, by: \.engine).mapValues {
                Dictionary($0.map { ($0.id, $0) }) { _, last in last }
            }
            let engines = byEngine.keys.sorted()
            for (i, a) in engines.enumerated() {
                for b in engines[(i + 1)...] {
                    let shared = Set(byEngine[a]!.keys).intersection(byEngine[b]!.keys).sorted()
                    let countsA = shared.map { byEngine[a]![$0]!.words },
                        countsB = shared.map { byEngine[b]![$0]!.words }
                    guard let comparison = ErrorRateStatistics.pairedBootstrap(a: countsA, b: countsB) else { continue }
                    out.append(
                        BenchComparison(
                            manifest: manifest, a: a, b: b, utterances: shared.count,
                            werA: ErrorRateStatistics.pooled(countsA), werB: ErrorRateStatistics.pooled(countsB),
                            difference: comparison.difference,
                            differenceCI95: [comparison.interval.lowerBound, comparison.interval.upperBound],
                            probabilityBBetter: comparison.probabilityOfImprovement))
                }
            }
        }
        return out
    }
}
