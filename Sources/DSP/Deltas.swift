/// Full feature frames: static cepstra with deltas and delta-deltas, each a regression over ±2
/// frames. `statics(i)` must answer for t−4…t+4 (callers replicate edges).
enum Deltas {
    static func frame(at t: Int, cepstra c: Int, statics: (Int) -> [Float]) -> [Float] {
        func delta(_ i: Int) -> [Float] {
            let p1 = statics(i + 1), m1 = statics(i - 1), p2 = statics(i + 2), m2 = statics(i - 2)
            return (0..<c).map { (p1[$0] - m1[$0] + 2 * (p2[$0] - m2[$0])) / 10 }
        }
        let d = delta(t), dp1 = delta(t + 1), dm1 = delta(t - 1), dp2 = delta(t + 2), dm2 = delta(t - 2)
        let s = statics(t)
        var feature = [Float](repeating: 0, count: 3 * c)
        for k in 0..<c {
            feature[k] = s[k]
            feature[c + k] = d[k]
            feature[2 * c + k] = (dp1[k] - dm1[k] + 2 * (dp2[k] - dm2[k])) / 10
        }
        return feature
    }
}
