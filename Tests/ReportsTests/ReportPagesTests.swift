import Conformance
import Foundation
import Metrics
import Records
import TestSupport
import Testing

@testable import Benchmark
@testable import Reports

/// The explorer's data, the regression comparison, audio links and the conformance grid.
@Suite("Report pages")
struct ReportPagesTests {
    /// A scored record the way a run stores it: the alignment of the two texts, its counts, a timeline.
    static func record(
        engine: String, id: String, reference: String, hypothesis: String,
        manifest: String = "corpus/tier/manifest.jsonl",
        policy: String = "english", audio: String? = nil
    ) -> UtteranceRecord {
        let alignment = WordAligner.alignWords(reference: reference, hypothesis: hypothesis)
        let events = [
            StreamingTimeline.Event(time: 0.8, isFinal: false, words: ["one"], rangeStart: 0, rangeEnd: 0.7),
            StreamingTimeline.Event(
                time: 1.4, isFinal: true, words: WordAligner.tokens(hypothesis), rangeStart: 0, rangeEnd: 1.2),
        ]
        return UtteranceRecord(
            engine: engine, manifest: manifest, id: id, speaker: "s1", task: "digits", tier: "tier", audioSeconds: 1.2,
            reference: reference, hypothesis: hypothesis, policy: policy, words: alignment.counts,
            characters: ErrorCounts(),
            computeSeconds: 0.05, loadSeconds: nil,
            timeline: StreamingTimeline(
                events: events, referenceWords: [StreamingTimeline.TimedWord(word: "one", start: 0.1, end: 0.5)],
                audioEnd: 1.2),
            measures: StreamingMeasures(firstPartialLatency: 0.7, finalizationLatency: 0.2),
            alignment: alignment.pralign,
            error: nil, audio: audio)
    }

    @Test func explorerDataHasEachUtteranceOnceAndTheAlignmentAsSteps() throws {
        let records = [
            Self.record(engine: "b", id: "u1", reference: "one two three", hypothesis: "one too three four"),
            Self.record(engine: "a", id: "u1", reference: "one two three", hypothesis: "one two three"),
            Self.record(engine: "a", id: "u2", reference: "five", hypothesis: "five"),
        ]
        let data = ExplorerData(records: records, partialEngines: ["a"], audio: [:])
        #expect(data.engines == ["a", "b"])
        #expect(data.partialEngines == ["a"])
        #expect(data.utterances.map(\.id) == ["u1", "u2"])
        #expect(data.utterances.map(\.differs) == [true, false])
        #expect(data.runs.map(\.utterance) == [0, 0, 1])
        #expect(data.runs.map(\.engine) == [1, 0, 0])
        let first = data.runs[0]
        #expect((first.substitutions, first.deletions, first.insertions, first.referenceWords) == (1, 0, 1, 3))
        #expect(
            first.alignment.map(\.step) == [
                .correct("one"), .substitution(reference: "TWO", hypothesis: "TOO"), .correct("three"),
                .insertion("FOUR"),
            ])
        #expect(first.events.count == 2)
    }

    /// Transcripts are data: a `<` in one cannot end the data element or open markup.
    @Test func hostileTranscriptsStayInsideTheDataElement() throws {
        let hostile = "</script><img src=x onerror=alert(1)> <!--"
        let records = [Self.record(engine: "a", id: "x</script>", reference: hostile, hypothesis: hostile)]
        let page = try UtteranceExplorer.render(
            records: records, partialEngines: [], audio: [:], links: [.overview, .explorer])
        #expect(page.components(separatedBy: "</script>").count == 3)  // the data element's and the script's own
        #expect(!page.contains("<img"))
        #expect(!page.contains("<!--"))
        let start = try #require(page.range(of: "<script type=\"application/json\" id=\"data\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let json =
            try JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8)) as? [String: Any]
        let utterances = try #require(json?["utterances"] as? [[String: Any]])
        #expect(utterances.first?["reference"] as? String == hostile)
        #expect(utterances.first?["id"] as? String == "x</script>")
    }

    @Test func comparisonMatchesByEngineManifestAndIdAndOrdersTheWorstFirst() throws {
        let baseline = [
            Self.record(engine: "a", id: "u1", reference: "one two", hypothesis: "one two"),
            Self.record(engine: "a", id: "u2", reference: "one two", hypothesis: "one"),
            Self.record(engine: "a", id: "u3", reference: "one two", hypothesis: "one two"),
            Self.record(engine: "a", id: "u4", reference: "one two", hypothesis: "one two", policy: "digits"),
            Self.record(engine: "a", id: "gone", reference: "one", hypothesis: "one"),
        ]
        let current = [
            Self.record(engine: "a", id: "u1", reference: "one two", hypothesis: "won too three"),
            Self.record(engine: "a", id: "u2", reference: "one two", hypothesis: "one two"),
            Self.record(engine: "a", id: "u3", reference: "one two", hypothesis: "one two"),
            Self.record(engine: "a", id: "u4", reference: "one two", hypothesis: "two"),
            Self.record(engine: "b", id: "u1", reference: "one two", hypothesis: "one two"),
        ]
        let comparison = RunComparison(baseline: baseline, current: current)
        #expect(comparison.changes.map(\.current.id) == ["u1", "u2"])
        #expect(comparison.changes.map(\.errorChange) == [3, -1])
        #expect(
            (comparison.matched, comparison.onlyInBaseline, comparison.onlyInCurrent, comparison.policyDiffers) == (
                4, 1, 1, 1
            ))
        #expect(comparison.totals.count == 1)
        let total = try #require(comparison.totals.first)
        #expect(total.utterances == 3)
        #expect((total.rose, total.fell) == (1, 1))
        #expect(total.baseline.errors == 1 && total.current.errors == 3)
    }

    @Test func regressionPageListsEveryChangedPair() throws {
        let baseline = [Self.record(engine: "a", id: "u1", reference: "one two", hypothesis: "one two")]
        let current = [Self.record(engine: "a", id: "u1", reference: "one two", hypothesis: "one")]
        let page = try RegressionPage.render(
            RunComparison(baseline: baseline, current: current), baselineName: "old <run>",
            partialEngines: [], audio: [:], links: [.overview, .explorer, .regressions])
        #expect(page.contains("\"pairs\":[[0,1]]"))
        #expect(page.contains("old &lt;run&gt;"))
        #expect(page.contains("aria-current=\"page\">Regressions"))
    }

    @Test func audioLinksAreRelativeToTheReportAndEncoded() {
        #expect(
            ReportAudio.relativeLink(from: "/r/Reports", to: "/r/Corpus/build/t/audio/a b#1.wav")
                == "../Corpus/build/t/audio/a%20b%231.wav")
        #expect(ReportAudio.relativeLink(from: "/r/Reports/bench", to: "/r/Reports/clip.wav") == "../clip.wav")
        #expect(ReportAudio.relativeLink(from: "/r", to: "/r/x/y.flac") == "x/y.flac")
    }

    @Test func smallClipsAreInlinedOnRequestAndOtherFilesLinkedWithTheReason() throws {
        let directory = try TemporaryDirectory()
        let small = directory.path("small.wav"), sphere = directory.path("clip.sph")
        try AudioIOBridge.write(Signal.sine(frequency: 440, sampleRate: 16_000, seconds: 0.2), to: small)
        try directory.write("clip.sph", bytes: [1, 2, 3])
        let records = [
            Self.record(engine: "a", id: "s", reference: "one", hypothesis: "one", audio: small),
            Self.record(engine: "a", id: "p", reference: "one", hypothesis: "one", audio: sphere),
            Self.record(
                engine: "a", id: "m", reference: "one", hypothesis: "one", audio: directory.path("missing.wav")),
            Self.record(engine: "a", id: "o", reference: "one", hypothesis: "one"),
        ]
        let report = directory.path("report")
        let linked = ReportAudio.sources(records: records, reportDirectory: report, embed: false)
        let inlined = ReportAudio.sources(records: records, reportDirectory: report, embed: true)
        let key = { (id: String) in "corpus/tier/manifest.jsonl\u{1F}" + id }
        #expect(linked[key("s")]?.href == "../small.wav")
        #expect(inlined[key("s")]?.href?.hasPrefix("data:audio/wav;base64,UklGR") == true)
        #expect(inlined[key("p")]?.href == "../clip.sph")
        #expect(inlined[key("p")]?.note?.contains(".sph") == true)
        #expect(inlined[key("m")]?.href == nil && inlined[key("m")]?.note?.contains("not found") == true)
        #expect(inlined[key("o")]?.href == nil && inlined[key("o")]?.note != nil)
    }

    @Test func conformanceCellsShowTheWorstOutcomeAndTheSkipReason() {
        #expect(ConformanceReport.cell([]) == "<td class=l>–</td>")
        #expect(ConformanceReport.cell([.passed, .passed]) == "<td class=\"l pass\">pass 2</td>")
        #expect(
            ConformanceReport.cell([.passed, .failed(["x"]), .skipped("r")]) == "<td class=\"l fail\">fail 1 of 3</td>")
        #expect(
            ConformanceReport.cell([.skipped("needs <audio>"), .skipped("needs <audio>")])
                == "<td class=\"l skip\">skip 2<br><small>needs &lt;audio&gt;</small></td>")
        #expect(
            ConformanceReport.cell([.passed, .skipped("r")])
                == "<td class=\"l pass\">pass 1, skip 1<br><small>r</small></td>")
    }

    /// The migration page keeps the differing utterances only, each with both sides' shown
    /// updates (every final, and each partial that changed the display) and the final words' alignment.
    @Test func migrationPageHasBothSidesOfEachDifferingUtterance() throws {
        func trace(_ api: String, _ events: [APITrace.Event], final words: [String]) -> APITrace {
            APITrace(
                api: api, events: events,
                finalWords: words.enumerated().map {
                    StreamingTimeline.TimedWord(word: $1, start: Double($0), end: Double($0) + 0.5)
                },
                audioSeconds: 2)
        }
        let legacy = trace(
            "legacy",
            [
                APITrace.Event(kind: .partial, audioTime: 0.5, shown: ["one"]),
                APITrace.Event(kind: .partial, audioTime: 0.7, shown: ["one"]),
                APITrace.Event(kind: .final, audioTime: 2, shown: ["one"]),
                APITrace.Event(kind: .end, audioTime: 2, shown: ["one"]),
            ],
            final: ["one"])
        let analyzer = trace(
            "analyzer", [APITrace.Event(kind: .final, audioTime: 1, shown: ["one", "two"])], final: ["one", "two"])
        let differing = MigrationComparison.compare(id: "u1", legacy: legacy, analyzer: analyzer)
        let same = MigrationComparison.compare(id: "u2", legacy: legacy, analyzer: legacy)
        let summary = MigrationSummary(
            engine: "e", manifest: "m/manifest.jsonl", utterances: [differing, same], problems: [])
        let source = MigrationPage.Source(reference: "one two", speaker: "s", tier: "t", words: [], audio: nil)
        let page = try MigrationPage.render(
            summary, sources: ["u1": source], reportDirectory: "/tmp", links: [], page: "migration.html")
        let start = try #require(page.range(of: "<script type=\"application/json\" id=\"data\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8)) as? [String: Any]
        )
        #expect((json["utterances"] as? [[String: Any]])?.map { $0["id"] as? String } == ["u1"])
        let runs = try #require(json["runs"] as? [[String: Any]])
        #expect(runs.map { ($0["events"] as? [Any])?.count } == [2, 1])
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.first?["runs"] as? [Int] == [0, 1])
        #expect((items.first?["failures"] as? [String])?.isEmpty == false)
        #expect((items.first?["alignment"] as? [[String]])?.last == ["i", "TWO"])
    }
}
