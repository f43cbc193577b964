import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import EngineCore

@Suite("Memoizing engine")
struct MemoizingEngineTests {
    static let script = EngineScript(words: [
        .init("one", start: 0.1, end: 0.4), .init("two", start: 0.6, end: 0.9), .init("three", start: 1.1, end: 1.4),
    ])
    static let configuration = EngineSessionConfiguration(locale: "en-US")

    /// Ten 100 ms buffers of one noise, and the calls a session makes over them.
    static func buffers() -> [PCMBuffer] {
        var generator = SeededGenerator(seed: 3)
        return (0..<10).map { _ in
            PCMBuffer(mono: (0..<1_600).map { _ in Float(generator.nextGaussian() * 0.01) }, sampleRate: 16_000)
        }
    }

    static func run(
        _ engine: any RecognitionEngine, buffers: [PCMBuffer], finalizeAt: Double
    ) async throws -> [HypothesisUpdate] {
        let session = try await engine.makeSession(configuration)
        var updates: [HypothesisUpdate] = []
        for (index, buffer) in buffers.enumerated() {
            updates.append(
                try await session.accept(buffer, at: MediaTime(sampleIndex: Int64(index) * 1_600, sampleRate: 16_000)))
        }
        updates.append(try await session.finalize(through: MediaTime(seconds: finalizeAt, preferredTimescale: 16_000)))
        await session.close()
        return updates
    }

    @Test func aSequenceSeenBeforeIsAnsweredFromMemoryWithTheBaseEnginesAnswers() async throws {
        let direct = try await Self.run(ScriptedEngine(script: Self.script), buffers: Self.buffers(), finalizeAt: 1)
        let memo = MemoizingEngine(base: ScriptedEngine(script: Self.script))
        let first = try await Self.run(memo, buffers: Self.buffers(), finalizeAt: 1)
        #expect(memo.statistics == (0, 11))
        let second = try await Self.run(memo, buffers: Self.buffers(), finalizeAt: 1)
        #expect(memo.statistics == (11, 11))
        #expect(first == direct && second == direct)
    }

    /// A session that departs after a shared start makes a base session, replays the start into it,
    /// and answers the rest live: exactly what the base engine alone answers.
    @Test func aDepartureReplaysTheSharedStartAndGoesLive() async throws {
        let memo = MemoizingEngine(base: ScriptedEngine(script: Self.script))
        _ = try await Self.run(memo, buffers: Self.buffers(), finalizeAt: 1)
        let other =
            Array(Self.buffers().prefix(6)) + [PCMBuffer(mono: [Float](repeating: 0, count: 1_600), sampleRate: 16_000)]
        let departed = try await Self.run(memo, buffers: other, finalizeAt: 0.7)
        #expect(memo.statistics == (6, 13))
        let direct = try await Self.run(ScriptedEngine(script: Self.script), buffers: other, finalizeAt: 0.7)
        #expect(departed == direct)
        #expect(departed.flatMap(\.finalized).flatMap(\.words).map(\.text) == ["one"])
    }

    /// Another configuration is another sequence; a call that threw is made again next time.
    @Test func configurationsAreApartAndFailuresAreNotRemembered() async throws {
        let failing = EngineScript(words: Self.script.words, faults: [.throwAt(0.5, message: "planted")])
        let memo = MemoizingEngine(base: ScriptedEngine(script: failing))
        for _ in 0..<2 {
            await #expect(throws: EngineError.self) {
                _ = try await Self.run(memo, buffers: Self.buffers(), finalizeAt: 1)
            }
        }
        // Four buffers answered, the fifth threw: the second time, four from memory and one made again.
        #expect(memo.statistics == (4, 4))
        let session = try await memo.makeSession(EngineSessionConfiguration(locale: "en-GB"))
        _ = try await session.accept(Self.buffers()[0], at: .zero)
        #expect(memo.statistics == (4, 5))
    }

    /// Two adapters over one engine (by name) share a memo: the second one's calls are answered
    /// from memory, with the compute the engine reported for them. An adapter alone over its
    /// engine, and a bare engine, are left as they are.
    @Test func adaptersOverOneEngineShareItsAnswersAndTheirComputeTimes() async throws {
        let calls = Locked(0)
        let first = RelayEngine(id: "a", base: CostlyEngine(calls: calls))
        let second = RelayEngine(id: "b", base: CostlyEngine(calls: calls))
        let alone = RelayEngine(id: "c", base: ScriptedEngine(script: Self.script))
        let bare = CostlyEngine(calls: calls)
        let engines = MemoizingEngine.sharingInnermost([first, second, alone, bare])
        #expect(MemoizingEngine.statistics(of: engines[0]) != nil && MemoizingEngine.statistics(of: engines[1]) != nil)
        #expect(MemoizingEngine.statistics(of: engines[2]) == nil && MemoizingEngine.statistics(of: engines[3]) == nil)
        #expect(engines.map(\.name) == ["a", "b", "c", "costly"])
        let answers = try await Self.run(engines[0], buffers: Self.buffers(), finalizeAt: 1)
        let again = try await Self.run(engines[1], buffers: Self.buffers(), finalizeAt: 1)
        #expect(calls.withLock { $0 } == 11)
        #expect(again == answers)
        let compute: [Double] = again.compactMap(\.computeSeconds)
        #expect(compute == (1...11).map(Double.init))
        #expect(MemoizingEngine.statistics(of: engines[1])! == (11, 11))
    }
}

/// An engine whose n-th call, counted across its sessions, reports n seconds of compute.
private struct CostlyEngine: RecognitionEngine {
    let calls: Locked<Int>
    let id = "costly"
    var capabilities: EngineCapabilities { ScriptedEngine(script: .init(words: [])).capabilities }

    func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        Session(calls: calls)
    }

    final class Session: RecognitionSession {
        let calls: Locked<Int>
        init(calls: Locked<Int>) { self.calls = calls }
        func update() -> HypothesisUpdate {
            HypothesisUpdate(
                computeSeconds: Double(
                    calls.withLock {
                        $0 += 1
                        return $0
                    }))
        }
        func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate { update() }
        func finalize(through time: MediaTime) async throws -> HypothesisUpdate { update() }
        func cancel(before time: MediaTime) async -> HypothesisUpdate { update() }
        func close() async {}
    }
}
