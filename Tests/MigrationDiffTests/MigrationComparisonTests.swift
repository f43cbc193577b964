import MigrationDiff
import Testing

/// The comparison on constructed traces: every kind of difference, and none when the app would
/// see the same thing.
@Suite("Migration comparison")
struct MigrationComparisonTests {
    typealias Event = APITrace.Event
    static let words = [APITrace.TimedWord(word: "one", start: 0.2, end: 0.5), APITrace.TimedWord(word: "two", start: 0.6, end: 0.9)]

    static func trace(_ api: String, _ events: [Event], words: [APITrace.TimedWord] = words, notes: [String] = []) -> APITrace {
        APITrace(api: api, events: events, finalWords: words, audioSeconds: 1.2, notes: notes)
    }

    static let legacyEvents = [Event(kind: .partial, audioTime: 0.5, shown: ["won"]), Event(kind: .partial, audioTime: 0.7, shown: ["one"]),
                               Event(kind: .partial, audioTime: 1.0, shown: ["one", "two"]), Event(kind: .final, audioTime: 1.2, shown: ["one", "two"]),
                               Event(kind: .end, audioTime: 1.2, shown: ["one", "two"])]

    @Test func sameBehaviourHasNoDifferences() {
        let diff = MigrationComparison.compare(id: "u", legacy: Self.trace("legacy", Self.legacyEvents), analyzer: Self.trace("analyzer", Self.legacyEvents))
        #expect(diff.isSame)
        #expect(diff.matchedWords == 2 && diff.maximumTimeShift == 0)
    }

    @Test func traceMeasures() {
        let trace = Self.trace("legacy", Self.legacyEvents)
        #expect(trace.eventOrder == "partial×3 final end")
        #expect(trace.displayUpdates.count == 3)      // the final repeats what the last partial showed
        #expect(trace.revisions == 1)                 // "won" → "one"
        #expect(abs(trace.meanUpdateInterval! - 0.25) < 1e-9)
        #expect(trace.finalsBeforeEndOfAudio == 0)
    }

    @Test func eachKindOfDifferenceIsReported() {
        let analyzerEvents = [Event(kind: .partial, audioTime: 0.5, shown: ["one"]), Event(kind: .final, audioTime: 0.8, shown: ["one"]),
                              Event(kind: .final, audioTime: 1.2, shown: ["one", "too"]), Event(kind: .end, audioTime: 1.2, shown: ["one", "too"])]
        let analyzerWords = [APITrace.TimedWord(word: "one", start: 0.3, end: 0.5), APITrace.TimedWord(word: "too", start: 0.6, end: 0.9)]
        let diff = MigrationComparison.compare(
            id: "u", legacy: Self.trace("legacy", Self.legacyEvents, notes: ["stopped at the limit"]),
            analyzer: Self.trace("analyzer", analyzerEvents, words: analyzerWords))
        #expect(diff.transcript.substitutions == 1)
        #expect(diff.alignment.contains("TWO") && diff.alignment.contains("TOO"))
        #expect(diff.differences == [
            "final transcript differs: 1 substituted, 0 only in legacy, 0 only in analyzer",
            "word times move by up to 0.100 s (tolerance 0.050 s)",
            "final results before the end of audio: legacy 0, analyzer 1",
            "revised partial text: legacy 1 times, analyzer 0 times",
            "legacy only: stopped at the limit",
        ])
        let summary = MigrationSummary(engine: "e", manifest: "m/manifest.jsonl", utterances: [diff, diff], problems: [])
        #expect(summary.differing == 2)
        #expect(summary.differenceKinds.first! == ("final results before the end of audio", 2))
    }

    @Test func oneSidedErrors() {
        let failed = [Event(kind: .error, audioTime: 1.2, shown: [], detail: "kAFAssistantErrorDomain 1110: No speech detected"),
                      Event(kind: .end, audioTime: 1.2, shown: [])]
        let ended = [Event(kind: .end, audioTime: 1.2, shown: [])]
        let diff = MigrationComparison.compare(id: "u", legacy: Self.trace("legacy", failed, words: []), analyzer: Self.trace("analyzer", ended, words: []))
        #expect(diff.differences == ["only legacy fails: kAFAssistantErrorDomain 1110: No speech detected"])
    }
}
