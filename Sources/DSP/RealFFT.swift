import Foundation

/// Power spectrum of real frames: the frame's even and odd samples form one complex sequence of
/// half the size, transformed by an iterative radix-2 FFT and then split into the real
/// transform's bins. Tables are computed once per size; scratch lives on the stack.
///
/// Deterministic: the same input always gives the same bits (fixed operation order, no threads).
public struct RealFFT: Sendable {
    public let size: Int
    private let half: Int
    /// Twiddles of the half-size complex FFT: e^(−2πik/half).
    private let cosTable: [Float]
    private let sinTable: [Float]
    /// Twiddles of the split: e^(−2πik/size) for k in 0...size/2.
    private let splitCos: [Float]
    private let splitSin: [Float]
    private let bitReversed: [Int]

    /// `size` must be a power of two, at least 4.
    public init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        let half = size / 2
        self.half = half
        cosTable = (0..<half / 2).map { Float(cos(-2 * Double.pi * Double($0) / Double(half))) }
        sinTable = (0..<half / 2).map { Float(sin(-2 * Double.pi * Double($0) / Double(half))) }
        splitCos = (0...half).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        splitSin = (0...half).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
        let bits = half.trailingZeroBitCount
        bitReversed = (0..<half).map { index in
            var reversed = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
            return reversed
        }
    }

    /// |X[k]|² for k in 0...size/2 of `frame` (zero-padded or truncated to `size`).
    public func powerSpectrum(_ frame: [Float]) -> [Float] {
        let half = self.half
        var power = [Float](repeating: 0, count: half + 1)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * half) { scratch in
            let re = scratch.baseAddress!, im = scratch.baseAddress! + half
            for i in 0..<half { re[i] = 0; im[i] = 0 }
            frame.withUnsafeBufferPointer { x in
                let n = min(x.count, size)
                for i in 0..<half {
                    let r = bitReversed[i]
                    if 2 * i < n { re[r] = x[2 * i] }
                    if 2 * i + 1 < n { im[r] = x[2 * i + 1] }
                }
            }
            cosTable.withUnsafeBufferPointer { cosTable in
                sinTable.withUnsafeBufferPointer { sinTable in
                    var span = 1
                    while span < half {
                        let step = half / (span * 2)
                        var start = 0
                        while start < half {
                            for k in 0..<span {
                                let wr = cosTable[k * step], wi = sinTable[k * step]
                                let a = start + k, b = a + span
                                let tr = wr * re[b] - wi * im[b]
                                let ti = wr * im[b] + wi * re[b]
                                re[b] = re[a] - tr
                                im[b] = im[a] - ti
                                re[a] += tr
                                im[a] += ti
                            }
                            start += span * 2
                        }
                        span *= 2
                    }
                }
            }
            // X[k] = E[k] + W^k O[k], with E and O the transforms of the even and odd samples:
            // E[k] = (Z[k] + conj Z[half−k]) / 2, O[k] = (Z[k] − conj Z[half−k]) / 2i.
            splitCos.withUnsafeBufferPointer { wc in
                splitSin.withUnsafeBufferPointer { ws in
                    power.withUnsafeMutableBufferPointer { power in
                        for k in 0...half {
                            let a = k % half, b = (half - k) % half
                            let zr = re[a], zi = im[a], cr = re[b], ci = -im[b]
                            let er = (zr + cr) * 0.5, ei = (zi + ci) * 0.5
                            let or = (zi - ci) * 0.5, oi = (cr - zr) * 0.5
                            let xr = er + wc[k] * or - ws[k] * oi
                            let xi = ei + wc[k] * oi + ws[k] * or
                            power[k] = xr * xr + xi * xi
                        }
                    }
                }
            }
        }
        return power
    }
}
