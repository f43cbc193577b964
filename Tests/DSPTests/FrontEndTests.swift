import Foundation
import TestSupport
import Testing

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
            let nearest = extractor.bandCentres.indices.min {
                abs(extractor.bandCentres[$0] - frequency) < abs(extractor.bandCentres[$1] - frequency)
            }!
            #expect(
                abs(loudest - nearest) <= 1,
                "\(frequency) Hz at \(rate) Hz: loudest band \(loudest), nearest centre \(nearest)")
            // A tone is as far from white noise as a spectrum gets.
            #expect(middle.flatness < 0.1)
        }
    }

    @Test(arguments: [16_000.0, 8_000.0])
    func theSpeechBandLevelIsTheMeanSquareOfWhatLiesInTheBand(rate: Double) {
        // A sine of amplitude A has mean square A²/2, whatever the pre-emphasis did to it; one
        // above the band's top edge (3800 Hz) leaves almost nothing.
        for (frequency, amplitude) in [(500.0, Float(0.5)), (1_500.0, 0.1), (3_000.0, 0.02)] {
            var extractor = FeatureExtractor(sampleRate: rate)
            let middle = extractor.process(
                Signal.sine(frequency: frequency, sampleRate: rate, seconds: 0.3, amplitude: amplitude))[14]
            let expected = Float(10 * log10(amplitude * amplitude / 2))
            #expect(
                abs(middle.speechBandDB - expected) < 0.6,
                "\(frequency) Hz at \(rate) Hz: \(middle.speechBandDB) dB, expected \(expected)")
        }
        if rate == 16_000 {
            var extractor = FeatureExtractor(sampleRate: rate)
            let high = extractor.process(Signal.sine(frequency: 6_000, sampleRate: rate, seconds: 0.3, amplitude: 0.5))[
                14]
            #expect(high.speechBandDB < -30, "6 kHz: \(high.speechBandDB) dB in the band")
            #expect(high.energyDB > -10, "the broadband level still sees it")
        }
    }

    @Test(arguments: [0, 8])
    func framesDoNotDependOnHowAudioIsChunked(plpOrder: Int) {
        var rng = SystemRandomNumberGenerator()
        let samples = (0..<16_000).map { i in
            Float(sin(Double(i) * 0.05)) * 0.3 + Float.random(in: -0.01...0.01, using: &rng)
        }
        var configuration = FrontEndConfiguration()
        configuration.plpOrder = plpOrder
        var whole = FeatureExtractor(sampleRate: 16_000, configuration: configuration)
        let expected = whole.process(samples)
        #expect(expected.allSatisfy { $0.cepstra.allSatisfy(\.isFinite) })
        var chunked = FeatureExtractor(sampleRate: 16_000, configuration: configuration)
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
            vad.feed(VoiceActivityDetector.Measures(frame), frame: index)
        }
    }

    @Test func silenceAndSteadyNoiseGiveNoSpeech() {
        #expect(events([Float](repeating: 0, count: 32_000)).isEmpty)
        var generator = SeededNoise(seed: 7)
        let noise = (0..<48_000).map { _ in generator.next() * 0.01 }
        #expect(events(noise).isEmpty)
    }

    @Test func aBurstStartsAndEndsSpeechAtItsEdges() throws {
        var generator = SeededNoise(seed: 3)
        let quiet = (0..<8_000).map { _ in generator.next() * 0.001 }
        let burst = Signal.sine(frequency: 440, sampleRate: 16_000, seconds: 0.5, amplitude: 0.3)
        let tail = (0..<16_000).map { _ in generator.next() * 0.001 }
        let found = events(quiet + burst + tail)
        try #require(found.count == 2)
        guard case .started(let start) = found[0], case .ended(let end) = found[1] else {
            Issue.record("expected a start then an end, got \(found)")
            return
        }
        // Frames are 10 ms apart; the burst spans 0.5–1.0 s (frames overlap its edges by 25 ms).
        #expect((47...51).contains(start), "start frame \(start)")
        #expect((98...102).contains(end), "end frame \(end)")
    }

    @Test func aVoicedBurstUnderWhiteNoiseIsFoundByTheSpeechBandLevel() throws {
        // A 150 Hz pulse-like tone (harmonics falling 6 dB per octave) 10 dB above white noise
        // over the whole band: the pre-emphasis tilt buries it in the broadband level; the
        // speech-band level, pre-emphasis undone, still sees it.
        let rate = 16_000.0
        var generator = SeededNoise(seed: 11)
        let noiseAmplitude = Float(0.02 * 3.0.squareRoot())  // uniform in ±a has mean square a²/3
        func noise(_ count: Int) -> [Float] { (0..<count).map { _ in generator.next() * noiseAmplitude } }
        var voiced = [Float](repeating: 0, count: 8_000)
        for harmonic in 1...20 {
            let tone = Signal.sine(
                frequency: 150 * Double(harmonic), sampleRate: rate, seconds: 0.5, amplitude: 0.14 / Float(harmonic))
            for i in voiced.indices { voiced[i] += tone[i] }
        }
        let signal = noise(16_000) + zip(voiced, noise(8_000)).map { $0 + $1 } + noise(16_000)
        var extractor = FeatureExtractor(sampleRate: rate)
        let frames = extractor.process(signal)
        let inside = frames[110], before = frames[60]
        #expect(inside.energyDB - before.energyDB < 12, "broadband rise \(inside.energyDB - before.energyDB) dB")
        #expect(
            inside.speechBandDB - before.speechBandDB > 12,
            "speech-band rise \(inside.speechBandDB - before.speechBandDB) dB")
        let found = events(signal)
        try #require(found.count == 2)
        guard case .started(let start) = found[0], case .ended(let end) = found[1] else {
            Issue.record("expected a start then an end, got \(found)")
            return
        }
        #expect((97...101).contains(start), "start frame \(start)")
        #expect((148...152).contains(end), "end frame \(end)")
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
