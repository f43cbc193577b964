import DSP
import Foundation
import TestSupport
import Testing

@Suite("Voice analysis")
struct VoiceAnalysisTests {
    static let rate = 16_000.0

    /// A glottal-like pulse train: each cycle a decaying 2nd-harmonic-rich wave of its own
    /// period and peak, so jitter and shimmer are known by construction.
    static func cycles(periods: [Double], peaks: [Float]) -> [Float] {
        var out: [Float] = []
        for (period, peak) in zip(periods, peaks) {
            let n = Int((period * rate).rounded())
            for i in 0..<n {
                let phase = 2 * Double.pi * Double(i) / Double(n)
                out.append(peak * Float(sin(phase) + 0.3 * sin(2 * phase)))
            }
        }
        return out
    }

    static func analyse(_ samples: [Float]) -> [VoiceFrame] {
        var analyzer = VoiceAnalyzer(sampleRate: rate)
        analyzer.append(samples)
        return analyzer.frames
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    @Test func aToneOf200HzHasThatPitchAndNoJitterOrShimmer() {
        let frames = Self.analyse(Signal.sine(frequency: 200, sampleRate: Self.rate, seconds: 1))
        #expect(frames.count == 97)
        #expect(frames.allSatisfy { abs($0.pitchHz - 200) / 200 < 0.02 })
        #expect(frames.allSatisfy { $0.voicing > 0.9 })
        #expect(frames.allSatisfy { $0.jitterPercent < 0.2 && $0.shimmerDecibels < 0.1 })
    }

    @Test func alternatingPeriodsGiveTheirJitter() {
        // Periods alternate 5.0 and 5.5 ms: local jitter 0.5 / 5.25 = 9.5 %.
        let periods = (0..<200).map { $0 % 2 == 0 ? 0.005 : 0.0055 }
        let frames = Self.analyse(Self.cycles(periods: periods, peaks: Array(repeating: 0.5, count: 200)))
        let jitter = Self.median(frames.filter { $0.voicing > 0 }.map(\.jitterPercent))
        #expect(abs(jitter - 9.5) < 1.0, "jitter \(jitter)")
    }

    @Test func alternatingPeaksGiveTheirShimmer() {
        // Peaks alternate 0.5 and 0.4: 20·log10(1.25) = 1.94 dB.
        let peaks: [Float] = (0..<200).map { $0 % 2 == 0 ? 0.5 : 0.4 }
        let frames = Self.analyse(Self.cycles(periods: Array(repeating: 0.005, count: 200), peaks: peaks))
        let shimmer = Self.median(frames.filter { $0.voicing > 0 }.map(\.shimmerDecibels))
        #expect(abs(shimmer - 1.94) < 0.15, "shimmer \(shimmer)")
        #expect(Self.median(frames.map(\.jitterPercent)) < 0.5)
    }

    @Test func noiseAndSilenceAreNotVoiced() {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<16_000).map { _ in Float.random(in: -0.3...0.3, using: &generator) }
        let frames = Self.analyse(noise + [Float](repeating: 0, count: 8_000))
        let voiced = frames.filter { $0.pitchHz > 0 }.count
        #expect(voiced < frames.count / 10, "\(voiced) of \(frames.count) noise frames voiced")
        #expect(frames.suffix(40).allSatisfy { $0.pitchHz == 0 && $0.voicing == 0 })
    }

    @Test func framesDoNotDependOnChunking() {
        let tone = Signal.sine(frequency: 150, sampleRate: Self.rate, seconds: 0.5)
        var chunked = VoiceAnalyzer(sampleRate: Self.rate)
        for start in stride(from: 0, to: tone.count, by: 333) {
            chunked.append(Array(tone[start..<min(tone.count, start + 333)]))
        }
        #expect(chunked.frames == Self.analyse(tone))
    }
}
