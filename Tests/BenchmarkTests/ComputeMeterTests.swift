import Corpus
import Dispatch
import Foundation
import Metrics
import Records
import SpeechCore
import TestSupport
import Testing

@testable import Benchmark

/// Compute is the engine's CPU time, never waiting: an engine whose sessions queue behind one
/// shared decoder gives the same RTFx with one job as with two.
@Suite("Compute measurement", .isolatedResources)
struct ComputeMeterTests {
    /// One decoder shared by every session (like a single worker process): calls run one after
    /// another on its queue, and each burns `cost` seconds of CPU. Says "one" at finalize.
    struct SharedDecoderEngine: RecognitionEngine {
        static let queue = DispatchQueue(label: "speech-harness.tests.shared-decoder")
        let id = "shared-decoder-test"
        let cost: Double
        var capabilities: EngineCapabilities { .finalWordsOnly16kHz }

        func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
            Session(cost: cost)
        }

        final class Session: RecognitionSession {
            let cost: Double
            init(cost: Double) { self.cost = cost }

            private func work(_ result: HypothesisUpdate) async -> HypothesisUpdate {
                let cost = self.cost
                return await withCheckedContinuation { continuation in
                    SharedDecoderEngine.queue.async {
                        let start = CPUClock.thread
                        while CPUClock.thread - start < cost {}
                        var update = result
                        update.computeSeconds = CPUClock.thread - start
                        continuation.resume(returning: update)
                    }
                }
            }

            func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
                await work(HypothesisUpdate())
            }

            func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
                let word = RecognizedWord(
                    text: "one", range: TimeRange(start: .zero, end: MediaTime(seconds: 0.4, preferredTimescale: 1_000))
                )
                return await work(
                    HypothesisUpdate(
                        finalized: [HypothesisSegment(range: TimeRange(start: .zero, end: time), words: [word])],
                        finalizedThrough: time))
            }

            func cancel(before time: MediaTime) async -> HypothesisUpdate { HypothesisUpdate() }
            func close() async {}
        }
    }

    func run(jobs: Int, manifest: String, dir: TemporaryDirectory) async -> [UtteranceRecord] {
        let store = RecordStore(path: dir.path("jobs\(jobs).jsonl"))
        var plan = BenchPlan(
            engines: ["shared-decoder-test"], manifests: [manifest], policy: ScoringPolicy(normalizer: .english))
        plan.jobs = jobs
        plan.limit = 4
        _ = await BenchRunner(plan: plan, store: store).run()
        return store.records().sorted { $0.id < $1.id }
    }

    @Test func queueingBehindASharedDecoderDoesNotEnterRTFx() async throws {
        EngineRegistry.shared.register(
            .init(
                id: "shared-decoder-test", summary: "test", preference: 10_000,
                make: { SharedDecoderEngine(cost: 0.02) }))
        let dir = try TemporaryDirectory()
        let manifest = try BenchmarkTests.makeCorpus(dir)
        let one = await run(jobs: 1, manifest: manifest, dir: dir)
        let two = await run(jobs: 2, manifest: manifest, dir: dir)
        #expect(one.count == 4 && two.count == 4)
        #expect(one.map(\.hypothesis) == two.map(\.hypothesis) && one.allSatisfy { $0.hypothesis == "one" })
        #expect((one + two).allSatisfy { $0.computeClock == "cpu" && $0.error == nil })
        let summary1 = BenchSummary.summarize(one)[0], summary2 = BenchSummary.summarize(two)[0]
        // Each utterance makes 11 calls (10 chunks and a finalize) of 20 ms of CPU.
        #expect(
            one.allSatisfy { $0.computeSeconds >= 0.22 && $0.computeSeconds < 0.22 * 1.1 },
            "\(one.map(\.computeSeconds))")
        #expect(
            abs(summary2.rtfx / summary1.rtfx - 1) < 0.05,
            "RTFx \(summary1.rtfx) with one job, \(summary2.rtfx) with two")
        // The queue was real: with two jobs the calls waited for each other, which wall time shows.
        let wall2 = two.compactMap(\.wallSeconds).reduce(0, +), compute2 = two.map(\.computeSeconds).reduce(0, +)
        #expect(wall2 > 1.4 * compute2, "wall \(wall2) s against compute \(compute2) s with two jobs")
        #expect((summary2.wallRTFx ?? 0) < summary2.rtfx / 1.4)
    }

    @Test func adaptersSharingDecodesKeepTheComputeMeasuredWhenTheCallsWereMade() async throws {
        for id in ["relay-a", "relay-b"] {
            EngineRegistry.shared.register(
                .init(
                    id: id, summary: "test", preference: 10_000,
                    make: { RelayEngine(id: id, base: SharedDecoderEngine(cost: 0.02)) }))
        }
        let dir = try TemporaryDirectory()
        let store = RecordStore(path: dir.path("shared.jsonl"))
        var plan = BenchPlan(
            engines: ["relay-a", "relay-b"], manifests: [try BenchmarkTests.makeCorpus(dir)],
            policy: ScoringPolicy(normalizer: .english))
        plan.limit = 4
        plan.sharesDecodes = true
        _ = await BenchRunner(plan: plan, store: store).run()
        let records = store.records().sorted { $0.id < $1.id }
        let a = records.filter { $0.engine == "relay-a" }, b = records.filter { $0.engine == "relay-b" }
        #expect(a.count == 4 && b.count == 4 && records.allSatisfy { $0.error == nil && $0.sharedDecodes == true })
        // relay-b's calls were all answered from memory: the same answers with the same CPU times,
        // to the nanosecond (two live runs of 11 calls of 20 ms would not sum to the same figure).
        #expect(a.map(\.hypothesis) == b.map(\.hypothesis) && a.map(\.computeSeconds) == b.map(\.computeSeconds))
        #expect(a.allSatisfy { $0.computeSeconds >= 0.22 })
        // Wall RTFx is no speed for either, so the summaries leave it out.
        #expect(BenchSummary.summarize(records).allSatisfy { $0.wallRTFx == nil && $0.rtfx > 0 })
    }
}
