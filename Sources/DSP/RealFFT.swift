import Foundation

/// Power spectrum of real frames: the frame's even and odd samples form one complex sequence of
/// half the size, transformed by an iterative radix-2 FFT and then split into the real
/// transform's bins. Tables are computed once per size; scratch lives on the stack.
///
/// Deterministic: the same input always gives the same bits (fixed operation order, no threads).
public struct RealFFT: Sendable {
    public let size: Int
    private let half: Int
    /// Twiddles of the half-size complex FFT, stage by stage: the stage that joins spans of
    /// `span` points uses e^(−2πik/(2·span)) for k < span, stored from index span − 1.
    private let stageCos: [Float]
    private let stageSin: [Float]
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
        let cosTable = (0..<half / 2).map { Float(cos(-2 * Double.pi * Double($0) / Double(half))) }
        let sinTable = (0..<half / 2).map { Float(sin(-2 * Double.pi * Double($0) / Double(half))) }
        var stageCos: [Float] = [], stageSin: [Float] = []
        var span = 1
        while span < half {
            let step = half / (span * 2)
            stageCos += (0..<span).map { cosTable[$0 * step] }
            stageSin += (0..<span).map { sinTable[$0 * step] }
            span *= 2
        }
        self.stageCos = stageCos
        self.stageSin = stageSin
        splitCos = (0...half).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        splitSin = (0...half).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
        let bits = half.trailingZeroBitCount
        bitReversed = (0..<half).map { index in
            var reversed = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
            return reversed
        }
    }

    @inline(__always) private static func load(_ p: UnsafeRawPointer) -> SIMD4<Float> {
        p.loadUnaligned(as: SIMD4<Float>.self)
    }

    @inline(__always) private static func store(_ v: SIMD4<Float>, _ p: UnsafeMutableRawPointer) {
        p.storeBytes(of: v, as: SIMD4<Float>.self)
    }

    /// |X[k]|² for k in 0...size/2 of `frame` (zero-padded or truncated to `size`).
    public func powerSpectrum(_ frame: [Float]) -> [Float] {
        let half = self.half
        var power = [Float](repeating: 0, count: half + 1)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * half) { scratch in
            let re = scratch.baseAddress!, im = scratch.baseAddress! + half
            for i in 0..<half {
                re[i] = 0
                im[i] = 0
            }
            frame.withUnsafeBufferPointer { x in
                let n = min(x.count, size)
                for i in 0..<half {
                    let r = bitReversed[i]
                    if 2 * i < n { re[r] = x[2 * i] }
                    if 2 * i + 1 < n { im[r] = x[2 * i + 1] }
                }
            }
            stageCos.withUnsafeBufferPointer { stageCos in
                stageSin.withUnsafeBufferPointer { stageSin in
                    var span = 1
                    while span < half {
                        let wc = stageCos.baseAddress! + span - 1, ws = stageSin.baseAddress! + span - 1
                        var start = 0
                        while start < half {
                            if span >= 4 {
                                // Four butterflies at once: the same operations on each lane.
                                var k = 0
                                while k < span {
                                    let wr = Self.load(wc + k), wi = Self.load(ws + k)
                                    let a = start + k, b = a + span
                                    let rb = Self.load(re + b), ib = Self.load(im + b)
                                    let ra = Self.load(re + a), ia = Self.load(im + a)
                                    let tr = wr * rb - wi * ib
                                    let ti = wr * ib + wi * rb
                                    Self.store(ra - tr, re + b)
                                    Self.store(ia - ti, im + b)
                                    Self.store(ra + tr, re + a)
                                    Self.store(ia + ti, im + a)
                                    k += 4
                                }
                            } else {
                                for k in 0..<span {
                                    let wr = wc[k], wi = ws[k]
                                    let a = start + k, b = a + span
                                    let tr = wr * re[b] - wi * im[b]
                                    let ti = wr * im[b] + wi * re[b]
                                    re[b] = re[a] - tr
                                    im[b] = im[a] - ti
                                    re[a] += tr
                                    im[a] += ti
                                }
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
