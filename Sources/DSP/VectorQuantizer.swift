/// k-means over feature frames, deterministic: centroids start at evenly spaced frames of the
/// input order and take a fixed number of Lloyd iterations.
public enum VectorQuantizer {
    typealias Vector = SIMD8<Float>

    /// `size` centroids (row-major, `dimension` each) for `frames` (row-major).
    public static func train(_ frames: [Float], dimension: Int, size: Int, iterations: Int = 8) -> [Float] {
        let count = frames.count / dimension
        guard count > size else { return frames }
        var centroids: [Float] = []
        centroids.reserveCapacity(size * dimension)
        for k in 0..<size {
            let row = k * count / size
            centroids += frames[row * dimension..<(row + 1) * dimension]
        }
        for _ in 0..<iterations {
            let assignment = assign(frames, dimension: dimension, centroids: centroids)
            var sums = [Double](repeating: 0, count: size * dimension)
            var members = [Int](repeating: 0, count: size)
            for (i, code) in assignment.enumerated() {
                members[Int(code)] += 1
                for k in 0..<dimension { sums[Int(code) * dimension + k] += Double(frames[i * dimension + k]) }
            }
            for c in 0..<size where members[c] > 0 {
                for k in 0..<dimension {
                    centroids[c * dimension + k] = Float(sums[c * dimension + k] / Double(members[c]))
                }
            }
        }
        return centroids
    }

    /// The nearest centroid of every frame.
    public static func assign(_ frames: [Float], dimension: Int, centroids: [Float]) -> [UInt16] {
        let lanes = (dimension + 7) / 8
        let packedCentroids = pack(centroids, dimension: dimension, lanes: lanes)
        let packedFrames = pack(frames, dimension: dimension, lanes: lanes)
        let size = centroids.count / dimension
        return (0..<frames.count / dimension).map { i in
            var best: Float = .infinity, code = 0
            for c in 0..<size {
                var acc = Vector.zero
                for l in 0..<lanes {
                    let d = packedFrames[i * lanes + l] - packedCentroids[c * lanes + l]
                    acc += d * d
                }
                let distance = acc.sum()
                if distance < best {
                    best = distance
                    code = c
                }
            }
            return UInt16(code)
        }
    }

    /// Rows of `dimension` values as `lanes` SIMD vectors each, zero-padded.
    static func pack(_ values: [Float], dimension: Int, lanes: Int) -> [Vector] {
        let rows = values.count / dimension
        var out = [Vector](repeating: .zero, count: rows * lanes)
        for r in 0..<rows {
            for k in 0..<dimension { out[r * lanes + k / 8][k % 8] = values[r * dimension + k] }
        }
        return out
    }
}
