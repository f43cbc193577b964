/// A template set laid out for the one-pass DTW search, built once and shared by every decoder of
/// that set.
///
/// Each template gets a region of the search buffers: three guard cells (always +∞, so the first
/// cells need no bounds tests), then its cells padded to a multiple of eight so the search can
/// update eight cells at a time. Every cell is scored by the distance from the input frame to one
/// centroid; padding cells point at an extra entry whose distance is +∞, so they never hold a
/// finite cost. Without a codebook every template frame is its own centroid (exact distances).
public final class DecoderModel: Sendable {
    typealias Vector = SIMD8<Float>

    static let guardCells = 3
    /// Cells updated together (one SIMD4 per step).
    static let blockWidth = 4
    /// Centroids scored together, and the lanes of the dimension sum whose order fixes the bits.
    static let groupWidth = 8

    public let vocabularySize: Int
    public let parameters: DecoderParameters
    let dimension: Int
    /// Centroids in groups of eight, transposed: `groups[g * dimension + k]` holds dimension `k`
    /// of centroids 8g…8g+7 (zero past the last centroid).
    let centroidGroups: [Vector]
    let groupCount: Int
    /// Per buffer cell, the index of its distance in the per-frame distance table; padding and
    /// guard cells index the +∞ entry at `groupCount * 8`.
    let cellCodes: [UInt32]
    /// Per template: buffer index of its cell 0, its length in frames, its vocabulary entry.
    let regionStart: [Int]
    let templateLength: [Int]
    let templateWord: [Int]
    let bufferSize: Int

    public init(templates: TemplateSet) {
        let dimension = templates.frontEnd.dimension
        self.dimension = dimension
        vocabularySize = templates.vocabulary.count
        parameters = templates.parameters
        let quantised = templates.codebookSize > 0 && templates.codes.count == templates.templates.count
        // Centroid rows and each template frame's row, keeping only the centroids in use (the
        // distances of the others would never be read).
        var rows: [[Float]] = []
        var frameRows: [[Int]] = []
        if quantised {
            var renumbered: [UInt16: Int] = [:]
            let used = Set(templates.codes.joined()).sorted()
            for code in used {
                renumbered[code] = rows.count
                let start = Int(code) * dimension
                rows.append(Array(templates.codebook[start..<start + dimension]))
            }
            frameRows = templates.codes.map { $0.map { renumbered[$0]! } }
        } else {
            for template in templates.templates {
                let count = template.frames.count / dimension
                frameRows.append((0..<count).map { rows.count + $0 })
                for f in 0..<count { rows.append(Array(template.frames[f * dimension..<(f + 1) * dimension])) }
            }
        }
        groupCount = (rows.count + Self.groupWidth - 1) / Self.groupWidth
        var groups = [Vector](repeating: .zero, count: groupCount * dimension)
        for (index, row) in rows.enumerated() {
            for k in 0..<dimension { groups[index / 8 * dimension + k][index % 8] = row[k] }
        }
        centroidGroups = groups
        let padding = UInt32(groupCount * Self.groupWidth)
        var codes: [UInt32] = []
        var starts: [Int] = [], lengths: [Int] = [], words: [Int] = []
        for (t, template) in templates.templates.enumerated() {
            let length = template.frames.count / dimension
            let padded = (length + Self.blockWidth - 1) / Self.blockWidth * Self.blockWidth
            codes += repeatElement(padding, count: Self.guardCells)
            starts.append(codes.count)
            codes += frameRows[t].map { UInt32($0) }
            codes += repeatElement(padding, count: padded - length)
            lengths.append(length)
            words.append(template.word)
        }
        cellCodes = codes
        regionStart = starts
        templateLength = lengths
        templateWord = words
        bufferSize = codes.count
    }

    var templateCount: Int { regionStart.count }

    /// Distances from `feature` to every centroid (then the +∞ padding entry) into `table`.
    func distances(to feature: [Float], into table: UnsafeMutableBufferPointer<Float>) {
        let dimension = self.dimension
        centroidGroups.withUnsafeBufferPointer { groups in
            feature.withUnsafeBufferPointer { x in
                for g in 0..<groupCount {
                    let row = g * dimension
                    // The sum runs in the order a SIMD8 over dimensions would take (lane m
                    // accumulates dimensions m, m+8, …; then the lanes in order), so a frame's
                    // distance to a centroid has the same bits whichever way it is computed.
                    var total = Vector(repeating: -0.0)
                    for m in 0..<Self.groupWidth {
                        var lane = Vector.zero
                        var k = m
                        while k < dimension {
                            let d = Vector(repeating: x[k]) - groups[row + k]
                            lane += d * d
                            k += Self.groupWidth
                        }
                        total += lane
                    }
                    let root = total.squareRoot()
                    for i in 0..<Self.groupWidth { table[g * Self.groupWidth + i] = root[i] }
                }
            }
        }
        table[groupCount * Self.groupWidth] = .infinity
    }
}
