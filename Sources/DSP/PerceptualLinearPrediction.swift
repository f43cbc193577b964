import Foundation

/// Perceptual linear prediction (Hermansky 1990) on the filterbank: equal-loudness weighting,
/// cube-root compression, an all-pole model fitted to the result, and that model's cepstrum.
///
/// A low-order model keeps the broad spectral peaks and smooths away finer, more
/// speaker-specific detail, which is why it is offered as an alternative to MFCC for matching
/// one speaker's words against templates of others.
struct PerceptualLinearPrediction: Sendable {
    let order: Int
    /// Equal-loudness weight of each band (by its centre frequency).
    private let loudness: [Double]
    /// Inverse cosine transform of the compressed bands (edges repeated) to autocorrelation lags 0…order.
    private let cosines: [[Double]]

    init(bandCentres: [Double], order: Int) {
        self.order = order
        loudness = bandCentres.map { f in
            let square = f * f
            let low = square / (square + 1.6e5)
            return low * low * (square + 1.44e6) / (square + 9.61e6)
        }
        let points = bandCentres.count + 2
        cosines = (0...order).map { k in
            (0..<points).map { i in
                let edge = i == 0 || i == points - 1
                return (edge ? 0.5 : 1) * cos(Double.pi * Double(k * i) / Double(points - 1))
            }
        }
    }

    /// Cepstra c0…c(count−1) of the all-pole model of one frame's natural-log band energies;
    /// c0 is the log of the model's prediction error.
    func cepstra(logBands: [Float], count: Int) -> [Double] {
        let (predictor, error) = Self.levinson(autocorrelation(logBands: logBands), order: order)
        return Self.cepstrum(predictor: predictor, error: error, count: count)
    }

    /// Autocorrelation lags 0…order of the loudness-weighted, compressed band spectrum.
    func autocorrelation(logBands: [Float]) -> [Double] {
        var compressed = [Double](repeating: 0, count: logBands.count + 2)
        for (i, value) in logBands.enumerated() {
            compressed[i + 1] = pow(loudness[i] * exp(Double(value)), 1.0 / 3)
        }
        compressed[0] = compressed[1]
        compressed[logBands.count + 1] = compressed[logBands.count]
        return cosines.map { row in zip(row, compressed).reduce(0) { $0 + $1.0 * $1.1 } }
    }

    /// Levinson–Durbin: the predictor a₁…a_p of A(z) = 1 + Σ aₖ z⁻ᵏ (index 0 holds 1) and the
    /// prediction error for autocorrelation lags r₀…r_p.
    static func levinson(_ r: [Double], order: Int) -> (predictor: [Double], error: Double) {
        var a = [Double](repeating: 0, count: order + 1)
        a[0] = 1
        var error = max(r[0], 1e-20)
        for i in 1...order {
            var acc = r[i]
            for j in 1..<i { acc += a[j] * r[i - j] }
            let k = -acc / error
            let previous = a
            a[i] = k
            for j in 1..<i { a[j] = previous[j] + k * previous[i - j] }
            error *= max(1 - k * k, 1e-9)
        }
        return (a, error)
    }

    /// Cepstrum of the all-pole model √error / A(z): c₀ = ln(error), then the usual recursion.
    static func cepstrum(predictor a: [Double], error: Double, count: Int) -> [Double] {
        let order = a.count - 1
        var c = [Double](repeating: 0, count: count)
        c[0] = log(error)
        for n in 1..<count {
            var sum = n <= order ? -a[n] : 0
            for k in max(1, n - order)..<n { sum -= Double(k) / Double(n) * c[k] * a[n - k] }
            c[n] = sum
        }
        return c
    }
}
