import Testing

@testable import SpeechCore

@Suite("PCMBuffer and AudioFormat")
struct PCMBufferTests {
    @Test func int16AndFloatConvertWithClipping() {
        let buffer = PCMBuffer(mono: [0, 0.5, -1, 1.5, -1.5, .nan], sampleRate: 16_000)
        #expect(buffer.int16Channels[0] == [0, 16384, -32768, 32767, -32768, 0])
        let back = buffer.converted(to: .int16).converted(to: .float32)
        #expect(back.floatChannels[0][1] == 0.5)
        #expect(back.format.sampleType == .float32)
    }

    /// Halves round away from zero, as `Float.rounded()` does, and the values either side of a half
    /// (one float step away) round to their nearer integer: the fast conversion must agree with
    /// the plain definition everywhere (checked over all 2^32 floats when it was written).
    @Test func int16RoundsHalvesAwayFromZeroAndClipsAtBothEnds() {
        let step: Float = 1 / 32768
        let half = step / 2
        let samples: [Float] = [
            half, -half, 3 * half, -3 * half, half.nextDown, half.nextUp, (-half).nextUp, (-half).nextDown,
            32766.5 * step, (32766.5 * step).nextDown, 32767.4 * step, -32767.5 * step, -32768.5 * step,
            .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0,
            // Ties that rounding to even would send the other way, and no number at all.
            5 * half, -5 * half, 2001 * half, -2001 * half, .nan,
        ]
        let plain = samples.map { x -> Int16 in
            if x.isNaN { return 0 }
            guard x.isFinite else { return x > 0 ? .max : .min }
            return Int16(max(-32768, min(32767, (x * 32768).rounded())))
        }
        #expect(PCMBuffer(mono: samples, sampleRate: 16_000).int16Channels[0] == plain)
        #expect(plain.prefix(8) == [1, -1, 2, -2, 0, 1, 0, -1])
        #expect(plain[8...12] == [32767, 32766, 32767, -32768, -32768])
        #expect(plain.suffix(5) == [3, -3, 1001, -1001, 0])
    }

    @Test func int16MatchesThePlainDefinitionOnEveryQuarterStep() {
        // Every multiple of a quarter step over the whole range and past both ends: exact ties,
        // values a quarter either side of them, and the clipping boundaries.
        let samples = (-131_080...131_080).map { Float($0) / (4 * 32768) }
        let plain = samples.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
        #expect(PCMBuffer(mono: samples, sampleRate: 16_000).int16Channels[0] == plain)
    }

    @Test func interleavingAndSlicing() {
        let format = AudioFormat(sampleRate: 8_000, channelCount: 2)
        let buffer = PCMBuffer(format: format, channels: [[1, 2, 3], [10, 20, 30]] as [[Float]])
        #expect(buffer.interleavedFloats == [1, 10, 2, 20, 3, 30])
        #expect(buffer.slice(1..<3).floatChannels == [[2, 3], [20, 30]])
        #expect(buffer.frameCount == 3)
        #expect(buffer.duration == MediaTime(value: 3, timescale: 8_000))
    }

    @Test func formatDescription() {
        #expect(AudioFormat.speech(sampleRate: 16_000).description == "16000 Hz, 1 ch, float32")
        #expect(!AudioFormat(sampleRate: 0, channelCount: 1).isValid)
    }
}
