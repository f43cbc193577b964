import Foundation
import Metrics

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
    /// What differs, one line each (empty: the app would see the same thing).
    public var differences: [String]

    public var isSame: Bool { differences.isEmpty }
}

/// Compares two traces of the same utterance. Pure: no engines, no files.
public enum MigrationComparison {
    public static func compare(id: String, legacy: APITrace, analyzer: APITrace, timeTolerance: Double = 0.05) -> UtteranceDiff {
        let alignment = WordAligner.align(reference: legacy.finalWords.map(\.word), hypothesis: analyzer.finalWords.map(\.word))
        var shifts: [(start: Double, end: Double)] = []
        var l = 0, a = 0
        for step in alignment.steps {
            switch step {
            case .correct:
                shifts.append((analyzer.finalWords[a].start - legacy.finalWords[l].start, analyzer.finalWords[a].end - legacy.finalWords[l].end))
                l += 1; a += 1
            case .substitution: l += 1; a += 1
            case .deletion: l += 1
            case .insertion: a += 1
            }
        }
        let maximumShift = shifts.map { max(abs($0.start), abs($0.end)) }.max()
        var differences: [String] = []
        let counts = alignment.counts
        if counts.errors > 0 {
            differences.append("final transcript differs: \(counts.substitutions) substituted, \(counts.deletions) only in legacy, \(counts.insertions) only in analyzer")
        }
        if let maximumShift, maximumShift > timeTolerance {
            differences.append("word times move by up to \(format(maximumShift)) s (tolerance \(format(timeTolerance)) s)")
        }
        switch (legacy.error, analyzer.error) {
        case (let l?, nil): differences.append("only legacy fails: \(l)")
        case (nil, let a?): differences.append("only the analyzer fails: \(a)")
        case (let l?, let a?) where l != a: differences.append("both fail, differently: legacy \(l); analyzer \(a)")
        default: break
        }
        if (legacy.finalsBeforeEndOfAudio == 0) != (analyzer.finalsBeforeEndOfAudio == 0) {
            differences.append("final results before the end of audio: legacy \(legacy.finalsBeforeEndOfAudio), analyzer \(analyzer.finalsBeforeEndOfAudio)")
        }
        if (legacy.revisions == 0) != (analyzer.revisions == 0) {
            differences.append("revised partial text: legacy \(legacy.revisions) times, analyzer \(analyzer.revisions) times")
        }
        for note in legacy.notes { differences.append("legacy only: \(note)") }
        for note in analyzer.notes { differences.append("analyzer only: \(note)") }
        return UtteranceDiff(
            id: id, audioSeconds: max(legacy.audioSeconds, analyzer.audioSeconds), legacy: legacy, analyzer: analyzer,
            transcript: counts, alignment: alignment.pralign, matchedWords: shifts.count,
            meanStartShift: shifts.isEmpty ? nil : shifts.map(\.start).reduce(0, +) / Double(shifts.count),
            maximumTimeShift: maximumShift, differences: differences)
    }

    static func format(_ seconds: Double) -> String {
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

    public init(engine: String, manifest: String, utterances: [UtteranceDiff], problems: [String]) {
        self.engine = engine
        self.manifest = manifest
        self.utterances = utterances
        self.problems = problems
    }

    public var differing: Int { utterances.filter { !$0.isSame }.count }
    /// Pooled word disagreement between the two finals (legacy as the reference).
    public var transcript: ErrorCounts { utterances.reduce(ErrorCounts()) { $0 + $1.transcript } }
    public var meanUpdates: (legacy: Double, analyzer: Double) {
        guard !utterances.isEmpty else { return (0, 0) }
        let n = Double(utterances.count)
        return (Double(utterances.map(\.legacy.displayUpdates.count).reduce(0, +)) / n,
                Double(utterances.map(\.analyzer.displayUpdates.count).reduce(0, +)) / n)
    }
    /// Mean audio seconds between display updates, over utterances with at least two.
    public var meanUpdateInterval: (legacy: Double?, analyzer: Double?) {
        func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
        return (mean(utterances.compactMap(\.legacy.meanUpdateInterval)), mean(utterances.compactMap(\.analyzer.meanUpdateInterval)))
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
