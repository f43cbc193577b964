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

    /// One row of a bundle: the same frame of eight templates.
    typealias Vector = SIMD8<Float>
    typealias Starts = SIMD8<Int32>

    public var vocabularySize: Int { model.vocabularySize }
    public var parameters: DecoderParameters { model.parameters }
    public let model: DecoderModel
    /// Distance from the current frame to every centroid, then +∞ for padding cells.
    private var distanceTable: [Float]
    /// Per bundle, the highest row with a finite cost in the `previous` and in the `current`
    /// buffer (−1: none). Rows past reach + maximum advance cannot be reached, so they are not
    /// visited; the buffers hold infinity there.
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
    /// This frame's template behind each word's end cost (ties go to the earlier template).
    private var wordEndTemplate: [Int32]
    public private(set) var frameCount = 0

    public init(templates: TemplateSet) {
        self.init(model: DecoderModel(templates: templates))
    }

    /// A decoder over a prepared model (share one model between decoders of the same set).
    public init(model: DecoderModel) {
        self.model = model
        distanceTable = [Float](repeating: .infinity, count: model.groupCount * DecoderModel.groupWidth + 1)
        reachPrevious = [Int32](repeating: -1, count: model.bundleCount)
        reachCurrent = reachPrevious
        wordEndTemplate = [Int32](repeating: 0, count: model.vocabularySize)
        previous = [Float](repeating: .infinity, count: model.bufferSize)
        current = previous
        previousStart = [Int32](repeating: 0, count: model.bufferSize)
        currentStart = previousStart
    }

    /// Starts a new utterance (forgets all hypotheses).
    public mutating func reset() {
        for i in 0..<model.bufferSize {
            previous[i] = .infinity
            current[i] = .infinity
        }
        for t in reachPrevious.indices {
            reachPrevious[t] = -1
            reachCurrent[t] = -1
        }
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
                            reachPrevious.withUnsafeBufferPointer { reachPrevious in
                                reachCurrent.withUnsafeMutableBufferPointer { reachCurrent in
                                    wordEndCost.withUnsafeMutableBufferPointer { ends in
                                        wordEndStart.withUnsafeMutableBufferPointer { endStarts in
                                            wordEndTemplate.withUnsafeMutableBufferPointer { endTemplates in
                                                model.laneEnds.withUnsafeBufferPointer { laneEnds in
                                                    model.cellCodes.withUnsafeBufferPointer { codes in
                                                        model.bundleStart.withUnsafeBufferPointer { bundleStart in
                                                            model.bundleLength.withUnsafeBufferPointer { bundleLength in
                                                                let search = RowSearch(
                                                                    previous: previous.baseAddress!,
                                                                    previousStart: previousStart.baseAddress!,
                                                                    current: current.baseAddress!,
                                                                    currentStart: currentStart.baseAddress!,
                                                                    table: table.baseAddress!,
                                                                    codes: codes.baseAddress!,
                                                                    stay: parameters.stayPenalty, limit: limit,
                                                                    wordEntry: entry + parameters.wordPenalty,
                                                                    entryStart: Int32(f),
                                                                    skip3: parameters.maximumAdvance >= 3)
                                                                (best, active) = search.run(
                                                                    bundleCount: bundleStart.count,
                                                                    bundleStart: bundleStart.baseAddress!,
                                                                    bundleLength: bundleLength.baseAddress!,
                                                                    reachPrevious: reachPrevious.baseAddress!,
                                                                    reachCurrent: reachCurrent.baseAddress!,
                                                                    ends: WordEnds(
                                                                        laneEnds: laneEnds.baseAddress!,
                                                                        cost: ends.baseAddress! + wordBase,
                                                                        start: endStarts.baseAddress! + wordBase,
                                                                        template: endTemplates.baseAddress!))
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Silence: stay, or enter from the previous boundary.
        var sp = silenceCost, ss = silenceStart
        if entry < sp {
            sp = entry
            ss = Int32(f)
        }
        var noiseDistance: Float = 0
        for k in 0..<min(feature.count, noise.count) {
            let d = feature[k] - noise[k]
            noiseDistance += d * d
        }
        let silence =
            sp + parameters.silenceWeight * noiseDistance.squareRoot()
            + (speechLike ? parameters.silenceSpeechPenalty : 0)
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

    /// This frame's word ends: per word, the cheapest cost of a template ending now, its start
    /// frame and the template (of equal costs, the earlier template keeps the end).
    private struct WordEnds {
        let laneEnds: UnsafePointer<DecoderModel.LaneEnd>
        let cost: UnsafeMutablePointer<Float>
        let start: UnsafeMutablePointer<Int32>
        let template: UnsafeMutablePointer<Int32>

        /// Records the lanes of `bundle` whose last row is within `reach`.
        @inline(never)
        func collect(
            bundle: Int, base: Int, reach: Int, current: UnsafePointer<Float>, currentStart: UnsafePointer<Int32>
        ) {
            let width = DecoderModel.lanes
            for lane in 0..<width {
                let end = laneEnds[bundle * width + lane]
                guard end.template >= 0, Int(end.lastRow) <= reach else { continue }
                let cell = base + Int(end.lastRow) * width + lane
                let c = current[cell], w = Int(end.word)
                if c < cost[w] || (c == cost[w] && c < .infinity && end.template < template[w]) {
                    cost[w] = c
                    start[w] = currentStart[cell]
                    template[w] = end.template
                }
            }
        }
    }

    /// One frame's update of a bundle row by row.
    ///
    /// Each cell takes the cheapest of staying (plus the stay penalty) or advancing one, two or
    /// three template frames from the previous frame, or, in rows 0 and 1, entering the word;
    /// ties keep the earlier choice in that order. A predecessor worse than the beam limit leaves
    /// the cell at +∞. The three rows behind the current one ride along in a ``Window``, so each
    /// row loads only its own costs.
    private struct RowSearch {
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

        /// The previous frame's costs and starts of the three rows behind the current one.
        struct Window {
            var cost1: Vector, cost2: Vector, cost3: Vector
            var start1: Starts, start2: Starts, start3: Starts
        }

        init(
            previous: UnsafePointer<Float>, previousStart: UnsafePointer<Int32>, current: UnsafeMutablePointer<Float>,
            currentStart: UnsafeMutablePointer<Int32>, table: UnsafePointer<Float>, codes: UnsafePointer<UInt32>,
            stay: Float, limit: Float, wordEntry: Float, entryStart: Int32, skip3: Bool
        ) {
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

        /// Updates every bundle for this frame; returns the best cost and the number of finite cells.
        func run(
            bundleCount: Int, bundleStart: UnsafePointer<Int>, bundleLength: UnsafePointer<Int>,
            reachPrevious: UnsafePointer<Int32>, reachCurrent: UnsafeMutablePointer<Int32>,
            ends: WordEnds
        ) -> (best: Float, active: Int) {
            let advance = skip3 ? 3 : 2
            let lanes = DecoderModel.lanes
            let infinity = Vector(repeating: .infinity)
            var bestLanes = infinity
            let ones = Starts(repeating: 1)
            var activeLanes = Starts.zero
            for bundle in 0..<bundleCount {
                let base = bundleStart[bundle]
                // Rows 0 and 1 can always be entered; the rest only from finite rows behind them.
                let bound = min(bundleLength[bundle] - 1, max(1, Int(reachPrevious[bundle]) + advance))
                // The buffer being written still holds the frame before last: clear what lies past
                // the rows updated now.
                if Int(reachCurrent[bundle]) > bound {
                    for row in (bound + 1)...Int(reachCurrent[bundle]) {
                        UnsafeMutableRawPointer(current + base + row * lanes).storeBytes(of: infinity, as: Vector.self)
                    }
                }
                var window = start(at: base)
                var reach = -1
                for row in 0...bound {
                    let costs = update(cell: base + row * lanes, window: &window, entering: row < 2)
                    bestLanes.replace(with: costs, where: costs .< bestLanes)
                    let finite = costs .< infinity
                    activeLanes &+= ones.replacing(with: 0, where: .!finite)
                    reach = any(finite) ? row : reach
                }
                reachCurrent[bundle] = Int32(truncatingIfNeeded: reach)
                // Word ends: each lane's last row, if it was reached.
                if reach >= 0 {
                    ends.collect(bundle: bundle, base: base, reach: reach, current: current, currentStart: currentStart)
                }
            }
            return (bestLanes.min(), Int(activeLanes.wrappedSum()))
        }

        /// The window before row 0 of the bundle at `base`: its guard rows.
        @inline(__always) func start(at base: Int) -> Window {
            let lanes = DecoderModel.lanes
            return Window(
                cost1: costs(at: base - lanes), cost2: costs(at: base - 2 * lanes), cost3: costs(at: base - 3 * lanes),
                start1: starts(at: base - lanes), start2: starts(at: base - 2 * lanes),
                start3: starts(at: base - 3 * lanes))
        }

        @inline(__always) private func costs(at cell: Int) -> Vector {
            UnsafeRawPointer(previous + cell).loadUnaligned(as: Vector.self)
        }

        @inline(__always) private func starts(at cell: Int) -> Starts {
            UnsafeRawPointer(previousStart + cell).loadUnaligned(as: Starts.self)
        }

        /// Updates the row at `cell`, moves the window on by one row, and returns the row's costs.
        @inline(__always) func update(cell: Int, window: inout Window, entering: Bool) -> Vector {
            let here = costs(at: cell), hereStart = starts(at: cell)
            var p = here + stay
            var s = hereStart
            var better = window.cost1 .< p
            p.replace(with: window.cost1, where: better)
            s.replace(with: window.start1, where: better)
            better = window.cost2 .< p
            p.replace(with: window.cost2, where: better)
            s.replace(with: window.start2, where: better)
            if skip3 {
                better = window.cost3 .< p
                p.replace(with: window.cost3, where: better)
                s.replace(with: window.start3, where: better)
            }
            if entering {
                let enter = wordEntry .< p
                p.replace(with: wordEntry, where: enter)
                s.replace(with: entryStart, where: enter)
            }
            window.cost3 = window.cost2
            window.cost2 = window.cost1
            window.cost1 = here
            window.start3 = window.start2
            window.start2 = window.start1
            window.start1 = hereStart
            let c = codes + cell
            let distance = Vector(
                table[Int(c[0])], table[Int(c[1])], table[Int(c[2])], table[Int(c[3])],
                table[Int(c[4])], table[Int(c[5])], table[Int(c[6])], table[Int(c[7])])
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
        // After the swap `previous` holds the last frame's costs, finite only up to each bundle's
        // reach. The cheapest cell, if cheaper than the frame's boundary, is a word in progress;
        // ties go to the earlier template, then to its earlier frame.
        let lanes = DecoderModel.lanes
        let bestCost = previous.withUnsafeBufferPointer { previous in
            var lowest = Vector(repeating: .infinity)
            for bundle in 0..<model.bundleCount where reachPrevious[bundle] >= 0 {
                let base = model.bundleStart[bundle]
                for row in 0...Int(reachPrevious[bundle]) {
                    let costs = UnsafeRawPointer(previous.baseAddress! + base + row * lanes).loadUnaligned(
                        as: Vector.self)
                    lowest.replace(with: costs, where: costs .< lowest)
                }
            }
            return lowest.min()
        }
        guard bestCost < boundaryCost[frameCount - 1] else { return trace(from: frameCount - 1) }
        var bestCell = -1, bestTemplate = Int.max
        for bundle in 0..<model.bundleCount where reachPrevious[bundle] >= 0 {
            let base = model.bundleStart[bundle]
            for row in 0...Int(reachPrevious[bundle]) {
                for lane in 0..<lanes where previous[base + row * lanes + lane] == bestCost {
                    let t = Int(model.laneEnds[bundle * lanes + lane].template)
                    if t < bestTemplate {
                        bestTemplate = t
                        bestCell = base + row * lanes + lane
                    }
                }
            }
        }
        let start = Int(previousStart[bestCell])
        let cost = (bestCost - boundary(before: start)) / Float(frameCount - start)
        return trace(from: start - 1)
            + [
                Word(
                    word: model.templateWord[bestTemplate], firstFrame: start, lastFrame: frameCount - 1,
                    costPerFrame: cost)
            ]
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
