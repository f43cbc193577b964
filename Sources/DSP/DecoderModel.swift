/// A template set laid out for the one-pass DTW search, built once and shared by every decoder of
/// that set.
///
/// Templates are searched eight at a time, one per SIMD lane: sorted by word and length, they
/// are grouped into bundles of eight, and a bundle's cells are stored row by row (row `j` holds
/// frame `j` of its eight templates), after three guard rows that are always +∞. A frame's update
/// then walks each bundle's rows with whole-vector loads and pays the per-template bookkeeping once
/// per bundle; templates of one word tend to stay alive together, so few lanes idle.
///
/// Every cell is scored by the distance from the input frame to one centroid; cells past a
/// template's end (and lanes without a template) point at an extra entry whose distance is +∞, so
/// they never hold a finite cost. Without a codebook every template frame is its own centroid
/// (exact distances).
public final class DecoderModel: Sendable {
    typealias Vector = SIMD8<Float>

    static let guardRows = 3
    /// Templates searched together (one SIMD lane each).
    static let lanes = 8
    /// Centroids scored together (one SIMD8 each).
    static let groupWidth = 8

    public let vocabularySize: Int
    public let parameters: DecoderParameters
    let dimension: Int
    /// Centroids in groups of eight, transposed: `groups[g * dimension + k]` holds dimension `k`
    /// of centroids 8g…8g+7 (zero past the last centroid).
    let centroidGroups: [Vector]
    let groupCount: Int
    /// Per buffer cell, the index of its distance in the per-frame distance table; padding and
    /// guard cells index the +∞ entry at `groupCount * groupWidth`.
    let cellCodes: [UInt32]
    /// Per bundle: buffer index of row 0 (lane 0), and its rows (its longest template's length).
    let bundleStart: [Int]
    let bundleLength: [Int]
    /// Per template, in the template set's order: its vocabulary entry.
    let templateWord: [Int]
    /// A bundle lane's template (−1: none), that template's last row and vocabulary entry.
    struct LaneEnd: Sendable {
        var template: Int32
        var lastRow: Int32
        var word: Int32
    }
    /// Per bundle lane, at `bundle * lanes + lane`.
    let laneEnds: [LaneEnd]
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
            for k in 0..<dimension { groups[index / Self.groupWidth * dimension + k][index % Self.groupWidth] = row[k] }
        }
        centroidGroups = groups
        let padding = UInt32(groupCount * Self.groupWidth)
        let lengths = templates.templates.map { $0.frames.count / dimension }
        let words = templates.templates.map(\.word)
        let order = lengths.indices.sorted { (words[$0], lengths[$0], $0) < (words[$1], lengths[$1], $1) }
        var codes: [UInt32] = []
        var bundleStart: [Int] = [], bundleLength: [Int] = []
        var laneEnds: [LaneEnd] = []
        for first in stride(from: 0, to: order.count, by: Self.lanes) {
            let members = Array(order[first..<min(first + Self.lanes, order.count)])
            let rows = members.map { lengths[$0] }.max()!
            codes += repeatElement(padding, count: Self.guardRows * Self.lanes)
            let start = codes.count
            var block = [UInt32](repeating: padding, count: rows * Self.lanes)
            for (lane, t) in members.enumerated() {
                for (j, row) in frameRows[t].enumerated() { block[j * Self.lanes + lane] = UInt32(row) }
            }
            for lane in 0..<Self.lanes {
                let t = lane < members.count ? members[lane] : -1
                laneEnds.append(
                    LaneEnd(
                        template: Int32(t), lastRow: t >= 0 ? Int32(lengths[t] - 1) : -1,
                        word: t >= 0 ? Int32(words[t]) : -1))
            }
            codes += block
            bundleStart.append(start)
            bundleLength.append(rows)
        }
        cellCodes = codes
        self.bundleStart = bundleStart
        self.bundleLength = bundleLength
        templateWord = words
        self.laneEnds = laneEnds
        bufferSize = codes.count
    }

    var bundleCount: Int { bundleStart.count }

    /// Distances from `feature` to every centroid (then the +∞ padding entry) into `table`.
    ///
    /// The squares are summed the way one SIMD8 over the dimensions would sum them (eight running
    /// sums over dimensions m, m+8, …, then the eight in order), so the bits do not depend on
    /// the layout: exact distances without a codebook equal the codebook's for the same frames.
    func distances(to feature: [Float], into table: UnsafeMutableBufferPointer<Float>) {
        let dimension = self.dimension
        let full = dimension / 8 * 8
        withUnsafeTemporaryAllocation(of: Vector.self, capacity: dimension) { x in
            for k in 0..<dimension { x[k] = Vector(repeating: feature[k]) }
            centroidGroups.withUnsafeBufferPointer { groups in
                for g in 0..<groupCount {
                    let c = groups.baseAddress! + g * dimension
                    var s0 = Vector.zero, s1 = Vector.zero, s2 = Vector.zero, s3 = Vector.zero
                    var s4 = Vector.zero, s5 = Vector.zero, s6 = Vector.zero, s7 = Vector.zero
                    @inline(__always) func square(_ k: Int) -> Vector {
                        let d = x[k] - c[k]
                        return d * d
                    }
                    var k = 0
                    while k < full {
                        s0 += square(k)
                        s1 += square(k + 1)
                        s2 += square(k + 2)
                        s3 += square(k + 3)
                        s4 += square(k + 4)
                        s5 += square(k + 5)
                        s6 += square(k + 6)
                        s7 += square(k + 7)
                        k += 8
                    }
                    if k < dimension { s0 += square(k) }
                    if k + 1 < dimension { s1 += square(k + 1) }
                    if k + 2 < dimension { s2 += square(k + 2) }
                    if k + 3 < dimension { s3 += square(k + 3) }
                    if k + 4 < dimension { s4 += square(k + 4) }
                    if k + 5 < dimension { s5 += square(k + 5) }
                    if k + 6 < dimension { s6 += square(k + 6) }
                    var total = Vector(repeating: -0.0) + s0
                    total += s1
                    total += s2
                    total += s3
                    total += s4
                    total += s5
                    total += s6
                    total += s7
                    let root = total.squareRoot()
                    for i in 0..<Self.groupWidth { table[g * Self.groupWidth + i] = root[i] }
                }
            }
        }
        table[groupCount * Self.groupWidth] = .infinity
    }
}
