import Foundation
import Metrics
import SpeechCore

/// How the legacy API and SpeechAnalyzer differ on one utterance, on the same engine.
public struct UtteranceDiff: Codable, Sendable, Hashable {
    public var id: String
    public var audioSeconds: Double
    public var legacy: APITrace
    public var analyzer: APITrace
    /// The analyzer's final words aligned against the legacy API's (legacy as the reference).
    public var transcript: ErrorCounts
    public var alignment: String
    /// Words both finals agree on, and how far their times moved (analyzer minus legacy, seconds).
    public var matchedWords: Int
    public var meanStartShift: Double?
    public var maximumTimeShift: Double?
    /// Differences a user would notice: other final words, an error on one side only, a lost or
    /// truncated tail, the legacy one-minute cut. Each fails the utterance.
    public var noticeable: [String]
    /// Differences the new API is documented to have (finals at endpoints, fewer revisions,
    /// another update cadence, moved word times), with their figures. They pass unless a gate
    /// bounds them.
    public var expected: [String]
    /// When the last final result came, analyzer minus legacy, in seconds of audio (negative:
    /// the analyzer finished sooner); nil when a side has no final result.
    public var finalDelay: Double?
    /// Reference words of the last seconds that no final result of each side holds; nil without
    /// reference word times.
    public var legacyTail: TailLoss?
    public var analyzerTail: TailLoss?

    /// Every difference, noticeable first.
    public var differences: [String] { noticeable + expected }
    public var isSame: Bool { differences.isEmpty }
    public var changesWhatUsersSee: Bool { !noticeable.isEmpty }
}

/// Compares two traces of the same utterance. Pure: no engines, no files.
public enum MigrationComparison {
    /// With `reference` (the utterance's words and their times), each side's lost tail is
    /// measured too, its final words prepared by `policy` as the reference was.
    public static func compare(
        id: String, legacy: APITrace, analyzer: APITrace, timeTolerance: Double = 0.05,
        reference: [TimedWord] = [], policy: ScoringPolicy = ScoringPolicy(normalizer: .english)
    ) -> UtteranceDiff {
        let alignment = WordAligner.align(
            reference: legacy.finalWords.map(\.word), hypothesis: analyzer.finalWords.map(\.word))
        let shifts = alignment.matchedPositions.map { l, a -> (start: Double, end: Double) in
            (
                analyzer.finalWords[a].start - legacy.finalWords[l].start,
                analyzer.finalWords[a].end - legacy.finalWords[l].end
            )
        }
        let maximumShift = shifts.map { max(abs($0.start), abs($0.end)) }.max()
        var noticeable: [String] = [], expected: [String] = []
        let counts = alignment.counts
        if counts.errors > 0 {
            noticeable.append(
                "final transcript differs: \(counts.substitutions) substituted, \(counts.deletions) only in legacy, \(counts.insertions) only in analyzer"
            )
            let lostTail = alignment.steps.reversed().prefix {
                if case .deletion = $0 { return true } else { return false }
            }.count
            if lostTail > 0 {
                noticeable.append(
                    "lost or truncated tail: the analyzer's final text lacks the last \(lostTail) legacy word\(lostTail == 1 ? "" : "s")"
                )
            }
        }
        switch (legacy.error, analyzer.error) {
        case (let l?, nil): noticeable.append("only legacy fails: \(l)")
        case (nil, let a?): noticeable.append("only the analyzer fails: \(a)")
        case (let l?, let a?) where l != a: noticeable.append("both fail, differently: legacy \(l); analyzer \(a)")
        default: break
        }
        for note in legacy.notes { noticeable.append("legacy only: \(note)") }
        for note in analyzer.notes { noticeable.append("analyzer only: \(note)") }
        if let maximumShift, maximumShift > timeTolerance {
            expected.append("word times move by up to \(format(maximumShift)) s (tolerance \(format(timeTolerance)) s)")
        }
        if (legacy.finalsBeforeEndOfAudio == 0) != (analyzer.finalsBeforeEndOfAudio == 0) {
            expected.append(
                "final results before the end of audio: legacy \(legacy.finalsBeforeEndOfAudio), analyzer \(analyzer.finalsBeforeEndOfAudio)"
            )
        }
        if (legacy.revisions == 0) != (analyzer.revisions == 0) {
            expected.append(
                "revised partial text: legacy \(legacy.revisions) times, analyzer \(analyzer.revisions) times")
        }
        let (legacyUpdates, analyzerUpdates) = (legacy.displayUpdates.count, analyzer.displayUpdates.count)
        if max(legacyUpdates, analyzerUpdates) >= 2 * max(1, min(legacyUpdates, analyzerUpdates)) {
            expected.append("update cadence: legacy \(legacyUpdates) display updates, analyzer \(analyzerUpdates)")
        }
        let finalDelay = analyzer.lastFinalAudioTime.flatMap { a in legacy.lastFinalAudioTime.map { a - $0 } }
        let audioSeconds = max(legacy.audioSeconds, analyzer.audioSeconds)
        var diff = UtteranceDiff(
            id: id, audioSeconds: audioSeconds, legacy: legacy, analyzer: analyzer,
            transcript: counts, alignment: alignment.pralign, matchedWords: shifts.count,
            meanStartShift: shifts.isEmpty ? nil : shifts.map(\.start).reduce(0, +) / Double(shifts.count),
            maximumTimeShift: maximumShift, noticeable: noticeable, expected: expected, finalDelay: finalDelay)
        if !reference.isEmpty {
            let words = reference.map { TimedWord(word: policy.prepare($0.word), start: $0.start, end: $0.end) }
            func tail(_ trace: APITrace) -> TailLoss {
                TailLoss.measure(
                    reference: words, finalWords: WordAligner.tokens(policy.prepare(trace.finalText)),
                    audioEnd: audioSeconds)
            }
            diff.legacyTail = tail(legacy)
            diff.analyzerTail = tail(analyzer)
        }
        return diff
    }

    /// Seconds with three decimals, whatever the process locale.
    public static func format(_ seconds: Double) -> String {
        String(format: "%.3f", locale: Locale(identifier: "en_US_POSIX"), seconds)
    }
}

/// The diff over a manifest: per-utterance diffs and pooled figures.
public struct MigrationSummary: Codable, Sendable {
    public var engine: String
    public var manifest: String
    public var utterances: [UtteranceDiff]
    /// Utterances that could not be run at all (audio unreadable, engine unavailable), with why.
    public var problems: [String]
    /// Bounds on expected differences (from a gates file's `migrateDiff` key).
    public var gates: [MigrationGate]

    public init(
        engine: String, manifest: String, utterances: [UtteranceDiff], problems: [String], gates: [MigrationGate] = []
    ) {
        self.engine = engine
        self.manifest = manifest
        self.utterances = utterances
        self.problems = problems
        self.gates = gates
    }

    /// Why an utterance fails: its noticeable differences, then the gates it breaches.
    public func failures(_ diff: UtteranceDiff) -> [String] { diff.noticeable + MigrationGate.breaches(gates, diff) }

    /// What the two sides are: the APIs of the emulations, or the programs that were compared.
    public var sides: (old: String, new: String) {
        guard let first = utterances.first, first.legacy.api != "legacy" || first.analyzer.api != "analyzer" else {
            return ("SFSpeechRecognizer", "SpeechAnalyzer")
        }
        return (first.legacy.api, first.analyzer.api)
    }

    /// Utterances whose difference a user would notice.
    public var noticeablyDiffering: Int { utterances.filter(\.changesWhatUsersSee).count }

    /// Utterances that fail: a difference a user would notice, or a breached gate.
    public var failing: Int { utterances.filter { !failures($0).isEmpty }.count }
    /// Utterances with any difference, expected ones included.
    public var differing: Int { utterances.filter { !$0.isSame }.count }
    /// Pooled word disagreement between the two finals (legacy as the reference).
    public var transcript: ErrorCounts { utterances.reduce(ErrorCounts()) { $0 + $1.transcript } }
    /// Each side's lost tail pooled over the utterances with reference word times; nil when none has them.
    public var tails: (old: TailLoss, new: TailLoss)? {
        let measured = utterances.filter { $0.legacyTail != nil && $0.analyzerTail != nil }
        guard !measured.isEmpty else { return nil }
        return (
            measured.reduce(TailLoss()) { $0 + $1.legacyTail! }, measured.reduce(TailLoss()) { $0 + $1.analyzerTail! }
        )
    }
    public var meanUpdates: (legacy: Double, analyzer: Double) {
        guard !utterances.isEmpty else { return (0, 0) }
        let n = Double(utterances.count)
        return (
            Double(utterances.map(\.legacy.displayUpdates.count).reduce(0, +)) / n,
            Double(utterances.map(\.analyzer.displayUpdates.count).reduce(0, +)) / n
        )
    }
    /// Mean audio seconds between display updates, over utterances with at least two.
    public var meanUpdateInterval: (legacy: Double?, analyzer: Double?) {
        func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
        return (
            mean(utterances.compactMap(\.legacy.meanUpdateInterval)),
            mean(utterances.compactMap(\.analyzer.meanUpdateInterval))
        )
    }
    public var revisions: (legacy: Int, analyzer: Int) {
        (utterances.map(\.legacy.revisions).reduce(0, +), utterances.map(\.analyzer.revisions).reduce(0, +))
    }
    public var maximumTimeShift: Double? { utterances.compactMap(\.maximumTimeShift).max() }
    /// How often each kind of difference occurred (the text before the first colon).
    public var differenceKinds: [(kind: String, count: Int)] {
        var counts: [String: Int] = [:]
        for line in utterances.flatMap(\.differences) {
            counts[String(line.split(separator: ":").first ?? Substring(line)), default: 0] += 1
        }
        return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { ($0.key, $0.value) }
    }
}
