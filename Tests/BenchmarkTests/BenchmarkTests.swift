@preconcurrency import CLibXML2
import Corpus
import EngineCore
import Foundation
import Metrics
import Records
import SpeechCore
import TestSupport
import Testing

@testable import Benchmark
@testable import Reports

/// The benchmark end to end on a small generated corpus with the scripted engine: exact figures,
/// sharding and merging, resume, and reports that validate.
@Suite("Benchmark", .isolatedResources)
struct BenchmarkTests {
    /// Six one-second utterances whose words the scripted engine will (mostly) get right.
    static func makeCorpus(_ dir: TemporaryDirectory) throws -> String {
        var lines: [String] = []
        for i in 0..<6 {
            let path = dir.path("u\(i).wav")
            try AudioFileWriterShim.writeTone(path: path, seconds: 1.0)
            lines.append(
                #"{"id":"u\#(i)","audio":"u\#(i).wav","reference":"one two","locale":"en-US","speaker":"s\#(i % 2)","task":"digits","duration":1.0,"tier":"tiny","words":[{"word":"one","start":0.2,"end":0.4},{"word":"two","start":0.5,"end":0.7}]}"#
            )
        }
        return try dir.write("manifest.jsonl", bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// The scripted engine says "one two" in every utterance except u3 (it says "one three").
    static func engine(for id: String) -> ScriptedEngine {
        ScriptedEngine(
            script: EngineScript(
                words: [
                    .init("one", start: 0.2, end: 0.4, revisions: ["won"]),
                    .init(id == "u3" ? "three" : "two", start: 0.5, end: 0.7),
                ],
                revisionInterval: 0.1, endpointSilence: nil))
    }

    func runAll(_ manifest: String, shard: Shard = .whole, store: RecordStore) async throws -> [UtteranceRecord] {
        let load = ManifestValidator().validate(ManifestReader.load(path: manifest))
        for utterance in load.utterances where shard.contains(utterance.id) {
            let run = UtteranceRun(engine: Self.engine(for: utterance.id), policy: ScoringPolicy(normalizer: .english))
            try store.append(
                await run.run(
                    utterance, audioPath: ManifestValidator.resolve(utterance.audio, root: load.root),
                    manifest: manifest))
        }
        return store.records()
    }

    @Test func figuresOfAScriptedRun() async throws {
        let dir = try TemporaryDirectory()
        let manifest = try Self.makeCorpus(dir)
        let records = try await runAll(manifest, store: RecordStore(path: dir.path("store.jsonl")))
        #expect(records.count == 6)
        let summary = try #require(BenchSummary.summarize(records).first)
        #expect(
            summary.referenceWords == 12 && summary.substitutions == 1 && summary.deletions == 0
                && summary.insertions == 0)
        #expect(abs(summary.wer - 1.0 / 12) < 1e-12)
        #expect(summary.werCI95.count == 2 && summary.werCI95[0] <= summary.wer && summary.wer <= summary.werCI95[1])
        // Streaming: "won" showed first and was revised; the first partial came 0.2 s after "one" began
        // (its end at 0.4 s, pacing in 0.1 s chunks plus compute).
        #expect(summary.revisedUtteranceShare == 1)
        let first = try #require(summary.firstPartialP50)
        #expect(first >= 0.2 && first < 0.3)
        #expect(records.allSatisfy { $0.error == nil && $0.timeline.events.contains { $0.isFinal } })
    }

    @Test func fourShardsMergeToExactlyTheUnshardedFigures() async throws {
        let dir = try TemporaryDirectory()
        let manifest = try Self.makeCorpus(dir)
        let whole = BenchSummary.summarize(
            try await runAll(manifest, store: RecordStore(path: dir.path("whole.jsonl"))))
        var merged: [UtteranceRecord] = []
        for index in 0..<4 {
            merged += try await runAll(
                manifest, shard: Shard(index: index, count: 4),
                store: RecordStore(path: dir.path("shard\(index).jsonl")))
        }
        #expect(merged.count == 6)
        let fromShards = BenchSummary.summarize(merged.shuffled())
        #expect(fromShards.map(\.wer) == whole.map(\.wer))
        #expect(fromShards.map(\.werCI95) == whole.map(\.werCI95))
        #expect(fromShards.map(\.substitutions) == whole.map(\.substitutions))
        #expect(fromShards.map(\.referenceWords) == whole.map(\.referenceWords))
    }

    @Test func shardsAreStableAndCoverEverythingOnce() {
        let ids = (0..<500).map { "utt-\($0)" }
        let shards = (0..<4).map { Shard(index: $0, count: 4) }
        for id in ids { #expect(shards.filter { $0.contains(id) }.count == 1) }
        #expect(Shard.parse("2/4") == Shard(index: 2, count: 4))
        #expect(Shard.parse("4/4") == nil)
        #expect(
            Shard.parse(nil, environment: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]) == Shard(index: 1, count: 3))
        #expect(
            Shard.parse(nil, environment: ["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "2"])
                == Shard(index: 0, count: 2))
    }

    @Test func storeKeepsCompleteRecordsAndIgnoresATornLine() throws {
        let dir = try TemporaryDirectory()
        let store = RecordStore(path: dir.path("s.jsonl"))
        let record = UtteranceRecord(
            engine: "e", manifest: "m", id: "a", speaker: "s", task: "t", tier: "x", audioSeconds: 1,
            reference: "a", hypothesis: "a", policy: "english", words: ErrorCounts(hits: 1),
            characters: ErrorCounts(hits: 1),
            computeSeconds: 0.1, loadSeconds: nil,
            timeline: StreamingTimeline(events: [], referenceWords: [], audioEnd: 1),
            measures: StreamingMeasures(), alignment: "", error: nil)
        try store.append(record)
        let handle = try #require(FileHandle(forWritingAtPath: store.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"engine":"e","manifest":"m","id":"b","spea"#.utf8))
        try handle.close()
        #expect(store.records().map(\.id) == ["a"])
        #expect(store.completedKeys() == [record.key])
    }

    /// After a kill mid-write, the next append starts on a line of its own.
    @Test func appendAfterATornLineKeepsTheNewRecord() throws {
        let dir = try TemporaryDirectory()
        let store = RecordStore(path: dir.path("s.jsonl"))
        try dir.write("s.jsonl", bytes: Array(#"{"engine":"e","manifest":"m","id":"torn","spea"#.utf8))
        let record = UtteranceRecord(
            engine: "e", manifest: "m", id: "a", speaker: "s", task: "t", tier: "x", audioSeconds: 1,
            reference: "a", hypothesis: "a", policy: "english", words: ErrorCounts(hits: 1),
            characters: ErrorCounts(hits: 1),
            computeSeconds: 0.1, loadSeconds: nil,
            timeline: StreamingTimeline(events: [], referenceWords: [], audioEnd: 1),
            measures: StreamingMeasures(), alignment: "", error: nil)
        try store.append(record)
        #expect(store.records().map(\.id) == ["a"])
        // The torn line is reported, by number.
        #expect(store.read().unreadableLines == [1])
        #expect(
            store.read().issues(path: "s.jsonl").first?.message.hasPrefix(
                "1 line(s) of the record store are not records (line 1)") == true)
    }

    /// A store that cannot be written stops the run and loses nothing measured: no utterance is
    /// started after the failed write, and the record it could not take is kept for the reports.
    @Test func anUnwritableStoreStopsTheRunAndLosesNoRecord() async throws {
        let dir = try TemporaryDirectory()
        let manifest = try Self.makeCorpus(dir)
        // A directory where the store's file should be: every append fails.
        let path = dir.path("store.jsonl")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let store = RecordStore(path: path)
        let outcome = await BenchRunner(
            plan: BenchPlan(engines: ["scripted"], manifests: [manifest], policy: ScoringPolicy(normalizer: .english)),
            store: store
        ).run()
        #expect(outcome.unsaved.count == 1)
        #expect(outcome.storeFailure == .write(path: path, reason: "cannot open the file for writing"))
        #expect(
            outcome.issues.map(\.message) == [
                "\(path): cannot append a record: cannot open the file for writing; the record is in this run's reports only"
            ])
    }

    /// A disk that fills mid-run, as the kernel reports it (a file size limit: the same failed
    /// write as a full disk, without mounting one): `bench` stops with status 3, naming the store;
    /// every line the store keeps is a whole record.
    @Test(
        .enabled(
            if: PackageProgram.isBuilt("speech-harness") || ProcessInfo.processInfo.environment["CI"] == "true",
            "needs the built speech-harness (swift build)"))
    func aFullDiskStopsBenchWithTheRecordsWrittenIntact() throws {
        let dir = try TemporaryDirectory()
        let manifest = try Self.makeCorpus(dir)
        let out = dir.path("out")
        // 2 KiB per file, and the signal a larger write raises ignored, so the write fails instead.
        let (status, _, said) = try ExternalProgram.run(
            "/bin/bash",
            [
                "-c", #"ulimit -f 2; trap '' XFSZ; exec "$0" "$@""#,
                PackageProgram.binaries.appendingPathComponent("speech-harness").path,
                "bench", "--engine", "scripted", "--manifest", manifest, "--out", out,
            ])
        #expect(status != 0)
        #expect(said.contains("stopped early: \(out)/utterances.jsonl: cannot append a record"), "\(said)")
        // The reports cannot be written either; the error names the file and the reason.
        #expect(said.contains(": cannot write report: File too large"), "\(said)")
        let stored = RecordStore(path: out + "/utterances.jsonl").read()
        #expect(stored.unreadableLines.isEmpty)
        #expect((1..<6).contains(stored.records.count), "\(stored.records.count) records")
    }

    /// An engine that cannot be made fails each of its utterances, in the store and as JUnit
    /// errors; the other engines run as usual.
    @Test func anEngineThatCannotBeMadeFailsEachOfItsUtterances() async throws {
        let dir = try TemporaryDirectory()
        let manifest = try Self.makeCorpus(dir)
        let id = "unmakeable-\(UUID().uuidString.prefix(8))"
        EngineRegistry.shared.register(
            EngineRegistry.Entry(id: id, summary: "test", preference: 9_999) {
                throw EngineError.failed(engine: id, reason: "model file missing")
            })
        let store = RecordStore(path: dir.path("store.jsonl"))
        let outcome = await BenchRunner(
            plan: BenchPlan(
                engines: [id, "scripted"], manifests: [manifest], policy: ScoringPolicy(normalizer: .english)),
            store: store
        ).run()
        let records = store.records()
        let failed = records.filter { $0.engine == id }
        #expect(failed.count == 6 && records.count == 12)
        #expect(
            failed.allSatisfy { $0.error?.contains("could not be made: ") == true && $0.alignment.contains("REF:") })
        #expect(outcome.issues.contains { $0.engine == id && $0.message.contains("model file missing") })
        let results = BenchResults.assemble(
            records: records, issues: outcome.issues, gates: nil, plan: nil, peakRSSBytes: nil)
        #expect(!results.isClean)
        let path = dir.path("bench.xml")
        try JUnitWriter.write(BenchReports.junit(results: results, records: records), to: path)
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        #expect(xml.components(separatedBy: "could not be made").count - 1 >= 6)
    }

    /// Once interrupted, the runner starts no new utterance; what it finished is in the store.
    @Test func anInterruptedRunStopsTakingWork() async throws {
        let dir = try TemporaryDirectory()
        let manifest = try Self.makeCorpus(dir)
        let store = RecordStore(path: dir.path("store.jsonl"))
        let done = Locked(0)
        var plan = BenchPlan(engines: ["scripted"], manifests: [manifest], policy: ScoringPolicy(normalizer: .english))
        plan.jobs = 1
        let runner = BenchRunner(
            plan: plan, store: store,
            progress: { line in
                if line.hasPrefix("[") { done.withLock { $0 += 1 } }
            }, isInterrupted: { done.withLock { $0 } >= 2 })
        _ = await runner.run()
        #expect(store.records().count == 2)
        // Resuming runs only the rest.
        _ = await BenchRunner(plan: plan, store: store).run()
        #expect(store.records().count == 6)
    }

    /// `every` samples across the manifest (u0, u2, u4 of six), and `limit` then takes the first of
    /// the sample.
    @Test func everyNthUtteranceSamplesTheManifest() async throws {
        let dir = try TemporaryDirectory()
        let manifest = try Self.makeCorpus(dir)
        var plan = BenchPlan(engines: ["scripted"], manifests: [manifest], policy: ScoringPolicy(normalizer: .english))
        plan.every = 2
        let store = RecordStore(path: dir.path("every.jsonl"))
        _ = await BenchRunner(plan: plan, store: store).run()
        #expect(store.records().map(\.id).sorted() == ["u0", "u2", "u4"])
        plan.limit = 2
        let limited = RecordStore(path: dir.path("limited.jsonl"))
        _ = await BenchRunner(plan: plan, store: limited).run()
        #expect(limited.records().map(\.id).sorted() == ["u0", "u2"])
    }

    /// Many sessions leave nothing behind (a small soak; the 10,000-session one is a bench).
    @Test func soakLeavesNoObjectsBehind() async {
        let report = await AnalyzerSoak(sessions: 60, checkpointEvery: 20) { (0, 0) }.run()
        #expect(report.leakedObjects == 0)
        #expect(report.wrongResults == 0)
        #expect(report.checkpoints.map(\.sessions) == [0, 20, 40, 60])
    }

    static func record(
        engine: String, id: String, speaker: String = "s", task: String = "digits", errors: Int, words: Int = 10,
        manifest: String = "corpus/tier/manifest.jsonl", policy: String = "english"
    ) -> UtteranceRecord {
        UtteranceRecord(
            engine: engine, manifest: manifest, id: id, speaker: speaker, task: task, tier: "tier", audioSeconds: 1,
            reference: "r", hypothesis: "h", policy: policy,
            words: ErrorCounts(hits: words - errors, substitutions: errors),
            characters: ErrorCounts(hits: words * 4 - errors, substitutions: errors), computeSeconds: 0.01,
            loadSeconds: nil,
            timeline: StreamingTimeline(events: [], referenceWords: [], audioEnd: 1), measures: StreamingMeasures(),
            alignment: "", error: nil)
    }

    /// A run's results from its records alone: clean only with no failed utterance, no problem of
    /// the run and no gate breach.
    @Test func assembledResultsSayWhetherTheRunIsClean() {
        let records = (0..<4).map { Self.record(engine: "e", id: "u\($0)", errors: $0 == 0 ? 1 : 0) }
        let clean = BenchResults.assemble(records: records, issues: [], gates: nil, plan: nil, peakRSSBytes: nil)
        #expect(clean.isClean)
        #expect(clean.summaries.map(\.utterances) == [4] && clean.pacing == "merged" && clean.policy == "english")
        #expect(
            !BenchResults.assemble(
                records: records, issues: [BenchIssue(engine: nil, manifest: "m", message: "x")], gates: nil, plan: nil,
                peakRSSBytes: nil
            ).isClean)
        var failed = records
        failed[1].error = "engine crashed"
        #expect(!BenchResults.assemble(records: failed, issues: [], gates: nil, plan: nil, peakRSSBytes: nil).isClean)
    }

    /// A stored run as the baseline: worse by more than the tolerance, and significantly so, is a
    /// breach; a small change is not; an engine the baseline lacks is listed, not failed.
    @Test func regressionsAgainstABaselineRun() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("base"), withIntermediateDirectories: true)
        let base = RecordStore(path: dir.path("base/utterances.jsonl"))
        for i in 0..<40 { try base.append(Self.record(engine: "e", id: "u\(i)", errors: 1)) }
        try dir.write(
            "gates.json",
            bytes: Array(
                #"{"rules": [], "baseline": {"directory": "base", "rules": [{"metric": "wer", "tolerance": 0.01, "significance": 0.05}, {"metric": "rtfx", "tolerance": 1}]}}"#
                    .utf8))
        let gates = try GateConfiguration.load(path: dir.path("gates.json"))
        let worse =
            (0..<40).map { Self.record(engine: "e", id: "u\($0)", errors: 3) } + [
                Self.record(engine: "new", id: "u0", errors: 0)
            ]
        let found = gates.regressions(BenchSummary.summarize(worse), records: worse)
        #expect(found.failures.map(\.metric) == ["wer"])
        #expect(found.failures.first?.bound.contains("P(no worse) = 0.000 over 40 shared utterances") == true)
        #expect(found.notInBaseline == ["new on corpus/tier/manifest.jsonl"])
        let slightly = (0..<40).map { Self.record(engine: "e", id: "u\($0)", errors: $0 == 0 ? 2 : 1) }
        #expect(gates.regressions(BenchSummary.summarize(slightly), records: slightly).failures.isEmpty)
        // A run scored another way is not held to the baseline's figures, and says why.
        let rescored = (0..<40).map { Self.record(engine: "e", id: "u\($0)", errors: 3, policy: "digits") }
        let other = gates.regressions(BenchSummary.summarize(rescored), records: rescored)
        #expect(other.failures.isEmpty)
        #expect(other.notInBaseline == ["e on corpus/tier/manifest.jsonl (scored digits, the baseline english)"])
        #expect(throws: GateError.self) {
            try dir.write(
                "bad.json",
                bytes: Array(
                    #"{"rules": [], "baseline": {"directory": "base", "rules": [{"metric": "rtfx", "tolerance": 1, "significance": 0.05}]}}"#
                        .utf8))
            _ = try GateConfiguration.load(path: dir.path("bad.json"))
        }
    }

    @Test func reportsAreWrittenValidAndEscaped() async throws {
        let dir = try TemporaryDirectory()
        let manifest = try Self.makeCorpus(dir)
        var records = try await runAll(manifest, store: RecordStore(path: dir.path("store.jsonl")))
        // Hostile text in a transcript and an id must not break any report.
        records[0].hypothesis = "<script>alert(1)</script> ]]> \u{0007} & \"q\" שלום 👋🏽"
        records[0].id = "u0\"><img src=x>"
        records[1].error = "engine crashed: \u{0001}boom <b>"
        let summaries = BenchSummary.summarize(records)
        let results = BenchResults(
            createdAt: "2026-11-29T00:00:00Z", policy: "english", pacing: "simulated", shard: "0/1",
            summaries: summaries,
            issues: [BenchIssue(engine: nil, manifest: manifest, message: "line 9: bad & <worse>")],
            gateFailures: [
                GateFailure(engine: "scripted", manifest: manifest, metric: "wer", value: 0.5, bound: "≤ 0.1")
            ])
        let out = dir.path("report")
        try BenchReports.writeAll(results: results, records: records, to: out)
        #expect(JUnitWriter.validate(path: out + "/junit/bench.xml").isEmpty)
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        // The page's one script is its own (table sorting); the transcript's never appears raw.
        #expect(html.components(separatedBy: "<script>").count == 2 && !html.contains("alert(1)</script>"))
        #expect(!html.contains("<img") && html.contains("&lt;worse&gt;"))
        #expect(html.contains("<svg"))
        let markdown = try String(contentsOfFile: out + "/summary.md", encoding: .utf8)
        #expect(markdown.contains("| scripted |"))
        // Read the JUnit back with libxml2: counts and outcomes are as written.
        let xml = try String(contentsOfFile: out + "/junit/bench.xml", encoding: .utf8)
        #expect(xml.contains("failures=\"1\"") && xml.contains("errors=\"2\""))
        #expect(!xml.contains("\u{0007}") && !xml.contains("\u{0001}"))
        let doc = xmlReadFile(out + "/junit/bench.xml", nil, 0)
        #expect(doc != nil)
        xmlFreeDoc(doc)
        // A file that breaks the schema is caught.
        let broken = try dir.write("broken.xml", bytes: Array("<testsuites><testsuite name=\"x\"/></testsuites>".utf8))
        #expect(!JUnitWriter.validate(path: broken).isEmpty)
    }
}

/// Writes a short tone with libsndfile (through AudioIO) for the tiny corpus.
enum AudioFileWriterShim {
    static func writeTone(path: String, seconds: Double) throws {
        try AudioIOBridge.write(
            Signal.sine(frequency: 220, sampleRate: 16_000, seconds: seconds, amplitude: 0.1), to: path)
    }
}
