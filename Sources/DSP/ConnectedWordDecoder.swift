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

    typealias Vector = SIMD8<Float>

    public let vocabularySize: Int
    public let parameters: DecoderParameters
    let lanes: Int
    /// Template frames, `lanes` vectors each.
    private let frames: [Vector]
    private let templateStart: [Int]
    private let templateLength: [Int]
    private let templateWord: [Int]
    private let cellCount: Int
    /// With a codebook: packed centroids and each cell's code; distances are looked up.
    private let centroids: [Vector]
    private let cellCodes: [UInt16]
    private var centroidDistance: [Float]
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
    /// Per frame: the best boundary (end of a word or of silence) and how it was reached.
    private var boundaryCost: [Float] = []
    private var boundaryWord: [Int32] = []
    private var boundaryStart: [Int32] = []
    /// Per frame and word: the best cost of that word ending there, and its start frame.
    private var wordEndCost: [Float] = []
    private var wordEndStart: [Int32] = []
    public private(set) var frameCount = 0
    /// Cells whose distance was computed (for profiling the beam).
    public private(set) var cellsEvaluated = 0

    public init(templates: TemplateSet) {
        let dimension = templates.frontEnd.dimension
        lanes = (dimension + 7) / 8
        vocabularySize = templates.vocabulary.count
        parameters = templates.parameters
        var frames: [Vector] = []
        var starts: [Int] = [], lengths: [Int] = [], words: [Int] = []
        for template in templates.templates {
            let count = template.frames.count / dimension
            starts.append(frames.count / lanes)
            lengths.append(count)
            words.append(template.word)
            frames += VectorQuantizer.pack(template.frames, dimension: dimension, lanes: lanes)
        }
        self.frames = frames
        templateStart = starts
        templateLength = lengths
        templateWord = words
        cellCount = frames.count / lanes
        if templates.codebookSize > 0 && templates.codes.count == templates.templates.count {
            centroids = VectorQuantizer.pack(templates.codebook, dimension: dimension, lanes: lanes)
            cellCodes = templates.codes.flatMap { $0 }
        } else {
            centroids = []
            cellCodes = []
        }
        centroidDistance = [Float](repeating: 0, count: centroids.count / lanes)
        reachPrevious = [Int32](repeating: -1, count: starts.count)
        reachCurrent = reachPrevious
        previous = [Float](repeating: .infinity, count: cellCount)
        current = previous
        previousStart = [Int32](repeating: 0, count: cellCount)
        currentStart = previousStart
    }

    /// Starts a new utterance (forgets all hypotheses).
    public mutating func reset() {
        for i in 0..<cellCount { previous[i] = .infinity; current[i] = .infinity }
        for t in reachPrevious.indices { reachPrevious[t] = -1; reachCurrent[t] = -1 }
        silenceCost = .infinity
        bestPrevious = 0
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
        let x = VectorQuantizer.pack(feature, dimension: feature.count, lanes: lanes)
        let f = frameCount
        let entry: Float = f == 0 ? 0 : boundaryCost[f - 1]
        let wordEntry = entry + parameters.wordPenalty
        let limit = bestPrevious + parameters.beam
        let stay = parameters.stayPenalty
        let skip3 = parameters.maximumAdvance >= 3
        let entryStart = Int32(f)
        var best = Float.infinity
        var evaluated = 0
        let wordBase = wordEndCost.count
        wordEndCost.append(contentsOf: repeatElement(Float.infinity, count: vocabularySize))
        wordEndStart.append(contentsOf: repeatElement(Int32(0), count: vocabularySize))
        let lanes = self.lanes
        let quantised = !cellCodes.isEmpty
        if quantised {
            centroids.withUnsafeBufferPointer { centroids in
                for c in 0..<centroidDistance.count {
                    var acc = Vector.zero
                    for l in 0..<lanes {
                        let d = x[l] - centroids[c * lanes + l]
                        acc += d * d
                    }
                    centroidDistance[c] = acc.sum().squareRoot()
                }
            }
        }
        centroidDistance.withUnsafeBufferPointer { lookup in
        cellCodes.withUnsafeBufferPointer { codes in
        frames.withUnsafeBufferPointer { templateFrames in
        x.withUnsafeBufferPointer { input in
        previous.withUnsafeBufferPointer { previous in
        previousStart.withUnsafeBufferPointer { previousStart in
        current.withUnsafeMutableBufferPointer { current in
        currentStart.withUnsafeMutableBufferPointer { currentStart in
        wordEndCost.withUnsafeMutableBufferPointer { ends in
        wordEndStart.withUnsafeMutableBufferPointer { endStarts in
        reachPrevious.withUnsafeBufferPointer { reachPrevious in
        reachCurrent.withUnsafeMutableBufferPointer { reachCurrent in
            let advance = skip3 ? 3 : 2
            for t in 0..<templateStart.count {
                let base = templateStart[t], length = templateLength[t]
                // Cells 0 and 1 can always be entered; the rest only from finite cells behind them.
                let bound = min(length - 1, max(1, Int(reachPrevious[t]) + advance))
                // The buffer being written still holds the frame before last: clear what lay past the bound.
                if Int(reachCurrent[t]) > bound {
                    for cell in (base + bound + 1)...(base + Int(reachCurrent[t])) { current[cell] = .infinity }
                }
                var reach: Int32 = -1
                for j in 0...bound {
                    let cell = base + j
                    var p = previous[cell] + stay, s = previousStart[cell]
                    if j >= 1, previous[cell - 1] < p { p = previous[cell - 1]; s = previousStart[cell - 1] }
                    if j >= 2, previous[cell - 2] < p { p = previous[cell - 2]; s = previousStart[cell - 2] }
                    if skip3, j >= 3, previous[cell - 3] < p { p = previous[cell - 3]; s = previousStart[cell - 3] }
                    if j <= 1, wordEntry < p { p = wordEntry; s = entryStart }
                    guard p <= limit else {
                        current[cell] = .infinity
                        continue
                    }
                    let distance: Float
                    if quantised {
                        distance = lookup[Int(codes[cell])]
                    } else {
                        var acc = Vector.zero
                        let row = cell * lanes
                        for l in 0..<lanes {
                            let d = input[l] - templateFrames[row + l]
                            acc += d * d
                        }
                        distance = acc.sum().squareRoot()
                    }
                    let c = p + distance
                    current[cell] = c
                    currentStart[cell] = s
                    if c < best { best = c }
                    reach = Int32(j)
                    evaluated += 1
                }
                reachCurrent[t] = reach
                let last = base + length - 1
                let w = wordBase + templateWord[t]
                if current[last] < ends[w] { ends[w] = current[last]; endStarts[w] = currentStart[last] }
            }
        }}}}}}}}}}}}
        cellsEvaluated += evaluated
        // Silence: stay, or enter from the previous boundary.
        var sp = silenceCost, ss = silenceStart
        if entry < sp { sp = entry; ss = entryStart }
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
        swap(&previous, &current)
        swap(&previousStart, &currentStart)
        swap(&reachPrevious, &reachCurrent)
        frameCount += 1
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
        // `previous` holds the last frame's costs after the swap.
        var bestCell = -1
        var bestCost = boundaryCost[frameCount - 1]
        for cell in 0..<cellCount where previous[cell] < bestCost {
            bestCost = previous[cell]
            bestCell = cell
        }
        guard bestCell >= 0, let t = templateStart.lastIndex(where: { $0 <= bestCell }) else { return words }
        let start = Int(previousStart[bestCell])
        words = trace(from: start - 1)
        let cost = (bestCost - boundary(before: start)) / Float(frameCount - start)
        words.append(Word(word: templateWord[t], firstFrame: start, lastFrame: frameCount - 1, costPerFrame: cost))
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
