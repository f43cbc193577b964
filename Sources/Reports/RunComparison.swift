import Foundation
import Metrics
import Records

/// This run against a baseline run, utterance by utterance: records are matched by engine,
/// manifest and id, and an utterance has changed when its word errors did.
public struct RunComparison: Sendable {
    public struct Change: Sendable {
        public var baseline: UtteranceRecord
        public var current: UtteranceRecord
        /// Word errors now minus word errors then: positive is worse.
        public var errorChange: Int { current.words.errors - baseline.words.errors }
    }

    /// Word errors on the matched utterances of one engine and tier, then and now.
    public struct Total: Sendable, Hashable {
        public var engine: String
        public var tier: String
        public var utterances: Int
        public var baseline: ErrorCounts
        public var current: ErrorCounts
        public var rose: Int
        public var fell: Int
        /// Whether the engine learned the locale from some of these utterances' own voices.
        public var speakerDependent = false
    }

    /// Changed utterances, the largest rise first and the largest fall last.
    public var changes: [Change]
    public var totals: [Total]
    public var matched: Int
    public var onlyInBaseline: Int
    public var onlyInCurrent: Int
    /// Matched records scored under different policies: their errors are not comparable, so they
    /// are left out of the changes and totals.
    public var policyDiffers: Int

    public init(baseline: [UtteranceRecord], current: [UtteranceRecord]) {
        let before = Dictionary(baseline.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
        let currentKeys = Set(current.map(\.key))
        var changes: [Change] = []
        var totals: [String: Total] = [:]
        var matched = 0, policyDiffers = 0
        for record in current {
            guard let old = before[record.key] else { continue }
            matched += 1
            guard old.policy == record.policy else {
                policyDiffers += 1
                continue
            }
            let change = Change(baseline: old, current: record)
            let group = record.engine + "\u{1F}" + record.tier
            var total =
                totals[group]
                ?? Total(
                    engine: record.engine, tier: record.tier, utterances: 0, baseline: ErrorCounts(),
                    current: ErrorCounts(), rose: 0, fell: 0)
            total.utterances += 1
            total.baseline += old.words
            total.current += record.words
            if change.errorChange > 0 { total.rose += 1 }
            if change.errorChange < 0 { total.fell += 1 }
            if record.enrolledSpeaker == true { total.speakerDependent = true }
            totals[group] = total
            if change.errorChange != 0 { changes.append(change) }
        }
        self.changes = changes.sorted {
            ($1.errorChange, $0.current.engine, $0.current.manifest, $0.current.id) < (
                $0.errorChange, $1.current.engine, $1.current.manifest, $1.current.id
            )
        }
        self.totals = totals.values.sorted { ($0.engine, $0.tier) < ($1.engine, $1.tier) }
        self.matched = matched
        self.policyDiffers = policyDiffers
        onlyInBaseline = before.keys.filter { !currentKeys.contains($0) }.count
        onlyInCurrent = currentKeys.filter { before[$0] == nil }.count
    }
}
