import Foundation
import SpeechCore

/// Pure signal steps of the corpus recipes: trimming, gap insertion, noise at a set SNR.
public enum CorpusSignals {
    /// The part of `samples` between the first and last 10 ms frame whose level is within
    /// `dynamicRange` dB of the loudest frame, widened by `margin` seconds each side.
    public static func trimmedRange(
        _ samples: [Float], sampleRate: Double, dynamicRange: Double = 35,
        margin: Double = 0.01
    ) -> Range<Int> {
        let frame = max(1, Int(sampleRate / 100))
        let levels = stride(from: 0, to: samples.count, by: frame).map { start -> Double in
            let end = min(samples.count, start + frame)
            let power = samples[start..<end].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(end - start)
            return 10 * log10(max(power, 1e-12))
        }
        guard let peak = levels.max(), peak > -90 else { return 0..<samples.count }
        let threshold = peak - dynamicRange
        guard let first = levels.firstIndex(where: { $0 >= threshold }),
            let last = levels.lastIndex(where: { $0 >= threshold })
        else { return 0..<samples.count }
        let pad = Int(margin * sampleRate)
        return max(0, first * frame - pad)..<min(samples.count, (last + 1) * frame + pad)
    }

    /// Mean power of the active part of a signal: frames within 35 dB of the loudest, a simple
    /// stand-in for ITU-T P.56 active speech level.
    public static func activePower(_ samples: [Float], sampleRate: Double) -> Double {
        let frame = max(1, Int(sampleRate / 100))
        let powers = stride(from: 0, to: samples.count, by: frame).map { start -> Double in
            let end = min(samples.count, start + frame)
            return samples[start..<end].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(end - start)
        }
        guard let peak = powers.max(), peak > 0 else { return 0 }
        let active = powers.filter { $0 >= peak * pow(10, -3.5) }
        return active.reduce(0, +) / Double(active.count)
    }

    /// The signal with white Gaussian noise added so that active speech power over noise power is
    /// `snr` dB. Deterministic for a seed.
    public static func addNoise(_ samples: [Float], sampleRate: Double, snr: Double, seed: UInt64) -> [Float] {
        let noisePower = activePower(samples, sampleRate: sampleRate) / pow(10, snr / 10)
        let sigma = noisePower.squareRoot()
        var rng = SeededGenerator(seed: seed)
        return samples.map { x in
            let y = Double(x) + sigma * rng.nextGaussian()
            return Float(max(-1, min(1, y)))
        }
    }

    /// A connected string built from isolated word recordings, with exact word times.
    public struct Composition: Sendable {
        public var samples: [Float]
        public var words: [Utterance.AlignedWord]
    }

    /// Joins `clips` (already trimmed) with the given silent gaps (seconds), plus `lead` seconds of
    /// silence before the first and after the last word. Word times are where each clip lands.
    public static func compose(
        _ clips: [(word: String, samples: [Float])], gaps: [Double], lead: Double,
        sampleRate: Double
    ) -> Composition {
        precondition(gaps.count == max(0, clips.count - 1), "one gap between each pair of words")
        let leadFrames = Int((lead * sampleRate).rounded())
        var samples = [Float](repeating: 0, count: leadFrames)
        var words: [Utterance.AlignedWord] = []
        for (i, clip) in clips.enumerated() {
            if i > 0 { samples += [Float](repeating: 0, count: Int((gaps[i - 1] * sampleRate).rounded())) }
            let start = Double(samples.count) / sampleRate
            samples += clip.samples
            words.append(.init(word: clip.word, start: start, end: Double(samples.count) / sampleRate))
        }
        samples += [Float](repeating: 0, count: leadFrames)
        return Composition(samples: samples, words: words)
    }
}
