import Foundation
import Testing
import TestSupport
@testable import DSP

@Suite("DSP front end")
struct FrontEndTests {
    @Test(arguments: [16_000.0, 8_000.0])
    func aPureToneLandsInTheBandCentredOnIt(rate: Double) {
        for frequency in [300.0, 1_000.0, 2_500.0] {
            var extractor = FeatureExtractor(sampleRate: rate)
            let frames = extractor.process(Signal.sine(frequency: frequency, sampleRate: rate, seconds: 0.3))
            #expect(frames.count == 28)
            let middle = frames[frames.count / 2]
            let loudest = middle.logMel.indices.max { middle.logMel[$0] < middle.logMel[$1] }!
            let nearest = extractor.bandCentres.indices.min { abs(extractor.bandCentres[$0] - frequency) < abs(extractor.bandCentres[$1] - frequency) }!
            #expect(abs(loudest - nearest) <= 1, "\(frequency) Hz at \(rate) Hz: loudest band \(loudest), nearest centre \(nearest)")
            // A tone is as far from white noise as a spectrum gets.
            #expect(middle.flatness < 0.1)
        }
    }

    @Test func framesDoNotDependOnHowAudioIsChunked() {
        var rng = SystemRandomNumberGenerator()
        let samples = (0..<16_000).map { i in Float(sin(Double(i) * 0.05)) * 0.3 + Float.random(in: -0.01...0.01, using: &rng) }
        var whole = FeatureExtractor(sampleRate: 16_000)
        let expected = whole.process(samples)
        var chunked = FeatureExtractor(sampleRate: 16_000)
        var got: [RawFrame] = []
        var offset = 0
        for size in [1, 7, 399, 400, 401, 1_600, 37] where offset < samples.count {
            got += chunked.process(Array(samples[offset..<min(samples.count, offset + size)]))
            offset += size
        }
        got += chunked.process(Array(samples[offset...]))
        #expect(got == expected)
    }

    @Test(arguments: [(4, 4), (8, 5), (64, 64), (512, 400)])
    func theFFTMatchesADirectTransform(size n: Int, samples count: Int) {
        // `count` samples, zero-padded to `n`.
        let x = (0..<count).map { Float(sin(Double($0) * 0.7) + 0.25 * cos(Double($0) * 2.1)) }
        let power = RealFFT(size: n).powerSpectrum(x)
        #expect(power.count == n / 2 + 1)
        for k in 0...n / 2 {
            var re = 0.0, im = 0.0
            for (i, v) in x.enumerated() {
                re += Double(v) * cos(-2 * Double.pi * Double(k * i) / Double(n))
                im += Double(v) * sin(-2 * Double.pi * Double(k * i) / Double(n))
            }
            #expect(abs(Double(power[k]) - (re * re + im * im)) < 1e-3 * max(1, re * re + im * im), "bin \(k) of \(n)")
        }
    }
}

@Suite("Voice activity")
struct VoiceActivityTests {
    func events(_ samples: [Float], rate: Double = 16_000) -> [VoiceActivityDetector.Event] {
        var extractor = FeatureExtractor(sampleRate: rate)
        var vad = VoiceActivityDetector()
        return extractor.process(samples).enumerated().compactMap { index, frame in
            vad.feed(energyDB: frame.energyDB, flatness: frame.flatness, frame: index)
        }
    }

    @Test func silenceAndSteadyNoiseGiveNoSpeech() {
        #expect(events([Float](repeating: 0, count: 32_000)).isEmpty)
        var generator = SeededNoise(seed: 7)
        let noise = (0..<48_000).map { _ in generator.next() * 0.01 }
        #expect(events(noise).isEmpty)
    }

    @Test func aBurstStartsAndEndsSpeechAtItsEdges() {
        var generator = SeededNoise(seed: 3)
        let quiet = (0..<8_000).map { _ in generator.next() * 0.001 }
        let burst = Signal.sine(frequency: 440, sampleRate: 16_000, seconds: 0.5, amplitude: 0.3)
        let tail = (0..<16_000).map { _ in generator.next() * 0.001 }
        let found = events(quiet + burst + tail)
        #expect(found.count == 2)
        guard found.count == 2, case .started(let start) = found[0], case .ended(let end) = found[1] else { return }
        // Frames are 10 ms apart; the burst spans 0.5–1.0 s (frames overlap its edges by 25 ms).
        #expect((47...51).contains(start), "start frame \(start)")
        #expect((98...102).contains(end), "end frame \(end)")
    }
}

/// Uniform noise in ±1 from a fixed seed.
struct SeededNoise {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(Int64(bitPattern: state) >> 11) / Float(1 << 52)
    }
}
