import Foundation

/// The front end's settings. Band edges stop below 4 kHz so that 8 kHz and 16 kHz audio give
/// comparable features (telephone audio has nothing above).
public struct FrontEndConfiguration: Sendable, Hashable, Codable {
    public var frameSeconds = 0.025
    public var hopSeconds = 0.010
    public var preEmphasis: Float = 0.97
    public var melBands = 24
    public var lowHz = 100.0
    public var highHz = 3800.0
    /// Cepstra kept, c0 included.
    public var cepstra = 13
    /// Sinusoidal lifter length (0: none).
    public var lifter = 22
    /// Frequency warp of the filterbank (vocal tract length): band edges are multiplied by it.
    /// Enrollment analyses exemplars at several warps to stand in for other speakers.
    public var warp = 1.0
    /// Poles of a perceptual-linear-prediction model whose cepstrum replaces c1…c(n-1) (0: MFCC,
    /// the cosine transform of the log filterbank). c0 stays the filterbank's in either case.
    public var plpOrder = 0
    /// The PLP orders a configuration may hold.
    public static let plpOrders = 0...24

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case frameSeconds, hopSeconds, preEmphasis, melBands, lowHz, highHz, cepstra, lifter, warp, plpOrder
    }

    /// Files from before PLP existed are MFCC; MFCC configurations are written without the key,
    /// exactly as they were.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        frameSeconds = try container.decode(Double.self, forKey: .frameSeconds)
        hopSeconds = try container.decode(Double.self, forKey: .hopSeconds)
        preEmphasis = try container.decode(Float.self, forKey: .preEmphasis)
        melBands = try container.decode(Int.self, forKey: .melBands)
        lowHz = try container.decode(Double.self, forKey: .lowHz)
        highHz = try container.decode(Double.self, forKey: .highHz)
        cepstra = try container.decode(Int.self, forKey: .cepstra)
        lifter = try container.decode(Int.self, forKey: .lifter)
        warp = try container.decode(Double.self, forKey: .warp)
        plpOrder = try container.decodeIfPresent(Int.self, forKey: .plpOrder) ?? 0
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(frameSeconds, forKey: .frameSeconds)
        try container.encode(hopSeconds, forKey: .hopSeconds)
        try container.encode(preEmphasis, forKey: .preEmphasis)
        try container.encode(melBands, forKey: .melBands)
        try container.encode(lowHz, forKey: .lowHz)
        try container.encode(highHz, forKey: .highHz)
        try container.encode(cepstra, forKey: .cepstra)
        try container.encode(lifter, forKey: .lifter)
        try container.encode(warp, forKey: .warp)
        if plpOrder > 0 { try container.encode(plpOrder, forKey: .plpOrder) }
    }

    /// Feature dimension: cepstra, deltas, delta-deltas.
    public var dimension: Int { cepstra * 3 }
}

/// One 10 ms frame out of the front end, before normalisation.
public struct RawFrame: Sendable, Hashable {
    /// Liftered cepstra c0…c(n-1).
    public var cepstra: [Float]
    /// Frame energy in dB (10·log10 of the mean square, floor −120).
    public var energyDB: Float
    /// Mean-square level in dB of the speech band only (the filterbank's edges), pre-emphasis
    /// undone: voice activity's second level, on which broadband noise outside the band and the
    /// pre-emphasis tilt (which lifts noise and lowers voiced speech) do not mask vowels.
    public var speechBandDB: Float
    /// Spectral flatness in the speech band, 0 (tonal/peaky) … 1 (white noise).
    public var flatness: Float
    /// Natural-log mel filterbank energies, lowest band first.
    public var logMel: [Float]
}

/// Turns samples into raw frames, streaming: pre-emphasis, Hamming window, FFT power spectrum,
/// mel filterbank, log, DCT (or, with ``FrontEndConfiguration/plpOrder``, an all-pole model's
/// cepstrum for c1 on), lifter. Frames come out the same however the audio is chunked.
public struct FeatureExtractor: Sendable {
    public let configuration: FrontEndConfiguration
    public let sampleRate: Double
    public let frameLength: Int
    public let hop: Int
    private let fft: RealFFT
    private let window: [Float]
    /// Per mel band: first FFT bin and weights.
    private let filters: [(first: Int, weights: [Float])]
    private let dct: [[Float]]
    private let lifterWeights: [Float]
    private let bandBins: Range<Int>
    /// Per bin of `bandBins`: undoes pre-emphasis and scales one-sided power to a mean square.
    private let bandGains: [Float]
    /// Centre frequency of each mel band (Hz).
    public let bandCentres: [Double]
    private let plp: PerceptualLinearPrediction?

    private var pending: [Float] = []
    private var lastSample: Float = 0
    /// Frames produced so far.
    public private(set) var framesProduced = 0

    public init(sampleRate: Double, configuration: FrontEndConfiguration = FrontEndConfiguration()) {
        self.configuration = configuration
        self.sampleRate = sampleRate
        let frameLength = Int((configuration.frameSeconds * sampleRate).rounded())
        self.frameLength = frameLength
        hop = Int((configuration.hopSeconds * sampleRate).rounded())
        var size = 4
        while size < frameLength { size *= 2 }
        fft = RealFFT(size: size)
        window = (0..<frameLength).map {
            Float(0.54 - 0.46 * cos(2 * Double.pi * Double($0) / Double(frameLength - 1)))
        }
        let bins = size / 2 + 1
        let binHz = sampleRate / Double(size)
        let high = min(configuration.highHz, sampleRate / 2)
        func mel(_ hz: Double) -> Double { 2595 * log10(1 + hz / 700) }
        func hz(_ mel: Double) -> Double { 700 * (pow(10, mel / 2595) - 1) }
        let lowMel = mel(configuration.lowHz), highMel = mel(high)
        let edges = (0...configuration.melBands + 1).map {
            min(
                sampleRate / 2,
                configuration.warp * hz(lowMel + (highMel - lowMel) * Double($0) / Double(configuration.melBands + 1)))
        }
        bandCentres = (0..<configuration.melBands).map { edges[$0 + 1] }
        filters = (0..<configuration.melBands).map { band in
            let left = edges[band], centre = edges[band + 1], right = edges[band + 2]
            let first = max(0, Int((left / binHz).rounded(.up)))
            let last = min(bins - 1, Int((right / binHz).rounded(.down)))
            guard first <= last else { return (first: min(first, bins - 1), weights: [1]) }
            let weights = (first...last).map { bin -> Float in
                let f = Double(bin) * binHz
                return Float(f <= centre ? (f - left) / (centre - left) : (right - f) / (right - centre))
            }
            return (first: first, weights: weights.map { max(0, $0) })
        }
        let n = configuration.melBands
        dct = (0..<configuration.cepstra).map { k in
            (0..<n).map { m in Float(cos(Double.pi * Double(k) * (Double(m) + 0.5) / Double(n)) * sqrt(2.0 / Double(n)))
            }
        }
        plp =
            configuration.plpOrder > 0
            ? PerceptualLinearPrediction(bandCentres: bandCentres, order: configuration.plpOrder) : nil
        lifterWeights = (0..<configuration.cepstra).map { k in
            configuration.lifter > 0
                ? Float(
                    1 + Double(configuration.lifter) / 2 * sin(Double.pi * Double(k) / Double(configuration.lifter)))
                : 1
        }
        bandBins = max(1, Int(configuration.lowHz / binHz))..<min(bins, Int(high / binHz) + 1)
        let windowEnergy = window.reduce(0) { $0 + Double($1) * Double($1) }
        let a = Double(configuration.preEmphasis)
        bandGains = bandBins.map { bin in
            let emphasis = 1 + a * a - 2 * a * cos(2 * Double.pi * Double(bin) / Double(size))
            return Float(2 / (Double(size) * windowEnergy * max(emphasis, 1e-6)))
        }
    }

    /// Feeds samples (±1 full scale) and returns the frames they complete.
    public mutating func process(_ samples: [Float]) -> [RawFrame] {
        pending.reserveCapacity(pending.count + samples.count)
        for sample in samples {
            pending.append(sample - configuration.preEmphasis * lastSample)
            lastSample = sample
        }
        var frames: [RawFrame] = []
        var offset = 0
        while offset + frameLength <= pending.count {
            frames.append(frame(pending[offset..<offset + frameLength]))
            offset += hop
        }
        if offset > 0 { pending.removeFirst(offset) }
        framesProduced += frames.count
        return frames
    }

    /// Forgets buffered samples (after skipped audio); frame numbering continues.
    public mutating func reset() {
        pending = []
        lastSample = 0
    }

    private func frame(_ samples: ArraySlice<Float>) -> RawFrame {
        var windowed = [Float](repeating: 0, count: frameLength)
        var energy: Float = 0
        for (i, s) in samples.enumerated() {
            windowed[i] = s * window[i]
            energy += s * s
        }
        let power = fft.powerSpectrum(windowed)
        var logMel = [Float](repeating: 0, count: filters.count)
        for (band, filter) in filters.enumerated() {
            var sum: Float = 0
            for (k, w) in filter.weights.enumerated() { sum += w * power[filter.first + k] }
            logMel[band] = log(max(sum, 1e-10))
        }
        var cepstra = [Float](repeating: 0, count: dct.count)
        // With PLP only c0 comes from the cosine transform.
        for k in 0..<(plp == nil ? dct.count : 1) {
            var sum: Float = 0
            for m in 0..<logMel.count { sum += dct[k][m] * logMel[m] }
            cepstra[k] = sum * lifterWeights[k]
        }
        if let plp {
            let model = plp.cepstra(logBands: logMel, count: cepstra.count)
            for k in 1..<cepstra.count { cepstra[k] = Float(model[k]) * lifterWeights[k] }
        }
        // Spectral flatness: geometric over arithmetic mean of the band's power.
        var logSum = 0.0, linSum = 0.0
        var band: Float = 0
        for (i, bin) in bandBins.enumerated() {
            let p = Double(max(power[bin], 1e-12))
            logSum += log(p)
            linSum += p
            band += power[bin] * bandGains[i]
        }
        let count = Double(bandBins.count)
        let flatness = Float(exp(logSum / count) / max(linSum / count, 1e-12))
        let meanSquare = energy / Float(frameLength)
        return RawFrame(
            cepstra: cepstra, energyDB: max(-120, 10 * log10(max(meanSquare, 1e-12))),
            speechBandDB: max(-120, 10 * log10(max(band, 1e-12))), flatness: flatness, logMel: logMel)
    }
}
