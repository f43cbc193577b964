import EngineCore
import Foundation
import SpeechCore
import Testing

@testable import StreamingPolicies

@Suite("whisper_streaming's VAC: Silero's iterator, the controller, the gated session")
struct VoiceActivityEngineTests {
    // MARK: the iterator (silero_vad_iterator.py)

    @Test func speechStartsPaddedBackAndEndsAfterHalfASecondUnderTheLowerThreshold() {
        var vad = VoiceActivityIterator()
        #expect(vad([Float](repeating: 0.1, count: 10)) == nil)
        // The 11th window is speech: it ends at 5,632; the start is padded back 1,600 and a window.
        #expect(vad([0.9]) == .init(start: 5_632 - 1_600 - 512))
        // 0.4 is neither speech nor silence (the hysteresis of 0.15).
        #expect(vad([Float](repeating: 0.4, count: 30)) == nil)
        // Quiet windows from the one ending at 5,632 + 31 × 512 = 21,504: 8,000 samples later it ends.
        #expect(vad([Float](repeating: 0.1, count: 15)) == nil)
        #expect(vad([0.1]) == nil)
        #expect(vad([0.1]) == .init(end: 21_504 + 1_600 - 512))
        #expect(!vad.triggered)
    }

    @Test func speechBackBeforeTheSilenceRunsOutKeepsItGoing() {
        var vad = VoiceActivityIterator()
        _ = vad([0.9])
        #expect(vad([Float](repeating: 0.1, count: 10) + [0.9] + [Float](repeating: 0.1, count: 10)) == nil)
        #expect(vad.triggered)
    }

    /// FixedVADIterator's merge: a start and an end in one call are both reported; an end and then
    /// a start in one call cancel out, so neither is reported and speech goes on (its flaw, kept).
    @Test func eventsInOneCallMergeAsFixedVADIteratorMergesThem() {
        var both = VoiceActivityIterator()
        let speechThenSilence = [Float](repeating: 0.9, count: 5) + [Float](repeating: 0.1, count: 17)
        #expect(both(speechThenSilence) == .init(start: 0, end: 512 * 6 + 1_600 - 512))

        var lost = VoiceActivityIterator()
        _ = lost([0.9])
        #expect(lost([Float](repeating: 0.1, count: 17) + [0.9]) == nil)
        #expect(lost.triggered)
    }

    // MARK: the controller (VACOnlineASRProcessor)

    @Test func withoutVoiceOnlyTheLastSecondIsKept() {
        var vac = VoiceActivityController()
        for _ in 0..<3 { #expect(vac.insert([Float](repeating: 0, count: 10_000), event: nil).isEmpty) }
        #expect(vac.buffer.count == 16_000 && vac.bufferOffset == 14_000)
        // A start may reach back into the kept second: the processor starts there.
        let chunk = (0..<1_600).map(Float.init)
        let actions = vac.insert(chunk, event: .init(start: 20_000))
        #expect(actions.first == .restart(atSample: 20_000))
        guard case .send(let sent) = actions.last else { return #expect(Bool(false)) }
        #expect(sent.count == 16_000 + 1_600 - 6_000 && sent.suffix(1_600) == chunk[...])
        #expect(vac.status == .voice && vac.buffer.isEmpty && vac.bufferOffset == 31_600)
    }

    @Test func theProcessorDecodesOnlyAfterMoreThanAChunkOfVoice() {
        var vac = VoiceActivityController()
        _ = vac.insert([Float](repeating: 0, count: 6_000), event: .init(start: 0))
        _ = vac.insert([Float](repeating: 0, count: 10_000), event: nil)
        #expect(vac.sinceDecode == 16_000 && vac.processIteration() == .none)  // exactly 1 s: not more
        _ = vac.insert([0], event: nil)
        #expect(vac.processIteration() == .decode)
        #expect(vac.processIteration() == .none)
    }

    /// The end lies before the piece it was found in (voiced pieces go on at once), so numpy's
    /// slice up to a negative position cuts nothing: the processor had the silence already, and
    /// the next iteration finishes without a decode.
    @Test func anEndFinishesTheUtteranceWithoutADecode() {
        var vac = VoiceActivityController()
        _ = vac.insert([Float](repeating: 0, count: 1_600), event: .init(start: 0))
        for _ in 0..<20 { _ = vac.insert([Float](repeating: 0, count: 1_600), event: nil) }
        _ = vac.processIteration()
        let actions = vac.insert([Float](repeating: 0, count: 1_600), event: .init(end: 27_000))
        #expect(actions == [.send([])])
        #expect(vac.status == .nonvoice && vac.processIteration() == .finish)
        #expect(vac.processIteration() == .none)
    }

    static let slices: [(from: Int?, to: Int?, expected: [Int])] = [
        (-3, nil, [7, 8, 9]), (nil, -8, [0, 1]), (nil, -20, []), (-20, nil, Array(0..<10)), (4, 2, []),
        (8, 30, [8, 9]),
    ]

    @Test(arguments: slices)
    func slicesReadPositionsAsNumpyDoes(from: Int?, to: Int?, expected: [Int]) {
        let samples = (0..<10).map(Float.init)
        #expect(VoiceActivityController.slice(samples, from: from, to: to) == expected.map(Float.init))
    }

    // MARK: the session

    static let words = [
        EngineScript.Word("one", start: 0.3, end: 0.6), EngineScript.Word("two", start: 0.8, end: 1.0),
        EngineScript.Word("three", start: 2.25, end: 2.4),
    ]

    /// Streams `voiced` 100 ms chunks of a tone (the rest silence) through `engine` for `seconds`,
    /// then finalizes; returns every final word.
    static func stream(
        _ engine: any RecognitionEngine, seconds: Double, voiced: (Int) -> Bool
    ) async throws -> (words: [String], updates: [HypothesisUpdate]) {
        let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
        var updates: [HypothesisUpdate] = []
        for k in 0..<Int((seconds * 10).rounded()) {
            let samples = (0..<1_600).map { i in voiced(k) ? Float(0.3 * sin(Double(k * 1_600 + i) * 0.05)) : 0 }
            updates.append(
                try await session.accept(
                    PCMBuffer(mono: samples, sampleRate: 16_000),
                    at: MediaTime(sampleIndex: Int64(k * 1_600), sampleRate: 16_000)))
        }
        updates.append(try await session.finalize(through: MediaTime(seconds: seconds, preferredTimescale: 16_000)))
        await session.close()
        return (updates.flatMap { $0.finalized.flatMap(\.words) }.map(\.text), updates)
    }

    /// Speech until 2.4 s: the processor decodes at 1.1 s and 2.2 s (more than 1 s of voice each
    /// time), commits "one two", and at the end of speech (found at 3.0 s) finishes without
    /// decoding again, so "three", said after the last decode, is lost; LocalAgreement alone
    /// decodes at the end of the input and keeps it.
    @Test func anUtteranceEndsWithoutHearingWhatCameAfterTheLastDecode() async throws {
        let scripted = ScriptedEngine(script: EngineScript(words: Self.words, endpointSilence: nil))
        let counted = RewritingEngine(base: scripted) { _, words, _ in words }
        let vac = VoiceActivityEngine(base: counted, policy: VoiceActivityPolicy(detector: EnergyDetector()))
        #expect(vac.name == "scripted+vac[energy,vth0.5,silence0.5s,pad0.1s,chunk1s,la2,trim15s]")
        let gated = try await Self.stream(vac, seconds: 3.5) { $0 < 24 }
        #expect(gated.words == ["one", "two"])
        #expect(counted.decodeCount == 2)
        #expect(gated.updates.dropLast().allSatisfy { ($0.computeSeconds ?? 0) >= 0.001 })  // the detector's CPU

        let plain = WhisperStyleEngine(base: scripted)
        #expect(try await Self.stream(plain, seconds: 3.5) { $0 < 24 }.words == ["one", "two", "three"])
    }

    @Test func silenceIsNeverDecoded() async throws {
        let counted = RewritingEngine(base: ScriptedEngine(script: EngineScript(words: [], endpointSilence: nil))) {
            _, words, _ in words
        }
        let vac = VoiceActivityEngine(base: counted, policy: VoiceActivityPolicy(detector: EnergyDetector()))
        let result = try await Self.stream(vac, seconds: 4) { _ in false }
        #expect(result.words.isEmpty && counted.decodeCount == 0)
    }

    /// Each start of speech begins the processor afresh at its time; silence after speech still
    /// reaches it until the end is found (0.5 s later), so a short first utterance is decoded then
    /// and finished; the end of the input decodes the voiced buffer once more and commits it all.
    @Test func eachUtteranceStartsAfreshAndTheInputsEndDecodesTheRest() async throws {
        let words = [
            EngineScript.Word("one", start: 0.3, end: 0.6), EngineScript.Word("two", start: 2.7, end: 3.0),
            EngineScript.Word("three", start: 3.2, end: 3.4),
        ]
        let windows = Locked<[TimeRange]>([])
        let scripted = RewritingEngine(base: ScriptedEngine(script: EngineScript(words: words, endpointSilence: nil))) {
            _, words, window in
            windows.withLock { $0.append(window) }
            return words
        }
        let vac = VoiceActivityEngine(base: scripted, policy: VoiceActivityPolicy(detector: EnergyDetector()))
        let result = try await Self.stream(vac, seconds: 3.5) { $0 < 8 || $0 >= 25 }
        #expect(result.words == ["one", "two", "three"])
        // Decodes at 1.1 s from 0; then from the second start (the window that holds 2.5 s ends at
        // 40,448 samples, less 1,600 and a window: 38,336, 2.396 s) at 3.4 s, once 3,264 + 8 × 1,600
        // voiced samples are more than 1 s, and at the end of the input.
        let starts = windows.withLock { $0.map { ($0.start.seconds * 1000).rounded() / 1000 } }
        #expect(starts == [0, 2.396, 2.396])
        let ranges = result.updates.flatMap { $0.finalized.map(\.range) }
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.end <= $1.start })
    }

    /// The error names the engine by the id it is registered under.
    @Test func aPolicyWithoutADetectorFailsItsSession() async throws {
        let base = ScriptedEngine(script: EngineScript(words: [], endpointSilence: nil))
        let engine = VoiceActivityEngine(base: base, id: "captions-vac")
        await #expect(throws: EngineError.failed(engine: "captions-vac", reason: "no voice activity detector")) {
            try await Self.stream(engine, seconds: 0.2) { _ in true }
        }
        let unnamed = VoiceActivityEngine(base: base)
        await #expect(throws: EngineError.failed(engine: base.id + "+vac", reason: "no voice activity detector")) {
            try await Self.stream(unnamed, seconds: 0.2) { _ in true }
        }
    }
}

/// A detector that calls a window speech when its mean magnitude is over 0.01 (0.9, else 0.0), and
/// reports 1 ms of CPU time per call: a stand-in for Silero in the policy's tests.
struct EnergyDetector: VoiceActivityDetector {
    var model: String { "energy" }
    func makeStream() async throws -> any VoiceActivityStream { Stream() }

    final class Stream: VoiceActivityStream, @unchecked Sendable {
        let windowSamples = 512
        private var pending: [Float] = []
        func append(_ samples: [Float]) async throws -> VoiceProbabilities {
            pending += samples
            var probabilities: [Float] = []
            while pending.count >= windowSamples {
                let window = pending.prefix(windowSamples)
                probabilities.append(window.map(abs).reduce(0, +) / Float(windowSamples) > 0.01 ? 0.9 : 0)
                pending.removeFirst(windowSamples)
            }
            return VoiceProbabilities(probabilities: probabilities, computeSeconds: 0.001)
        }
        func close() async {}
    }
}
