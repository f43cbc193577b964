import Foundation
import Metrics
import Records
import SpeechCore
import TestSupport
import Testing

/// What runs produce, as values: summaries, breakdowns, comparisons and gates, computed from
/// records alone.
@Suite("Records")
struct RecordsTests {
    static func record(
        engine: String, id: String, speaker: String = "s", task: String = "digits", errors: Int, words: Int = 10,
        manifest: String = "corpus/tier/manifest.jsonl", policy: String = "english"
    ) -> UtteranceRecord {
        UtteranceRecord(
            engine: engine, manifest: manifest, id: id, speaker: speaker, task: task, tier: "tier", audioSeconds: 1,
            reference: "r", hypothesis: "h", policy: policy,
            words: ErrorCounts(hits: words - errors, substitutions: errors),
            characters: ErrorCounts(hits: words * 4 - errors, substitutions: errors), computeSeconds: 0.01,
            timeline: StreamingTimeline(events: [], referenceWords: [], audioEnd: 1), measures: StreamingMeasures(),
            alignment: "")
    }

    @Test func breakdownsBySpeakerAndTaskAndPairedComparisons() {
        var records: [UtteranceRecord] = []
        for i in 0..<30 {
            let speaker = i % 2 == 0 ? "alice" : "bob"
            records.append(
                Self.record(
                    engine: "a", id: "u\(i)", speaker: speaker, task: i < 15 ? "digits" : "commands",
                    errors: speaker == "bob" ? 4 : 0))
            records.append(
                Self.record(
                    engine: "b", id: "u\(i)", speaker: speaker, task: i < 15 ? "digits" : "commands",
                    errors: speaker == "bob" ? 1 : 0))
        }
        let breakdowns = BenchBreakdown.make(records)
        let bobA = breakdowns.first { $0.engine == "a" && $0.dimension == "speaker" && $0.key == "bob" }
        #expect(bobA?.wer == 0.4 && bobA?.utterances == 15)
        #expect(breakdowns.filter { $0.dimension == "task" }.count == 4)
        let comparisons = BenchComparison.make(records)
        #expect(comparisons.count == 1)
        #expect(comparisons[0].a == "a" && comparisons[0].b == "b" && comparisons[0].utterances == 30)
        #expect(abs(comparisons[0].difference - (-0.15)) < 1e-9)
        #expect(comparisons[0].probabilityBBetter > 0.99)
    }

    @Test func gatesReportBreaches() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "g.json",
            bytes: Array(#"{"rules":[{"engine":"pocket*","metric":"wer","max":0.1},{"metric":"rtfx","min":5}]}"#.utf8))
        let gates = try GateConfiguration.load(path: path)
        var summary = BenchSummary.make(engine: "pocketsphinx", manifest: "m", records: [])
        summary.wer = 0.2
        summary.rtfx = 10
        let failures = gates.check([summary])
        #expect(failures.map(\.metric) == ["wer"])
        let bad = try dir.write("bad.json", bytes: Array(#"{"rules":[{"metric":"speed","max":1}]}"#.utf8))
        #expect(throws: GateError.self) { try GateConfiguration.load(path: bad) }
    }

    /// The baseline comparison itself, given the baseline's records: a breach when worse beyond
    /// the tolerance and significantly so.
    @Test func regressionsAreJudgedFromTheBaselinesRecords() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "g.json",
            bytes: Array(
                #"{"rules": [], "baseline": {"directory": "base", "rules": [{"metric": "wer", "tolerance": 0.01, "significance": 0.05}]}}"#
                    .utf8))
        let gates = try GateConfiguration.load(path: path)
        #expect(gates.baselineRecordsPath == dir.path("base/utterances.jsonl"))
        let before = (0..<40).map { Self.record(engine: "e", id: "u\($0)", errors: 1) }
        let worse = (0..<40).map { Self.record(engine: "e", id: "u\($0)", errors: 3) }
        let found = gates.regressions(BenchSummary.summarize(worse), records: worse, baselineRecords: before)
        #expect(found.failures.map(\.metric) == ["wer"])
        #expect(
            gates.regressions(BenchSummary.summarize(before), records: before, baselineRecords: before).failures.isEmpty
        )
    }
}
