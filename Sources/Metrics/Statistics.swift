import Foundation
import SpeechCore

/// Pooled error rates with utterance-bootstrap confidence intervals, and paired comparisons.
public enum ErrorRateStatistics {
    /// Pooled rate: Σ errors / Σ reference length (never a mean of per-utterance rates).
    public static func pooled(_ counts: [ErrorCounts]) -> Double {
        counts.reduce(ErrorCounts(), +).errorRate
    }

    /// A 95% (or `level`) interval for the pooled rate by the utterance bootstrap, with bias
    /// correction and acceleration (BCa): resample utterances with replacement `resamples` times;
    /// the jackknife supplies the acceleration. Deterministic for a seed.
    public static func bootstrapInterval(
        _ counts: [ErrorCounts], resamples: Int = 1_000, level: Double = 0.95,
        seed: UInt64 = 1
    ) -> ClosedRange<Double>? {
        guard !counts.isEmpty else { return nil }
        let totalErrors = counts.reduce(0) { $0 + $1.errors },
            totalLength = counts.reduce(0) { $0 + $1.referenceLength }
        guard totalLength > 0 else { return nil }
        let observed = Double(totalErrors) / Double(totalLength)
        var rng = SeededGenerator(seed: seed)
        var rates: [Double] = []
        rates.reserveCapacity(resamples)
        for _ in 0..<resamples {
            var errors = 0, length = 0
            for _ in counts.indices {
                let c = counts[Int(rng.next() % UInt64(counts.count))]
                errors += c.errors
                length += c.referenceLength
            }
            rates.append(length == 0 ? observed : Double(errors) / Double(length))
        }
        rates.sort()
        // Bias correction: how far the bootstrap distribution's median is from the estimate.
        let below = Double(rates.filter { $0 < observed }.count) + 0.5 * Double(rates.filter { $0 == observed }.count)
        let z0 = Normal.quantile(min(max(below / Double(resamples), 1e-6), 1 - 1e-6))
        // Acceleration from the leave-one-out (jackknife) estimates.
        let jackknife = counts.map { c -> Double in
            let length = totalLength - c.referenceLength
            return length == 0 ? observed : Double(totalErrors - c.errors) / Double(length)
        }
        let mean = jackknife.reduce(0, +) / Double(jackknife.count)
        let squares = jackknife.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let cubes = jackknife.reduce(0) { $0 + pow3(mean - $1) }
        let acceleration = squares == 0 ? 0 : cubes / (6 * pow(squares, 1.5))
        let alpha = (1 - level) / 2
        func adjusted(_ p: Double) -> Double {
            let z = Normal.quantile(p)
            return Normal.cdf(z0 + (z0 + z) / (1 - acceleration * (z0 + z)))
        }
        let lower = percentile(rates, adjusted(alpha)), upper = percentile(rates, adjusted(1 - alpha))
        return min(lower, upper)...max(lower, upper)
    }

    private static func pow3(_ x: Double) -> Double { x * x * x }

    /// Paired bootstrap of system B against system A on the same utterances.
    public struct Comparison: Sendable, Hashable, Codable {
        /// WER(B) − WER(A) on the full set.
        public var difference: Double
        public var interval: ClosedRange<Double>
        /// Share of resamples in which B's pooled rate is lower than A's.
        public var probabilityOfImprovement: Double
    }

    public static func pairedBootstrap(
        a: [ErrorCounts], b: [ErrorCounts], resamples: Int = 1_000, level: Double = 0.95,
        seed: UInt64 = 1
    ) -> Comparison? {
        guard !a.isEmpty, a.count == b.count else { return nil }
        var rng = SeededGenerator(seed: seed)
        var differences: [Double] = []
        var improvements = 0
        for _ in 0..<resamples {
            var ea = 0, eb = 0, na = 0, nb = 0
            for _ in a.indices {
                let k = Int(rng.next() % UInt64(a.count))
                ea += a[k].errors
                na += a[k].referenceLength
                eb += b[k].errors
                nb += b[k].referenceLength
            }
            let ra = na == 0 ? 0 : Double(ea) / Double(na), rb = nb == 0 ? 0 : Double(eb) / Double(nb)
            differences.append(rb - ra)
            if rb < ra { improvements += 1 }
        }
        differences.sort()
        let alpha = (1 - level) / 2
        return Comparison(
            difference: pooled(b) - pooled(a),
            interval: percentile(differences, alpha)...percentile(differences, 1 - alpha),
            probabilityOfImprovement: Double(improvements) / Double(resamples))
    }

    /// Linear-interpolation percentile of sorted values (p in 0…1).
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let position = p * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down)), upper = Int(position.rounded(.up))
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}

/// The standard normal distribution's CDF and quantile function.
enum Normal {
    static func cdf(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }

    /// Acklam's rational approximation (relative error below 1.2e-9), refined by one Newton step.
    static func quantile(_ p: Double) -> Double {
        precondition(p > 0 && p < 1)
        let a = [
            -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
            -3.066479806614716e+01, 2.506628277459239e+00,
        ]
        let b = [
            -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
            -1.328068155288572e+01,
        ]
        let c = [
            -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
            4.374664141464968e+00, 2.938163982698783e+00,
        ]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            x =
                (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x =
                (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = (-2 * log(1 - p)).squareRoot()
            x =
                -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let e = cdf(x) - p
        let u = e * (2 * Double.pi).squareRoot() * exp(x * x / 2)
        return x - u / (1 + x * u / 2)
    }
}
