import Foundation
import SpeechCore

/// The DSP engine's recogniser as a pure value: samples in, hypothesis updates out.
///
/// Front end → cepstral mean normalisation (a running mean over speech frames, starting from the
/// template set's prior) → deltas and delta-deltas (four frames of look-ahead) → voice activity →
/// one-pass DTW while speech lasts. Words become final at a speech end (after the hangover), on
/// ``finalize()``, or when a segment reaches ``Options/maximumSegmentSeconds``. The output depends only on
/// the samples and those calls, never on how the audio was chunked.
public struct TemplateRecognizer: Sendable {
    public struct Options: Sendable, Hashable {
        public var reportsPartials = true
        public var maximumAlternatives = 0
        /// Levels and thresholds of the voice-activity detector (its frame counts are set from the
        /// seconds below and the front end's hop).
        public var voiceActivity = VoiceActivityDetector.Configuration()
        /// Speech-like audio that starts speech, and non-speech audio that ends it.
        public var onsetSeconds = 0.03
        public var hangoverSeconds = 0.3
        /// Audio kept before a detected onset and decoded with the segment.
        public var preRollSeconds = 0.1
        /// Audio that opens with speech makes that speech the detector's first floor. Until a
        /// segment starts, this much of a stream's opening is kept; if the floor then falls by the
        /// detector's margin, the kept frames are judged again against it and decoded.
        public var openingSeconds = 0.5
        /// Frames of speech-like audio the prior cepstral mean counts for.
        public var priorWeightFrames = 100.0
        /// Longest segment decoded as one: bounds memory on endless speech.
        public var maximumSegmentSeconds = 30.0
        public init() {}
    }

    public let templates: TemplateSet
    public let sampleRate: Double
    public let options: Options
    private let preRollFrames: Int
    private let maximumSegmentFrames: Int
    private var extractor: FeatureExtractor
    private var vad: VoiceActivityDetector
    private var decoder: ConnectedWordDecoder
    private let lookAhead = 4

    // The current run of contiguous audio.
    private var runOrigin: MediaTime = .zero
    private var expectedNext: MediaTime?
    private var rawCount = 0
    /// Normalised static cepstra of the run from `windowStart`.
    private var statics: [[Float]] = []
    private var windowStart = 0
    private var measures: [VoiceActivityDetector.Measures] = []
    /// The next full frame to emit.
    private var emitted = 0

    // Normalisation.
    private var meanSum: [Double]
    private var meanCount = 0.0
    private var noise: [Float]?

    // Segmentation and decoding.
    private var recent: [(frame: Int, feature: [Float], speechLike: Bool)] = []
    /// The stream's opening frames, kept while they may be judged again (see ``Options/openingSeconds``).
    private var opening: [(frame: Int, feature: [Float], measures: VoiceActivityDetector.Measures)] = []
    private var openingFloor: Float?
    private var openingClosed = false
    private let openingFrames: Int
    private var segmentFirstFrame: Int?
    private var finalizedThrough: MediaTime = .zero
    private var consumedEnd: MediaTime = .zero

    /// `model` is the search layout of `templates`; pass a shared one to avoid rebuilding it per stream.
    public init(templates: TemplateSet, model: DecoderModel? = nil, sampleRate: Double, options: Options = Options()) {
        self.templates = templates
        self.sampleRate = sampleRate
        self.options = options
        extractor = FeatureExtractor(sampleRate: sampleRate, configuration: templates.frontEnd)
        let hop = templates.frontEnd.hopSeconds
        func frames(_ seconds: Double) -> Int { max(1, Int((seconds / hop).rounded())) }
        var voiceActivity = options.voiceActivity
        voiceActivity.onsetFrames = frames(options.onsetSeconds)
        voiceActivity.hangoverFrames = frames(options.hangoverSeconds)
        voiceActivity.floorRiseDB = options.voiceActivity.floorRiseDB * Float(hop / 0.01)
        vad = VoiceActivityDetector(configuration: voiceActivity)
        preRollFrames = frames(options.preRollSeconds)
        openingFrames = options.openingSeconds > 0 ? frames(options.openingSeconds) : 0
        openingClosed = openingFrames == 0
        maximumSegmentFrames = frames(options.maximumSegmentSeconds)
        decoder = ConnectedWordDecoder(model: model ?? DecoderModel(templates: templates))
        meanSum = templates.cepstralMean.map { Double($0) * options.priorWeightFrames }
        meanCount = options.priorWeightFrames
    }

    /// Whether a speech segment is being decoded.
    public var isInSpeech: Bool { segmentFirstFrame != nil }

    /// Audio `samples` (mono, ±1) starting at `start`. A gap since the previous audio ends the
    /// segment in progress (its words become final) and starts a new run.
    public mutating func accept(_ samples: [Float], at start: MediaTime) -> HypothesisUpdate {
        var update = HypothesisUpdate()
        if let expected = expectedNext, start != expected {
            flush(into: &update)
            extractor.reset()
            vad.resetSpeechState()
            rawCount = 0
            statics = []
            measures = []
            windowStart = 0
            emitted = 0
            recent = []
            expectedNext = nil
        }
        if expectedNext == nil {
            runOrigin = start
            if finalizedThrough < start { finalizedThrough = start }
        }
        let end = start + MediaTime(sampleIndex: Int64(samples.count), sampleRate: sampleRate)
        expectedNext = end
        consumedEnd = end
        for frame in extractor.process(samples) { addRaw(frame) }
        while emitted + lookAhead < rawCount { emitFull(into: &update) }
        if segmentFirstFrame == nil {
            // Nothing can be recognised before the oldest frame a future onset may reach back to.
            let safe = opening.first?.frame ?? max(0, emitted - preRollFrames - vad.configuration.onsetFrames)
            advanceFinalized(to: time(ofFrame: safe), into: &update)
        } else if options.reportsPartials {
            update.volatile = segment(decoder.partialPath(), alternatives: false)
        }
        return update
    }

    /// Makes everything heard so far final: decodes the remaining frames and commits the words.
    public mutating func finalize() -> HypothesisUpdate {
        var update = HypothesisUpdate()
        flush(into: &update)
        vad.resetSpeechState()
        advanceFinalized(to: consumedEnd, into: &update)
        return update
    }

    /// Drops the segment in progress: nothing heard so far will be reported.
    public mutating func cancel() -> HypothesisUpdate {
        closeOpening()
        segmentFirstFrame = nil
        decoder.reset()
        vad.resetSpeechState()
        var update = HypothesisUpdate()
        update.volatile = nil
        advanceFinalized(to: consumedEnd, into: &update)
        return update
    }

    // MARK: Pipeline

    private mutating func addRaw(_ frame: RawFrame) {
        let c = templates.frontEnd.cepstra
        let frameMeasures = VoiceActivityDetector.Measures(frame)
        // Before the detector has judged a frame, its floors are the quietest frame so far (the
        // look-ahead included), so the cepstral mean counts speech from the first frame.
        if vad.floorDB == nil || openingFloor == nil && !openingClosed {
            vad.primeFloor(frameMeasures)
        }
        if vad.isLoud(frameMeasures) {
            for k in 0..<c { meanSum[k] += Double(frame.cepstra[k]) }
            meanCount += 1
        }
        var normalised = [Float](repeating: 0, count: c)
        for k in 0..<c { normalised[k] = frame.cepstra[k] - Float(meanSum[k] / meanCount) }
        statics.append(normalised)
        measures.append(frameMeasures)
        rawCount += 1
    }

    private func staticFrame(_ index: Int) -> [Float] {
        statics[min(max(index, 0), rawCount - 1) - windowStart]
    }

    /// Emits full frame `emitted`, scaled by the template set's divisors.
    private mutating func emitFull(into update: inout HypothesisUpdate) {
        let t = emitted
        var feature = Deltas.frame(at: t, cepstra: templates.frontEnd.cepstra) { staticFrame($0) }
        for k in feature.indices { feature[k] /= templates.scale[k] }
        let frameMeasures = measures[t - windowStart]
        emitted += 1
        // Drop what no later frame needs.
        let keepFrom = emitted - lookAhead
        if keepFrom > windowStart + 64 {
            statics.removeFirst(keepFrom - windowStart)
            measures.removeFirst(keepFrom - windowStart)
            windowStart = keepFrom
        }
        process(feature, frame: t, measures: frameMeasures, into: &update)
    }

    private mutating func process(
        _ feature: [Float], frame: Int, measures: VoiceActivityDetector.Measures, into update: inout HypothesisUpdate
    ) {
        if !openingClosed {
            if openingFloor == nil { openingFloor = vad.floorDB }
            opening.append((frame, feature, measures))
        }
        defer { if !openingClosed { reviewOpening(into: &update) } }
        let event = vad.feed(measures, frame: frame)
        if !vad.lastFrameSpeechLike {
            if var n = noise {
                for k in n.indices { n[k] = 0.95 * n[k] + 0.05 * feature[k] }
                noise = n
            } else {
                noise = feature
            }
        }
        let noiseNow = noise ?? feature
        if segmentFirstFrame == nil {
            recent.append((frame, feature, vad.lastFrameSpeechLike))
            if recent.count > preRollFrames + vad.configuration.onsetFrames + 1 { recent.removeFirst() }
            if case .started(let onset) = event {
                let first = max(onset - preRollFrames, recent.first?.frame ?? onset)
                segmentFirstFrame = first
                decoder.reset()
                for (f, x, speechLike) in recent where f >= first {
                    decoder.step(x, noise: noiseNow, speechLike: speechLike)
                }
                recent = []
            }
            return
        }
        decoder.step(feature, noise: noiseNow, speechLike: vad.lastFrameSpeechLike)
        if case .ended = event {
            commit(into: &update)
        } else if decoder.frameCount >= maximumSegmentFrames {
            commit(into: &update)
            segmentFirstFrame = frame + 1
        }
    }

    /// After each opening frame: once a segment has started or the window is full, the opening is
    /// over; if instead the floor has fallen well below where it began, the opening was speech
    /// taken for noise, and its frames are judged again (nothing of them has been shown yet).
    private mutating func reviewOpening(into update: inout HypothesisUpdate) {
        if segmentFirstFrame != nil || opening.count >= openingFrames {
            closeOpening()
        } else if let first = openingFloor, let floor = vad.floorDB, floor <= first - vad.configuration.marginDB {
            let held = opening
            closeOpening()
            vad.resetSpeechState()
            recent = []
            // The quietest opening frame is the first noise estimate: the frames averaged so far were speech.
            let quietest = held.indices.min { (held[$0].measures.energyDB, $0) < (held[$1].measures.energyDB, $1) }!
            noise = held[quietest].feature
            for item in held { process(item.feature, frame: item.frame, measures: item.measures, into: &update) }
        }
    }

    private mutating func closeOpening() {
        openingClosed = true
        opening = []
    }

    /// Decodes the look-ahead frames (edges replicated) and commits the segment in progress.
    private mutating func flush(into update: inout HypothesisUpdate) {
        while emitted < rawCount { emitFull(into: &update) }
        closeOpening()
        if segmentFirstFrame != nil { commit(into: &update) }
    }

    private mutating func commit(into update: inout HypothesisUpdate) {
        guard let first = segmentFirstFrame else { return }
        let path = decoder.bestPath()
        let endFrame = first + decoder.frameCount
        if var result = segment(path, alternatives: true) {
            result.range = TimeRange(
                start: MediaTime.maximum(finalizedThrough, result.range.start), end: time(ofFrame: endFrame))
            update.finalized.append(result)
        }
        segmentFirstFrame = nil
        decoder.reset()
        update.volatile = nil
        advanceFinalized(to: time(ofFrame: endFrame), into: &update)
    }

    private mutating func advanceFinalized(to time: MediaTime, into update: inout HypothesisUpdate) {
        let target = MediaTime.minimum(time, consumedEnd)
        if target > finalizedThrough {
            finalizedThrough = target
            update.finalizedThrough = target
        }
    }

    // MARK: Words and times

    /// Start of decoder frame `frame` of the current run (frames are `hop` apart).
    private func time(ofFrame frame: Int) -> MediaTime {
        runOrigin + MediaTime(sampleIndex: Int64(frame * extractor.hop), sampleRate: sampleRate)
    }

    /// Decoder-relative words as a segment with times, confidences and alternatives.
    private func segment(_ path: [ConnectedWordDecoder.Word], alternatives: Bool) -> HypothesisSegment? {
        guard let first = segmentFirstFrame, !path.isEmpty else { return nil }
        let centreOffset = (extractor.frameLength - extractor.hop) / 2
        var words: [RecognizedWord] = []
        var swaps: [(position: Int, word: Int, margin: Float)] = []
        for (position, word) in path.enumerated() {
            let competitors = decoder.competitors(of: word)
            let margin = competitors.first?.margin ?? .infinity
            let confidence =
                margin.isFinite ? Double(1 / (1 + _exp(-margin / templates.parameters.confidenceScale))) : 1
            let startSample = (first + word.firstFrame) * extractor.hop + centreOffset
            let endSample = (first + word.lastFrame + 1) * extractor.hop + centreOffset
            let start = runOrigin + MediaTime(sampleIndex: Int64(startSample), sampleRate: sampleRate)
            let end = runOrigin + MediaTime(sampleIndex: Int64(endSample), sampleRate: sampleRate)
            words += Self.split(templates.vocabulary[word.word], from: start, to: end, confidence: confidence)
            if alternatives {
                swaps += competitors.prefix(options.maximumAlternatives).map { (position, $0.word, $0.margin) }
            }
        }
        let best = path.map(\.word)
        let others: [[String]] = swaps.sorted { ($0.margin, $0.position, $0.word) < ($1.margin, $1.position, $1.word) }
            .prefix(options.maximumAlternatives)
            .map { swap in
                var words = best
                words[swap.position] = swap.word
                return words.flatMap { templates.vocabulary[$0].split(separator: " ").map(String.init) }
            }
        let range = TimeRange(start: time(ofFrame: first), end: consumedEnd)
        return HypothesisSegment(range: range, words: words, alternatives: others)
    }

    /// A vocabulary entry as words; a phrase shares its span in proportion to the words' lengths.
    static func split(_ entry: String, from start: MediaTime, to end: MediaTime, confidence: Double) -> [RecognizedWord]
    {
        let parts = entry.split(separator: " ").map(String.init)
        guard parts.count > 1 else {
            return [RecognizedWord(text: entry, range: TimeRange(start: start, end: end), confidence: confidence)]
        }
        let total = Double(parts.reduce(0) { $0 + $1.count })
        let span = (end - start).seconds
        var used = 0.0
        var cursor = start
        return parts.enumerated().map { index, part in
            used += Double(part.count)
            let next =
                index == parts.count - 1
                ? end : start + MediaTime(seconds: span * used / total, preferredTimescale: 1_000_000)
            defer { cursor = next }
            return RecognizedWord(text: part, range: TimeRange(start: cursor, end: next), confidence: confidence)
        }
    }
}

@inline(__always) private func _exp(_ x: Float) -> Float { Float(Foundation.exp(Double(x))) }
