import EngineCore
import SpeechCore
import Testing

@testable import StreamingPolicies

@Suite("Whisper-style streaming over an engine")
struct WhisperStyleEngineTests {
    static let script = EngineScript(
        words: (0..<10).map { i in
            EngineScript.Word(
                ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"][i],
                start: 0.3 + Double(i) * 0.55, end: 0.7 + Double(i) * 0.55)
        }, endpointSilence: nil)

    @Test func commitsByAgreementAndEndsWithEveryWordOnce() async throws {
        var policy = LocalAgreementPolicy()
        policy.trimSeconds = 2
        let engine = WhisperStyleEngine(base: ScriptedEngine(script: Self.script), policy: policy)
        let updates = try await streamSilence(engine, seconds: 6.5)
        let finals = updates.flatMap { $0.1.finalized.flatMap(\.words) }.map(\.text)
        #expect(finals == ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"])
        // Nothing is committed by the first decode (1 s): agreement needs the second (2 s).
        let firstCommit = try #require(updates.first { !$0.1.finalized.isEmpty })
        #expect(firstCommit.0 == 2.0)
        #expect(updates.contains { $0.1.volatile != nil })
        // Final results arrive in time order and never overlap.
        let ranges = updates.flatMap { $0.1.finalized.map(\.range) }
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.end <= $1.start })
    }

    /// The scripted engine, reporting 10 ms of CPU time for every call.
    struct CPUReporting: RecognitionEngine {
        let base = ScriptedEngine(script: WhisperStyleEngineTests.script)
        var id: String { base.id }
        var capabilities: EngineCapabilities { base.capabilities }
        func isInstalled(locale: String) -> Bool { true }
        func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
            Session(base: try await base.makeSession(configuration))
        }
        final class Session: RecognitionSession {
            let base: any RecognitionSession
            init(base: any RecognitionSession) { self.base = base }
            func timed(_ update: HypothesisUpdate) -> HypothesisUpdate {
                var u = update
                u.computeSeconds = 0.01
                return u
            }
            func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
                timed(try await base.accept(audio, at: start))
            }
            func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
                timed(try await base.finalize(through: time))
            }
            func cancel(before time: MediaTime) async -> HypothesisUpdate { timed(await base.cancel(before: time)) }
            func close() async { await base.close() }
        }
    }

    /// Every call of the three adapters carries CPU time when their base engine reports it (so a
    /// bench counts CPU, not wall time): the decodes' sum, zero for calls that only keep audio.
    @Test func theAdaptersPassTheirBaseEnginesCPUTimeOn() async throws {
        let engines: [any RecognitionEngine] = [
            WhisperStyleEngine(base: CPUReporting()), SlidingWindowEngine(base: CPUReporting()),
            ConfirmationEngine(base: CPUReporting(), policy: .init(usesEnergyGate: false)),
        ]
        for engine in engines {
            let updates = try await streamSilence(engine, seconds: 4).map(\.1)
            #expect(updates.allSatisfy { $0.computeSeconds != nil }, "\(engine.name)")
            // Each decode is one accept and one finalize of a fresh base session: 20 ms.
            #expect(updates.contains { abs(($0.computeSeconds ?? 0) - 0.02) < 1e-9 }, "\(engine.name)")
        }
    }

    @Test func theWindowNeverExceedsItsLimit() async throws {
        var policy = LocalAgreementPolicy()
        policy.windowSeconds = 1.5
        policy.trimSeconds = 100
        // With a 1.5 s window, words that began more than 1.5 s before a decode are never heard whole.
        let engine = WhisperStyleEngine(base: ScriptedEngine(script: Self.script), policy: policy)
        let finals = try await streamSilence(engine, seconds: 6.5).flatMap { $0.1.finalized.flatMap(\.words) }.map(
            \.text)
        #expect(Set(finals).count == finals.count)
        #expect(finals.count < 10)
    }
}
