import EngineCore
import SpeechCore
import Testing

@testable import StreamingPolicies

/// WhisperKit's AudioStreamTranscriber: its energy gate and segment confirmation worked out by
/// hand, then the adapter over the scripted engine (which hears a word only when it is whole).
@Suite("WhisperKit's segment confirmation")
struct ConfirmationEngineTests {
    /// 100 ms buffers at 1 kHz: `quiet` buffers at amplitude 0.001, then `loud` at 0.1.
    static func gate(quiet: Int, loud: Int) -> EnergyGate {
        var gate = EnergyGate(rate: 1_000)
        gate.append([Float](repeating: 0.001, count: quiet * 100) + [Float](repeating: 0.1, count: loud * 100))
        return gate
    }

    @Test func relativeEnergyIsDecibelsAboveTheQuietestRecentBuffer() {
        let gate = Self.gate(quiet: 20, loud: 1)
        // Quiet buffers sit at the reference (−60 dB): 0. The loud one is −20 dB, 40 of the 60 dB
        // between the reference and full scale: 2/3.
        #expect(gate.relativeEnergy.count == 21)
        #expect(gate.relativeEnergy.prefix(20).allSatisfy { $0 == 0 })
        #expect(abs(gate.relativeEnergy[20] - 2.0 / 3.0) < 1e-4)
    }

    @Test func theGateIgnoresTheLastSecond() {
        // 2.5 s of new audio: the first 15 of its 25 buffers are looked at, the last 10 are not.
        #expect(!Self.gate(quiet: 20, loud: 5).voiceDetected(newSeconds: 2.5, threshold: 0.3))
        #expect(Self.gate(quiet: 20, loud: 15).voiceDetected(newSeconds: 2.5, threshold: 0.3))
        // With little new audio, at least ten buffers are looked at: all of them.
        #expect(Self.gate(quiet: 20, loud: 5).voiceDetected(newSeconds: 1.1, threshold: 0.3))
    }

    static func segment(_ text: String, _ start: Double, _ end: Double) -> HypothesisSegment {
        let range = TimeRange(
            start: MediaTime(seconds: start, preferredTimescale: 1_000),
            end: MediaTime(seconds: end, preferredTimescale: 1_000))
        return HypothesisSegment(range: range, words: [RecognizedWord(text: text, range: range)])
    }

    @Test func allSegmentsButTheLastTwoAreConfirmed() {
        let three = [Self.segment("a", 0, 1), Self.segment("b", 1, 2), Self.segment("c", 2, 3)]
        let split = ConfirmationSession.split(three, required: 2)
        #expect(split.confirmed.flatMap(\.words).map(\.text) == ["a"])
        #expect(split.shown.flatMap(\.words).map(\.text) == ["b", "c"])
        #expect(ConfirmationSession.split(Array(three.prefix(2)), required: 2).confirmed.isEmpty)
    }

    /// The scripted words one … ten, 0.55 s apart, each its own segment (0.15 s gaps ≥ 0.1 s endpoint).
    static let script = EngineScript(words: WhisperStyleEngineTests.script.words, endpointSilence: 0.1)

    @Test func confirmedSegmentsBecomeFinalAndTheRestIsShown() async throws {
        let engine = ConfirmationEngine(
            base: ScriptedEngine(script: Self.script), policy: .init(usesEnergyGate: false))
        let updates = try await streamSilence(engine, seconds: 6.5)
        // A decode once more than 1 s is new (at 1.1, 2.2, … s), from the last confirmed segment on.
        // At 2.2 s the decode of [0, 2.2) holds one, two, three whole (four is cut): "one" is
        // confirmed, "two three" shown; at 3.3 s, from after "one": two … five, and so on.
        let seen = updates.map {
            ($0.0, $0.1.finalized.flatMap(\.words).map(\.text), $0.1.volatile?.words.map(\.text) ?? [])
        }
        .filter { !$0.1.isEmpty || !$0.2.isEmpty }
        #expect(seen.map(\.0) == [1.1, 2.2, 3.3, 4.4, 5.5, 6.5])
        #expect(
            seen.map(\.1) == [
                [], ["one"], ["two", "three"], ["four", "five"], ["six", "seven"], ["eight", "nine", "ten"],
            ])
        #expect(
            seen.map(\.2) == [["one"], ["two", "three"], ["four", "five"], ["six", "seven"], ["eight", "nine"], []])
        let ranges = updates.flatMap { $0.1.finalized.map(\.range) }
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.end <= $1.start })
    }

    @Test func silenceIsNeverDecodedBehindTheGate() async throws {
        let engine = ConfirmationEngine(base: ScriptedEngine(script: Self.script))
        let updates = try await streamSilence(engine, seconds: 6.5)
        // The audio is silence: nothing before the end; the end decodes and confirms everything.
        #expect(updates.dropLast().allSatisfy { $0.1.finalized.isEmpty && $0.1.volatile == nil })
        #expect(updates.last!.1.finalized.flatMap(\.words).count == 10)
        #expect(engine.name == "scripted+confirmation[confirm2,silence0.3,new1s]")
    }
}
