import Foundation

/// One analysis frame of voice measures, in the units of Apple's `SFVoiceAnalytics`.
public struct VoiceFrame: Sendable, Hashable {
    /// Fundamental frequency in Hz; 0 when the frame is not voiced.
    public var pitchHz: Double
    /// Probability-like voicing strength, 0…1 (one minus YIN's normalised difference at the period).
    public var voicing: Double
    /// Cycle-to-cycle period variation (local jitter), percent of the mean period; 0 unvoiced.
    public var jitterPercent: Double
    /// Cycle-to-cycle peak amplitude variation (local shimmer), dB; 0 unvoiced.
    public var shimmerDecibels: Double
}

/// Pitch, voicing, jitter and shimmer of a mono stream, frame by frame (10 ms hop, 40 ms window):
/// YIN for the period, then the glottal cycles inside the window (upward zero crossings one
/// period apart) for jitter and shimmer. Streaming: frames do not depend on how audio is chunked.
public struct VoiceAnalyzer: Sendable {
    public static let frameDuration = 0.01
    public static let windowDuration = 0.04
    public static let pitchRange: ClosedRange<Double> = 60...500
    /// YIN's absolute threshold on the normalised difference.
    static let threshold = 0.2

    public let sampleRate: Double
    let hop: Int
    let window: Int
    private var pending: [Float] = []
    public private(set) var frames: [VoiceFrame] = []

    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        hop = max(1, Int((sampleRate * Self.frameDuration).rounded()))
        window = max(2, Int((sampleRate * Self.windowDuration).rounded()))
    }

    /// Adds samples; every frame whose window is complete is measured.
    public mutating func append(_ samples: [Float]) {
        pending += samples
        var start = 0
        while pending.count - start >= window {
            frames.append(Self.measure(pending[start..<(start + window)], sampleRate: sampleRate))
            start += hop
        }
        if start > 0 { pending.removeFirst(start) }
    }

    /// Measures one window.
    public static func measure(_ x: ArraySlice<Float>, sampleRate: Double) -> VoiceFrame {
        let unvoiced = VoiceFrame(pitchHz: 0, voicing: 0, jitterPercent: 0, shimmerDecibels: 0)
        let samples = Array(x)
        let energy = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))
        guard energy > 1e-8 else { return unvoiced }
        let minLag = Int(sampleRate / pitchRange.upperBound),
            maxLag = min(samples.count / 2, Int(sampleRate / pitchRange.lowerBound))
        guard maxLag > minLag + 2 else { return unvoiced }
        let n = samples.count - maxLag
        // YIN: difference function, cumulative mean normalised.
        var d = [Double](repeating: 0, count: maxLag + 1)
        for lag in 1...maxLag {
            var sum = 0.0
            for i in 0..<n {
                let delta = Double(samples[i]) - Double(samples[i + lag])
                sum += delta * delta
            }
            d[lag] = sum
        }
        var normalised = [Double](repeating: 1, count: maxLag + 1)
        var running = 0.0
        for lag in 1...maxLag {
            running += d[lag]
            normalised[lag] = running > 0 ? d[lag] * Double(lag) / running : 1
        }
        var best = -1
        var lag = minLag
        while lag <= maxLag {
            if normalised[lag] < threshold {
                while lag + 1 <= maxLag && normalised[lag + 1] < normalised[lag] { lag += 1 }
                best = lag
                break
            }
            lag += 1
        }
        guard best > 0 else { return unvoiced }
        // Parabolic interpolation around the dip.
        var period = Double(best)
        if best > 1 && best < maxLag {
            let a = normalised[best - 1], b = normalised[best], c = normalised[best + 1]
            let denominator = a - 2 * b + c
            if denominator > 0 { period += 0.5 * (a - c) / denominator }
        }
        let voicing = max(0, min(1, 1 - normalised[best]))
        let (jitter, shimmer) = cycleVariation(samples, period: period)
        return VoiceFrame(
            pitchHz: sampleRate / period, voicing: voicing, jitterPercent: jitter, shimmerDecibels: shimmer)
    }

    /// Local jitter (%) and shimmer (dB) over the cycles found one period apart in `x`.
    static func cycleVariation(_ x: [Float], period: Double) -> (jitter: Double, shimmer: Double) {
        // Upward zero crossings, at sub-sample positions.
        var crossings: [Double] = []
        for i in 1..<x.count where x[i - 1] < 0 && x[i] >= 0 {
            let t = Double(i - 1) + Double(-x[i - 1]) / Double(x[i] - x[i - 1])
            crossings.append(t)
        }
        guard let first = crossings.first else { return (0, 0) }
        // Keep the crossing nearest one period after the last kept one (speech has harmonics'
        // crossings in between).
        var marks = [first]
        while true {
            let expected = marks[marks.count - 1] + period
            let candidates = crossings.filter { abs($0 - expected) <= 0.2 * period }
            guard let next = candidates.min(by: { abs($0 - expected) < abs($1 - expected) }) else { break }
            marks.append(next)
        }
        guard marks.count >= 3 else { return (0, 0) }
        let periods = zip(marks.dropFirst(), marks).map { $0 - $1 }
        let meanPeriod = periods.reduce(0, +) / Double(periods.count)
        let jitter =
            zip(periods.dropFirst(), periods).map { abs($0 - $1) }.reduce(0, +) / Double(periods.count - 1) / meanPeriod
            * 100
        let peaks = zip(marks, marks.dropFirst()).map { start, end -> Double in
            let range = Int(start.rounded(.up))..<min(x.count, Int(end.rounded(.down)) + 1)
            return range.isEmpty ? 0 : Double(x[range].map(abs).max() ?? 0)
        }
        let ratios = zip(peaks.dropFirst(), peaks).compactMap { a, b -> Double? in
            a > 0 && b > 0 ? abs(20 * log10(a / b)) : nil
        }
        let shimmer = ratios.isEmpty ? 0 : ratios.reduce(0, +) / Double(ratios.count)
        return (jitter, shimmer)
    }
}
