/// Connected-word recognition by one-pass dynamic time warping (Ney's one-stage algorithm) over
/// word templates, with a word-loop grammar, optional silence between words, and a beam.
///
/// Frame-synchronous: each input frame is consumed once, so all hypotheses have spent the same
/// number of frames and their costs compare directly. Within a template a frame may stay, advance
/// one, or skip one (or two) template frames: input up to two (or three) times as fast as the template. A word starts from
/// the best boundary of the previous frame, paying the word penalty; the silence model is a
/// single self-looping state scored by the distance to a noise estimate.
public struct ConnectedWordDecoder: Sendable {
    /// A word of a hypothesis, in decoder frames (both ends inclusive).
    public struct Word: Sendable, Hashable {
        public var word: Int
        public var firstFrame: Int
        public var lastFrame: Int
        /// Average per-frame cost of the word's own frames.
        public var costPerFrame: Float
    }

    /// A competing word for a committed word's span, for alternatives and confidence.
    public struct Competitor: Sendable, Hashable {
        public var word: Int
        /// Per-frame cost above the chosen word's (≥ 0 when the chosen word is better).
        public var margin: Float
    }

    typealias Vector = SIMD4<Float>
    typealias Starts = SIMD4<Int32>

    public var vocabularySize: Int { model.vocabularySize }
    public var parameters: DecoderParameters { model.parameters }
    public let model: DecoderModel
    /// Distance from the current frame to every centroid, then +∞ for padding cells.
    private var distanceTable: [Float]
    /// Per template, the highest cell (relative index) with a finite cost in the `previous` and
    /// in the `current` buffer (−1: none). Cells past reach + maximum advance cannot be reached,
    /// so they are not visited; the buffers hold infinity there.
    private var reachPrevious: [Int32]
    private var reachCurrent: [Int32]

    // Search state.
    private var previous: [Float]
    private var current: [Float]
    private var previousStart: [Int32]
    private var currentStart: [Int32]
    private var silenceCost: Float = .infinity
    private var silenceStart: Int32 = 0
    private var bestPrevious: Float = 0
    /// Cells with a finite cost after the previous frame (drives the adaptive beam).
    private var activePrevious = 0
    /// Per frame: the best boundary (end of a word or of silence) and how it was reached.
    private var boundaryCost: [Float] = []
    private var boundaryWord: [Int32] = []
    private var boundaryStart: [Int32] = []
    /// Per frame and word: the best cost of that word ending there, and its start frame.
    private var wordEndCost: [Float] = []
    private var wordEndStart: [Int32] = []
    public private(set) var frameCount = 0

    public init(templates: TemplateSet) {
        self.init(model: DecoderModel(templates: templates))
    }

    /// A decoder over a prepared model (share one model between decoders of the same set).
    public init(model: DecoderModel) {
        self.model = model
        distanceTable = [Float](repeating: .infinity, count: model.groupCount * DecoderModel.groupWidth + 1)
        reachPrevious = [Int32](repeating: -1, count: model.templateCount)
        reachCurrent = reachPrevious
        previous = [Float](repeating: .infinity, count: model.bufferSize)
        current = previous
        previousStart = [Int32](repeating: 0, count: model.bufferSize)
        currentStart = previousStart
    }

    /// Starts a new utterance (forgets all hypotheses).
    public mutating func reset() {
        for i in 0..<model.bufferSize { previous[i] = .infinity; current[i] = .infinity }
        for t in reachPrevious.indices { reachPrevious[t] = -1; reachCurrent[t] = -1 }
        silenceCost = .infinity
        bestPrevious = 0
        activePrevious = 0
        boundaryCost.removeAll(keepingCapacity: true)
        boundaryWord.removeAll(keepingCapacity: true)
        boundaryStart.removeAll(keepingCapacity: true)
        wordEndCost.removeAll(keepingCapacity: true)
        wordEndStart.removeAll(keepingCapacity: true)
        frameCount = 0
    }

    /// Consumes one normalised feature frame and the current noise estimate (same dimension);
    /// `speechLike` frames cost the silence model ``DecoderParameters/silenceSpeechPenalty`` more.
    public mutating func step(_ feature: [Float], noise: [Float], speechLike: Bool = false) {
        let f = frameCount
        let entry: Float = f == 0 ? 0 : boundaryCost[f - 1]
        let wordBase = wordEndCost.count
        wordEndCost.append(contentsOf: repeatElement(Float.infinity, count: vocabularySize))
        wordEndStart.append(contentsOf: repeatElement(Int32(0), count: vocabularySize))
        let model = self.model
        let parameters = model.parameters
        var beam = parameters.beam
        if parameters.activeTarget > 0 && activePrevious > parameters.activeTarget {
            beam = max(min(parameters.minimumBeam, beam), beam * Float(parameters.activeTarget) / Float(activePrevious))
        }
        let limit = bestPrevious + beam
        distanceTable.withUnsafeMutableBufferPointer { model.distances(to: feature, into: $0) }
        var best = Float.infinity
        var active = 0
        distanceTable.withUnsafeBufferPointer { table in
        previous.withUnsafeBufferPointer { previous in
        previousStart.withUnsafeBufferPointer { previousStart in
        current.withUnsafeMutableBufferPointer { current in
        currentStart.withUnsafeMutableBufferPointer { currentStart in
        wordEndCost.withUnsafeMutableBufferPointer { ends in
        wordEndStart.withUnsafeMutableBufferPointer { endStarts in
        reachPrevious.withUnsafeBufferPointer { reachPrevious in
        reachCurrent.withUnsafeMutableBufferPointer { reachCurrent in
        model.cellCodes.withUnsafeBufferPointer { codes in
        model.regionStart.withUnsafeBufferPointer { regionStart in
        model.templateLength.withUnsafeBufferPointer { templateLength in
        model.templateWord.withUnsafeBufferPointer { templateWord in
            let search = BlockSearch(
                previous: previous.baseAddress!, previousStart: previousStart.baseAddress!,
                current: current.baseAddress!, currentStart: currentStart.baseAddress!,
                table: table.baseAddress!, codes: codes.baseAddress!,
                stay: parameters.stayPenalty, limit: limit,
                wordEntry: entry + parameters.wordPenalty, entryStart: Int32(f), skip3: parameters.maximumAdvance >= 3)
            let advance = search.skip3 ? 3 : 2
            let infinity = Vector(repeating: .infinity)
            var bestLanes = infinity
            let ones = Starts(repeating: 1)
            var activeLanes = Starts.zero
            for t in 0..<regionStart.count {
                let base = regionStart[t], length = templateLength[t]
                // Cells 0 and 1 can always be entered; the rest only from finite cells behind them.
                let bound = min(length - 1, max(1, Int(reachPrevious[t]) + advance))
                let blocks = bound / DecoderModel.blockWidth + 1
                // The buffer being written still holds the frame before last: clear what lies past
                // the blocks updated now.
                let updatedEnd = blocks * DecoderModel.blockWidth
                if Int(reachCurrent[t]) >= updatedEnd {
                    for cell in (base + updatedEnd)...(base + Int(reachCurrent[t])) { current[cell] = .infinity }
                }
                var costs = search.update(cell: base, entering: true)
                bestLanes.replace(with: costs, where: costs .< bestLanes)
                activeLanes &+= ones.replacing(with: 0, where: costs .== infinity)
                for b in 1..<blocks {
                    costs = search.update(cell: base + b * DecoderModel.blockWidth, entering: false)
                    bestLanes.replace(with: costs, where: costs .< bestLanes)
                    activeLanes &+= ones.replacing(with: 0, where: costs .== infinity)
                }
                // The highest finite cell, scanning back from the last block (usually found there).
                var reach: Int32 = -1
                var b = blocks - 1
                while b >= 0 {
                    let first = base + b * DecoderModel.blockWidth
                    let finite = UnsafeRawPointer(current.baseAddress! + first).loadUnaligned(as: Vector.self) .< infinity
                    if any(finite) {
                        var lane = DecoderModel.blockWidth - 1
                        while !finite[lane] { lane -= 1 }
                        reach = Int32(b * DecoderModel.blockWidth + lane)
                        break
                    }
                    b -= 1
                }
                reachCurrent[t] = reach
                let last = base + length - 1
                let w = wordBase + templateWord[t]
                if current[last] < ends[w] { ends[w] = current[last]; endStarts[w] = currentStart[last] }
            }
            best = bestLanes.min()
            active = Int(activeLanes.wrappedSum())
        }}}}}}}}}}}}}
        // Silence: stay, or enter from the previous boundary.
        var sp = silenceCost, ss = silenceStart
        if entry < sp { sp = entry; ss = Int32(f) }
        var noiseDistance: Float = 0
        for k in 0..<min(feature.count, noise.count) {
            let d = feature[k] - noise[k]
            noiseDistance += d * d
        }
        let silence = sp + parameters.silenceWeight * noiseDistance.squareRoot() + (speechLike ? parameters.silenceSpeechPenalty : 0)
        silenceCost = silence
        silenceStart = ss
        best = min(best, silence)
        // The frame's best boundary.
        var boundary = silence, label: Int32 = -1, start = ss
        for w in 0..<vocabularySize where wordEndCost[wordBase + w] < boundary {
            boundary = wordEndCost[wordBase + w]
            label = Int32(w)
            start = wordEndStart[wordBase + w]
        }
        boundaryCost.append(boundary)
        boundaryWord.append(label)
        boundaryStart.append(start)
        bestPrevious = best
        activePrevious = active
        swap(&previous, &current)
        swap(&previousStart, &currentStart)
        swap(&reachPrevious, &reachCurrent)
        frameCount += 1
    }

    /// One frame's update of eight consecutive cells of a template.
    ///
    /// Each cell takes the cheapest of staying (plus the stay penalty) or advancing one, two or
    /// three template frames from the previous frame, or, for cells 0 and 1, entering the word;
    /// ties keep the earlier choice in that order. A predecessor worse than the beam limit leaves
    /// the cell at +∞.
    private struct BlockSearch {
        let previous: UnsafePointer<Float>
        let previousStart: UnsafePointer<Int32>
        let current: UnsafeMutablePointer<Float>
        let currentStart: UnsafeMutablePointer<Int32>
        let table: UnsafePointer<Float>
        let codes: UnsafePointer<UInt32>
        let stay: Vector
        let limit: Vector
        let wordEntry: Vector
        let entryStart: Starts
        let skip3: Bool
        static let entryLanes = Starts(0, 1, 2, 3) .< Starts(repeating: 2)

        init(previous: UnsafePointer<Float>, previousStart: UnsafePointer<Int32>, current: UnsafeMutablePointer<Float>,
             currentStart: UnsafeMutablePointer<Int32>, table: UnsafePointer<Float>, codes: UnsafePointer<UInt32>,
             stay: Float, limit: Float, wordEntry: Float, entryStart: Int32, skip3: Bool) {
            self.previous = previous
            self.previousStart = previousStart
            self.current = current
            self.currentStart = currentStart
            self.table = table
            self.codes = codes
            self.stay = Vector(repeating: stay)
            self.limit = Vector(repeating: limit)
            self.wordEntry = Vector(repeating: wordEntry)
            self.entryStart = Starts(repeating: entryStart)
            self.skip3 = skip3
        }

        @inline(__always) private func costs(at cell: Int) -> Vector {
            UnsafeRawPointer(previous + cell).loadUnaligned(as: Vector.self)
        }

        @inline(__always) private func starts(at cell: Int) -> Starts {
            UnsafeRawPointer(previousStart + cell).loadUnaligned(as: Starts.self)
        }

        /// Updates cells `cell`…`cell + 7` and returns their new costs.
        @inline(__always) func update(cell: Int, entering: Bool) -> Vector {
            var p = costs(at: cell) + stay
            var s = starts(at: cell)
            for back in 1...(skip3 ? 3 : 2) {
                let q = costs(at: cell - back)
                let better = q .< p
                p.replace(with: q, where: better)
                s.replace(with: starts(at: cell - back), where: better)
            }
            if entering {
                let enter = Self.entryLanes .& (wordEntry .< p)
                p.replace(with: wordEntry, where: enter)
                s.replace(with: entryStart, where: enter)
            }
            let c = codes + cell
            let distance = Vector(table[Int(c[0])], table[Int(c[1])], table[Int(c[2])], table[Int(c[3])])
            var cost = p + distance
            cost.replace(with: .infinity, where: p .> limit)
            UnsafeMutableRawPointer(current + cell).storeBytes(of: cost, as: Vector.self)
            UnsafeMutableRawPointer(currentStart + cell).storeBytes(of: s, as: Starts.self)
            return cost
        }
    }

    private func boundary(before frame: Int) -> Float { frame <= 0 ? 0 : boundaryCost[frame - 1] }

    /// The best word sequence ending at a boundary at the last frame.
    public func bestPath() -> [Word] {
        trace(from: frameCount - 1)
    }

    /// The best hypothesis now, including a word still in progress (for partial results).
    public func partialPath() -> [Word] {
        guard frameCount > 0 else { return [] }
        var words = trace(from: frameCount - 1)
        // After the swap `previous` holds the last frame's costs, finite only up to each template's reach.
        var bestCell = -1, bestTemplate = -1
        var bestCost = boundaryCost[frameCount - 1]
        for t in 0..<model.templateCount where reachPrevious[t] >= 0 {
            let base = model.regionStart[t]
            for cell in base...(base + Int(reachPrevious[t])) where previous[cell] < bestCost {
                bestCost = previous[cell]
                bestCell = cell
                bestTemplate = t
            }
        }
        guard bestCell >= 0 else { return words }
        let t = bestTemplate
        let start = Int(previousStart[bestCell])
        words = trace(from: start - 1)
        let cost = (bestCost - boundary(before: start)) / Float(frameCount - start)
        words.append(Word(word: model.templateWord[t], firstFrame: start, lastFrame: frameCount - 1, costPerFrame: cost))
        return words
    }

    private func trace(from last: Int) -> [Word] {
        var words: [Word] = []
        var i = last
        while i >= 0 {
            let label = Int(boundaryWord[i]), start = Int(boundaryStart[i])
            if label >= 0 {
                let cost = (boundaryCost[i] - boundary(before: start) - parameters.wordPenalty) / Float(i - start + 1)
                words.append(Word(word: label, firstFrame: start, lastFrame: i, costPerFrame: cost))
            }
            guard start <= i else { break }
            i = start - 1
        }
        return words.reversed()
    }

    /// Other words that end where `word` ends, best first, with their per-frame cost margins.
    public func competitors(of word: Word) -> [Competitor] {
        let e = word.lastFrame
        var out: [Competitor] = []
        for w in 0..<vocabularySize where w != word.word {
            let cost = wordEndCost[e * vocabularySize + w]
            guard cost.isFinite else { continue }
            let start = Int(wordEndStart[e * vocabularySize + w])
            let perFrame = (cost - boundary(before: start) - parameters.wordPenalty) / Float(e - start + 1)
            out.append(Competitor(word: w, margin: perFrame - word.costPerFrame))
        }
        return out.sorted { ($0.margin, $0.word) < ($1.margin, $1.word) }
    }
}
