import Records
import TestSupport
import Testing

/// The comparison on constructed traces: every kind of difference, and none when the app would
/// see the same thing.
@Suite("Migration comparison")
struct MigrationComparisonTests {
    typealias Event = APITrace.Event
    static let words = [
        APITrace.TimedWord(word: "one", start: 0.2, end: 0.5), APITrace.TimedWord(word: "two", start: 0.6, end: 0.9),
    ]

    static func trace(
        _ api: String, _ events: [Event], words: [APITrace.TimedWord] = words, notes: [String] = []
    ) -> APITrace {
        APITrace(api: api, events: events, finalWords: words, audioSeconds: 1.2, notes: notes)
    }

    static let legacyEvents = [
        Event(kind: .partial, audioTime: 0.5, shown: ["won"]), Event(kind: .partial, audioTime: 0.7, shown: ["one"]),
        Event(kind: .partial, audioTime: 1.0, shown: ["one", "two"]),
        Event(kind: .final, audioTime: 1.2, shown: ["one", "two"]),
        Event(kind: .end, audioTime: 1.2, shown: ["one", "two"]),
    ]

    @Test func sameBehaviourHasNoDifferences() {
        let diff = MigrationComparison.compare(
            id: "u", legacy: Self.trace("legacy", Self.legacyEvents),
            analyzer: Self.trace("analyzer", Self.legacyEvents))
        #expect(diff.isSame)
        #expect(diff.matchedWords == 2 && diff.maximumTimeShift == 0)
    }

    @Test func traceMeasures() {
        let trace = Self.trace("legacy", Self.legacyEvents)
        #expect(trace.eventOrder == "partial×3 final end")
        #expect(trace.displayUpdates.count == 3)  // the final repeats what the last partial showed
        #expect(trace.revisions == 1)  // "won" → "one"
        #expect(abs(trace.meanUpdateInterval! - 0.25) < 1e-9)
        #expect(trace.finalsBeforeEndOfAudio == 0)
    }

    @Test func eachKindOfDifferenceIsReported() {
        let analyzerEvents = [
            Event(kind: .partial, audioTime: 0.5, shown: ["one"]), Event(kind: .final, audioTime: 0.8, shown: ["one"]),
            Event(kind: .final, audioTime: 1.2, shown: ["one", "too"]),
            Event(kind: .end, audioTime: 1.2, shown: ["one", "too"]),
        ]
        let analyzerWords = [
            APITrace.TimedWord(word: "one", start: 0.3, end: 0.5),
            APITrace.TimedWord(word: "too", start: 0.6, end: 0.9),
        ]
        let diff = MigrationComparison.compare(
            id: "u", legacy: Self.trace("legacy", Self.legacyEvents, notes: ["stopped at the limit"]),
            analyzer: Self.trace("analyzer", analyzerEvents, words: analyzerWords))
        #expect(diff.transcript.substitutions == 1)
        #expect(diff.alignment.contains("TWO") && diff.alignment.contains("TOO"))
        // What a user would notice fails; what the new API is documented to do differently passes.
        #expect(
            diff.noticeable == [
                "final transcript differs: 1 substituted, 0 only in legacy, 0 only in analyzer",
                "legacy only: stopped at the limit",
            ])
        #expect(
            diff.expected == [
                "word times move by up to 0.100 s (tolerance 0.050 s)",
                "final results before the end of audio: legacy 0, analyzer 1",
                "revised partial text: legacy 1 times, analyzer 0 times",
            ])
        #expect(diff.finalDelay == 0)
        let summary = MigrationSummary(
            engine: "e", manifest: "m/manifest.jsonl", utterances: [diff, diff], problems: [])
        #expect(summary.differing == 2 && summary.failing == 2)
        #expect(summary.differenceKinds.first! == ("final results before the end of audio", 2))
    }

    @Test func earlierFinalsPassUnlessAGateBoundsThem() {
        // Same words; the analyzer's last final comes at an endpoint 0.4 s before the end of audio.
        let analyzerEvents = [
            Event(kind: .partial, audioTime: 0.5, shown: ["one"]),
            Event(kind: .final, audioTime: 0.8, shown: ["one", "two"]),
            Event(kind: .end, audioTime: 1.2, shown: ["one", "two"]),
        ]
        let diff = MigrationComparison.compare(
            id: "u", legacy: Self.trace("legacy", Self.legacyEvents), analyzer: Self.trace("analyzer", analyzerEvents))
        #expect(diff.noticeable.isEmpty && !diff.expected.isEmpty && !diff.changesWhatUsersSee)
        #expect(abs(diff.finalDelay! + 0.4) < 1e-9)
        #expect(MigrationSummary(engine: "e", manifest: "m", utterances: [diff], problems: []).failing == 0)
        let strict = MigrationSummary(
            engine: "e", manifest: "m", utterances: [diff], problems: [],
            gates: [MigrationGate(metric: .finalDelay, max: -0.5), MigrationGate(metric: .extraRevisions, max: 0)])
        #expect(strict.failures(diff) == ["gate finalDelay ≤ -0.500 breached: -0.400"])
    }

    @Test func aLostTailIsNamed() {
        let shortWords = [Self.words[0]]
        let analyzerEvents = [
            Event(kind: .final, audioTime: 0.6, shown: ["one"]), Event(kind: .end, audioTime: 1.2, shown: ["one"]),
        ]
        let diff = MigrationComparison.compare(
            id: "u", legacy: Self.trace("legacy", Self.legacyEvents),
            analyzer: Self.trace("analyzer", analyzerEvents, words: shortWords))
        #expect(
            diff.noticeable.contains("lost or truncated tail: the analyzer's final text lacks the last 1 legacy word"))
    }

    @Test func gatesAreReadFromTheGatesFile() throws {
        let directory = try TemporaryDirectory()
        let good = try directory.write(
            "gates.json", bytes: Array(#"{"rules": [], "migrateDiff": [{"metric": "finalDelay", "max": 0.5}]}"#.utf8))
        #expect(try MigrationGate.load(path: good) == [MigrationGate(metric: .finalDelay, max: 0.5)])
        let bad = try directory.write(
            "bad.json", bytes: Array(#"{"migrateDiff": [{"metric": "soon", "max": 0.5}]}"#.utf8))
        #expect(throws: MigrationGateError.self) { try MigrationGate.load(path: bad) }
        #expect(
            try MigrationGate.load(path: try directory.write("bench.json", bytes: Array(#"{"rules": []}"#.utf8))) == [])
    }

    @Test func oneSidedErrors() {
        let failed = [
            Event(kind: .error, audioTime: 1.2, shown: [], detail: "kAFAssistantErrorDomain 1110: No speech detected"),
            Event(kind: .end, audioTime: 1.2, shown: []),
        ]
        let ended = [Event(kind: .end, audioTime: 1.2, shown: [])]
        let diff = MigrationComparison.compare(
            id: "u", legacy: Self.trace("legacy", failed, words: []), analyzer: Self.trace("analyzer", ended, words: [])
        )
        #expect(diff.differences == ["only legacy fails: kAFAssistantErrorDomain 1110: No speech detected"])
    }
}
