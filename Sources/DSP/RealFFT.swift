import Foundation

/// Power spectrum of real frames by an iterative radix-2 FFT, with tables computed once per size.
///
/// Deterministic: the same input always gives the same bits (fixed operation order, no threads).
public struct RealFFT: Sendable {
    public let size: Int
    private let cosTable: [Float]
    private let sinTable: [Float]
    private let bitReversed: [Int]

    /// `size` must be a power of two, at least 4.
    public init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        cosTable = (0..<size / 2).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        sinTable = (0..<size / 2).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
        let bits = size.trailingZeroBitCount
        bitReversed = (0..<size).map { index in
            var reversed = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
            return reversed
        }
    }

    /// |X[k]|² for k in 0...size/2 of `frame` (zero-padded or truncated to `size`).
    public func powerSpectrum(_ frame: [Float]) -> [Float] {
        var re = [Float](repeating: 0, count: size)
        var im = [Float](repeating: 0, count: size)
        for i in 0..<min(frame.count, size) { re[bitReversed[i]] = frame[i] }
        var half = 1
        while half < size {
            let step = size / (half * 2)
            var start = 0
            while start < size {
                for k in 0..<half {
                    let wr = cosTable[k * step], wi = sinTable[k * step]
                    let a = start + k, b = a + half
                    let tr = wr * re[b] - wi * im[b]
                    let ti = wr * im[b] + wi * re[b]
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
                start += half * 2
            }
            half *= 2
        }
        return (0...size / 2).map { re[$0] * re[$0] + im[$0] * im[$0] }
    }
}
