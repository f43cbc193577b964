import AudioIO
import Corpus
import Dispatch
import EngineCore
import Foundation
import Metrics
import PocketSphinx
import Records
import Reports
import SpeechCore
import TestSupport
import Testing

@testable import Benchmark

/// Where an utterance's engine calls run: on an engine thread, chunks and the analyzer's queued
/// finalisation alike, so an engine may block in place there.
@Suite("Utterance runs", .isolatedResources)
struct UtteranceRunTests {
    /// Records, per call, whether it ran where blocking is allowed; says "one" at finalize.
    struct WhereEngine: RecognitionEngine {
        let id = "where-test"
        let calls: Locked<[String]>
        var capabilities: EngineCapabilities { .finalWordsOnly16kHz }

        func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
            Session(calls: calls)
        }

        final class Session: RecognitionSession {
            let calls: Locked<[String]>
            init(calls: Locked<[String]>) { self.calls = calls }

            private func note(_ call: String) {
                calls.withLock { $0.append("\(call) \(EngineThread.mayBlock ? "engine thread" : "elsewhere")") }
            }

            func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
                note("accept")
                return HypothesisUpdate()
            }

            func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
                note("finalize")
                // A real suspension: the call resumes wherever its task prefers, not where it was.
                await withCheckedContinuation { done in DispatchQueue.global().async { done.resume() } }
                note("finalize, resumed")
                let word = RecognizedWord(text: "one", range: TimeRange(start: .zero, end: time))
                return HypothesisUpdate(
                    finalized: [HypothesisSegment(range: TimeRange(start: .zero, end: time), words: [word])],
                    finalizedThrough: time)
            }

            func cancel(before time: MediaTime) async -> HypothesisUpdate { HypothesisUpdate() }
            func close() async { note("close") }
        }
    }

    /// An engine that learned the locale from one speaker's recordings (as the DSP engine's
    /// templates do).
    struct EnrolledEngine: RecognitionEngine {
        let base: WhereEngine
        var id: String { "enrolled-test" }
        var capabilities: EngineCapabilities { base.capabilities }
        func enrolledSpeakers(locale: String) -> Set<String>? { locale == "en-US" ? ["s0"] : nil }
        func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
            try await base.makeSession(configuration)
        }
    }

    /// A figure on the voices an engine enrolled from is marked speaker-dependent, from the record
    /// to every report that shows it: the tables (with the note), the chart (a pale bar whose value
    /// carries the mark) and the JUnit case; a tier of other voices is not.
    @Test func figuresOnEnrolledVoicesAreMarkedSpeakerDependent() async throws {
        let dir = try TemporaryDirectory()
        let manifest = try BenchmarkTests.makeCorpus(dir)
        let load = ManifestReader.load(path: manifest)
        let run = UtteranceRun(
            engine: EnrolledEngine(base: WhereEngine(calls: Locked([]))), policy: ScoringPolicy(normalizer: .english))
        var records: [UtteranceRecord] = []
        for utterance in load.utterances.prefix(2) {
            records.append(
                await run.run(
                    utterance, audioPath: ManifestValidator.resolve(utterance.audio, root: load.root),
                    manifest: manifest))
        }
        #expect(records.map(\.speaker) == ["s0", "s1"] && records.map(\.enrolledSpeaker) == [true, nil])
        #expect(BenchSummary.make(engine: "e", manifest: manifest, records: records).speakerDependent == true)
        #expect(BenchSummary.make(engine: "e", manifest: manifest, records: [records[1]]).speakerDependent == nil)
        let results = BenchResults.assemble(records: records, issues: [], gates: nil, plan: nil, peakRSSBytes: nil)
        let markdown = BenchReports.markdown(results)
        #expect(markdown.contains("| enrolled-test | tiny † |") && markdown.contains("† speaker-dependent: "))
        let html = HTMLReport.render(results: results, records: records)
        #expect(html.contains("fill-opacity=\"0.35\"") && html.contains("† speaker-dependent (pale)"))
        #expect(html.contains("<td class=l>tiny †</td>"))
        let junit = BenchReports.junit(results: results, records: records)
        let properties = junit.suites.flatMap(\.cases).flatMap(\.properties)
        #expect(properties.contains { $0 == ("speakerDependent", "true") })
        // The regression page's totals, against a baseline of the same records.
        let comparison = RunComparison(baseline: records, current: records)
        #expect(comparison.totals.map(\.speakerDependent) == [true])
        let regressions = try RegressionPage.render(
            comparison, baselineName: "baseline", partialEngines: [], audio: [:], links: [])
        #expect(regressions.contains("<td class=l>tiny †</td>") && regressions.contains("† speaker-dependent: "))
        let unmarked = BenchResults.assemble(
            records: [records[1]], issues: [], gates: nil, plan: nil, peakRSSBytes: nil)
        #expect(
            !BenchReports.markdown(unmarked).contains("†")
                && !HTMLReport.render(results: unmarked, records: []).contains("†"))
    }

    @Test func everyEngineCallOfAnUtteranceRunsOnAnEngineThread() async throws {
        let dir = try TemporaryDirectory()
        let manifest = try BenchmarkTests.makeCorpus(dir)
        let load = ManifestReader.load(path: manifest)
        let utterance = try #require(load.utterances.first)
        let calls = Locked<[String]>([])
        let run = UtteranceRun(engine: WhereEngine(calls: calls), policy: ScoringPolicy(normalizer: .english))
        let record = await run.run(
            utterance, audioPath: ManifestValidator.resolve(utterance.audio, root: load.root), manifest: manifest)
        #expect(record.error == nil && record.hypothesis == "one")
        let seen = calls.withLock { $0 }
        // One second in 100 ms chunks, the finalisation the analyzer queues, and the close at finish.
        #expect(
            seen == Array(repeating: "accept engine thread", count: 10) + [
                "finalize engine thread", "finalize, resumed engine thread", "close engine thread",
            ])
        #expect(!EngineThread.mayBlock)
    }

    /// A bench utterance's samples are copied twice on their way to PocketSphinx: by the decoder
    /// (libsndfile writing the chunk's samples) and into the engine's own Int16. The chunker, the
    /// AVAudioPCMBuffer and the analyzer hand them on without copying.
    @Test func samplesReachTheEngineWithTwoCopies() async throws {
        let (meter, record) = try await copiesOfCards(atRate: nil)
        #expect(record.error == nil)
        let frames = 17_526
        #expect(meter.byPlace == ["decode": frames, "convert": frames], "\(meter.byPlace)")
        #expect(meter.copiesPerSample(of: frames) == 2)
    }

    /// The same clip written at 44.1 kHz is copied three times: by the decoder, by libsamplerate
    /// writing 16 kHz samples straight into each chunk, and into PocketSphinx's Int16. PocketSphinx
    /// hears the same words as in the 16 kHz file.
    @Test func aResampledFileReachesTheEngineWithThreeCopies() async throws {
        let (meter, record) = try await copiesOfCards(atRate: 44_100)
        let (_, original) = try await copiesOfCards(atRate: nil)
        #expect(record.error == nil && record.hypothesis == original.hypothesis, "\(record.hypothesis)")
        let input = try #require(meter.byPlace["decode"]), output = try #require(meter.byPlace["resample"])
        #expect(meter.byPlace == ["decode": input, "resample": output, "convert": output], "\(meter.byPlace)")
        #expect(abs(Double(input) / 44_100 - Double(output) / 16_000) < 0.01)
    }

    /// PocketSphinx's "ten of clubs" clip run as a bench utterance, its copies counted; at `rate`,
    /// the clip is written at that rate first.
    func copiesOfCards(atRate rate: Double?) async throws -> (SampleCopyMeter, UtteranceRecord) {
        let clip = "/usr/share/pocketsphinx/test/data/cards/001.wav"
        try #require(FileManager.default.fileExists(atPath: clip), "pocketsphinx-testdata is not installed")
        let dir = try TemporaryDirectory()
        if let rate {
            let (samples, clipRate) = try AudioFileReader.readMono(path: clip)
            let converted = try SampleRateConverter.convert(samples, from: clipRate, to: rate, quality: .best)
            try AudioFileWriter.writeMono(converted, sampleRate: rate, to: dir.path("001.wav"), encoding: .float32)
        } else {
            try FileManager.default.copyItem(atPath: clip, toPath: dir.path("001.wav"))
        }
        let manifest = try dir.write(
            "manifest.jsonl", bytes: Array(#"{"id":"001","audio":"001.wav","reference":"ten of clubs"}"#.utf8) + [10])
        let load = ManifestReader.load(path: manifest)
        let utterance = try #require(load.utterances.first)
        let meter = SampleCopyMeter()
        let run = UtteranceRun(engine: PocketSphinxEngine(), policy: ScoringPolicy(normalizer: .english))
        let record = await SampleCopies.$meter.withValue(meter) {
            await run.run(utterance, audioPath: dir.path("001.wav"), manifest: manifest)
        }
        return (meter, record)
    }

    /// The streaming measures of one utterance, worked out by hand from a script: "one" (ends
    /// 0.4 s) shown first as "won" at 0.4, as "one" at 0.5; "two" (ends 0.7) at 0.7; both final
    /// when the audio ends at 1.0 s (the engine finalizes only when asked). Compute is the
    /// scripted engine's wall time, a few milliseconds in all.
    @Test func aScriptedUtteranceGivesTheMeasuresWorkedOutByHand() async throws {
        let dir = try TemporaryDirectory()
        let manifest = try BenchmarkTests.makeCorpus(dir)
        let load = ManifestReader.load(path: manifest)
        let utterance = try #require(load.utterances.first)
        let engine = ScriptedEngine(
            script: EngineScript(
                words: [.init("one", start: 0.2, end: 0.4, revisions: ["won"]), .init("two", start: 0.5, end: 0.7)],
                revisionInterval: 0.1, endpointSilence: nil))
        let record = await UtteranceRun(engine: engine, policy: ScoringPolicy(normalizer: .english))
            .run(utterance, audioPath: ManifestValidator.resolve(utterance.audio, root: load.root), manifest: manifest)
        #expect(record.error == nil && record.hypothesis == "one two")
        let measures = record.measures
        let latencies = try #require(measures.wordLatencies)
        func near(_ values: [Double], _ expected: [Double]) -> Bool {
            values.count == expected.count && zip(values, expected).allSatisfy { abs($0 - $1) < 0.02 }
        }
        #expect(near(latencies.hypothesis, [0.1, 0.0]), "\(latencies.hypothesis)")
        #expect(near(latencies.confirmed, [0.6, 0.3]), "\(latencies.confirmed)")
        // "won" → "one": one shown word replaced; "two" appended is not a correction.
        #expect(measures.corrections == Corrections(substitutions: 1))
        // The final result comes with the finalize that ends the input.
        #expect(near([try #require(measures.drain)], [0]))
    }
}
