import Foundation
import TestSupport
import Testing

@testable import AudioIO

@Suite("Sample-rate conversion")
struct SampleRateConverterTests {
    /// A 1 kHz sine moved between common rates keeps its frequency (Goertzel peak) and its level
    /// (RMS within 0.1 dB), measured away from the filter's edges.
    @Test(arguments: [(44_100.0, 16_000.0), (8_000.0, 16_000.0), (48_000.0, 16_000.0), (16_000.0, 8_000.0)])
    func sineKeepsFrequencyAndLevel(rates: (Double, Double)) throws {
        let (from, to) = rates
        let input = Signal.sine(frequency: 1_000, sampleRate: from, seconds: 1)
        let output = try SampleRateConverter.convert(input, from: from, to: to, quality: .best)
        #expect(abs(Double(output.count) - to) <= 2)
        let middle = output[Int(to * 0.1)..<Int(to * 0.9)]
        let level = 20 * log10(Signal.rms(middle) / Signal.rms(input[...]))
        #expect(abs(level) < 0.1, "level changed by \(level) dB")
        let atTone = Signal.power(of: 1_000, in: middle, sampleRate: to)
        for other in [900.0, 1_100.0, 2_000.0] {
            #expect(
                atTone > 1_000 * Signal.power(of: other, in: middle, sampleRate: to), "energy leaked to \(other) Hz")
        }
    }

    @Test func streamingEqualsWholeBuffer() throws {
        let input = Signal.sine(frequency: 440, sampleRate: 44_100, seconds: 0.7)
        let whole = try SampleRateConverter.convert(input, from: 44_100, to: 16_000)
        let converter = try SampleRateConverter(from: 44_100, to: 16_000)
        var streamed: [Float] = []
        var offset = 0
        for size in [1, 17, 441, 4_000, 100, 9_999] {
            let end = min(input.count, offset + size)
            streamed += try converter.process(Array(input[offset..<end]))
            offset = end
        }
        streamed += try converter.process(Array(input[offset...]), endOfInput: true)
        #expect(streamed.count == whole.count)
        #expect(zip(streamed, whole).allSatisfy { abs($0 - $1) < 1e-5 })
    }

    @Test(arguments: SampleRateConverter.Quality.allCases)
    func everyQualityConverts(quality: SampleRateConverter.Quality) throws {
        let out = try SampleRateConverter.convert(
            Signal.sine(frequency: 300, sampleRate: 8_000, seconds: 0.5),
            from: 8_000, to: 16_000, quality: quality)
        #expect(abs(out.count - 8_000) <= 2)
    }

    @Test func impossibleRatiosAreTypedErrors() {
        #expect(throws: AudioIOError.self) { try SampleRateConverter(from: 1, to: 384_000) }
        #expect(throws: AudioIOError.self) { try SampleRateConverter(from: 16_000, to: 0) }
    }

    @Test func inputAfterEndIsAnError() throws {
        let converter = try SampleRateConverter(from: 8_000, to: 16_000)
        _ = try converter.process([0, 0.1], endOfInput: true)
        #expect(throws: AudioIOError.self) { try converter.process([0.2]) }
    }
}
