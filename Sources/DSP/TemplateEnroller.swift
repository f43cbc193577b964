import Foundation

/// Builds a ``TemplateSet`` from isolated exemplars of each vocabulary entry.
///
/// Each exemplar is trimmed to its speech (frames within 35 dB of its loudest) and normalised by
/// its group's cepstral mean — a group is one speaker at one rate, whose mean over all its words
/// stands in for the long-run mean the recogniser converges to. The prior mean is the mean over
/// all groups; the scale is each dimension's standard deviation over all template frames.
public enum TemplateEnroller {
    public struct Exemplar: Sendable {
        public var samples: [Float]
        public var sampleRate: Double
        /// The vocabulary entry said (one word or a phrase).
        public var text: String
        /// Its task (`digits`, `commands`): engines restrict their vocabulary by task.
        public var task: String
        /// Speaker (and rate) the exemplar shares its normalisation with.
        public var group: String
        /// Where it came from (an utterance id).
        public var source: String

        public init(samples: [Float], sampleRate: Double, text: String, task: String, group: String, source: String) {
            self.samples = samples
            self.sampleRate = sampleRate
            self.text = text
            self.task = task
            self.group = group
            self.source = source
        }
    }

    public enum EnrollmentError: Error, CustomStringConvertible, Sendable, Equatable {
        case noExemplars(locale: String)
        case noSpeech(source: String)
        case tooShort(source: String, frames: Int)

        public var description: String {
            switch self {
            case .noExemplars(let locale): return "no enrollment exemplars for \(locale)"
            case .noSpeech(let source): return "\(source): no speech found (silent or empty audio)"
            case .tooShort(let source, let frames):
                return "\(source): only \(frames) frames of speech; at least 5 are needed"
            }
        }
    }

    /// Templates for `locale`; `vocabulary` fixes the word order (entries without exemplars are
    /// dropped). Exemplars that fail are reported through `skip` and left out.
    public static func enroll(
        _ exemplars: [Exemplar], locale: String, vocabulary: [String],
        frontEnd: FrontEndConfiguration = FrontEndConfiguration(),
        parameters: DecoderParameters = DecoderParameters(),
        warps: [Double] = [1.0],
        templatesPerWord: Int? = nil,
        codebookSize: Int = 0,
        skip: (EnrollmentError) -> Void = { _ in }
    ) throws -> TemplateSet {
        let c = frontEnd.cepstra
        // Raw frames and speech spans.
        var prepared: [(exemplar: Exemplar, frames: [RawFrame], span: ClosedRange<Int>)] = []
        // The voices enrolled (their groups before a warp is added to them).
        var speakers: Set<String> = []
        for original in exemplars where vocabulary.contains(original.text) {
            for warp in warps {
                var configuration = frontEnd
                configuration.warp = warp
                var exemplar = original
                if warps.count > 1 {
                    exemplar.group += "@\(warp)"
                    exemplar.source += "@\(warp)"
                }
                var extractor = FeatureExtractor(sampleRate: exemplar.sampleRate, configuration: configuration)
                let frames = extractor.process(exemplar.samples)
                guard let span = speechSpan(frames) else {
                    skip(.noSpeech(source: exemplar.source))
                    break
                }
                guard span.count >= 5 else {
                    skip(.tooShort(source: exemplar.source, frames: span.count))
                    break
                }
                prepared.append((exemplar, frames, span))
                speakers.insert(original.group)
            }
        }
        guard !prepared.isEmpty else { throw EnrollmentError.noExemplars(locale: locale) }
        // Group means over speech frames.
        var sums: [String: ([Double], Int)] = [:]
        for item in prepared {
            var entry = sums[item.exemplar.group] ?? ([Double](repeating: 0, count: c), 0)
            for f in item.span {
                for k in 0..<c { entry.0[k] += Double(item.frames[f].cepstra[k]) }
            }
            entry.1 += item.span.count
            sums[item.exemplar.group] = entry
        }
        let groupMeans = sums.mapValues { sum, count in sum.map { Float($0 / Double(count)) } }
        let groups = groupMeans.keys.sorted()
        let prior = (0..<c).map { k in groups.reduce(Float(0)) { $0 + groupMeans[$1]![k] } / Float(groups.count) }
        // Normalised full frames of each speech span.
        let words = vocabulary.filter { word in prepared.contains { $0.exemplar.text == word } }
        let index = Dictionary(uniqueKeysWithValues: words.enumerated().map { ($1, $0) })
        var templates: [TemplateSet.Template] = []
        for item in prepared {
            let mean = groupMeans[item.exemplar.group]!
            let statics = item.frames.map { frame in (0..<c).map { frame.cepstra[$0] - mean[$0] } }
            var values: [Float] = []
            for t in item.span {
                values += Deltas.frame(at: t, cepstra: c) { statics[min(max($0, 0), statics.count - 1)] }
            }
            templates.append(.init(word: index[item.exemplar.text]!, frames: values, source: item.exemplar.source))
        }
        // Scale: standard deviation per dimension over every template frame.
        let dimension = frontEnd.dimension
        var sum = [Double](repeating: 0, count: dimension), square = sum
        var count = 0.0
        for template in templates {
            for (i, v) in template.frames.enumerated() {
                sum[i % dimension] += Double(v)
                square[i % dimension] += Double(v) * Double(v)
            }
            count += Double(template.frames.count / dimension)
        }
        let scale = (0..<dimension).map { k -> Float in
            let mean = sum[k] / count
            return Float(max(sqrt(max(square[k] / count - mean * mean, 0)), 1e-3))
        }
        for i in templates.indices {
            for j in templates[i].frames.indices { templates[i].frames[j] /= scale[j % dimension] }
        }
        if let k = templatesPerWord {
            templates = words.indices.flatMap { w in
                select(k, from: templates.filter { $0.word == w }, dimension: dimension)
            }
        }
        templates.sort { ($0.word, $0.source) < ($1.word, $1.source) }
        let tasks = words.map { word in prepared.first { $0.exemplar.text == word }!.exemplar.task }
        var set = TemplateSet(
            locale: locale, frontEnd: frontEnd, vocabulary: words, tasks: tasks, cepstralMean: prior, scale: scale,
            parameters: parameters, templates: templates)
        set.speakers = speakers.sorted()
        let allFrames = templates.flatMap(\.frames)
        if codebookSize > 0 && allFrames.count / dimension > codebookSize {
            set.codebook = VectorQuantizer.train(allFrames, dimension: dimension, size: codebookSize)
            set.codes = templates.map {
                VectorQuantizer.assign($0.frames, dimension: dimension, centroids: set.codebook)
            }
        }
        return set
    }

    /// The `k` templates that best stand for all of them: greedy k-medoids on DTW distance (each
    /// pick most lowers the summed distance from every template to its nearest pick).
    static func select(_ k: Int, from candidates: [TemplateSet.Template], dimension: Int) -> [TemplateSet.Template] {
        guard candidates.count > k else { return candidates }
        let sorted = candidates.sorted { $0.source < $1.source }
        let n = sorted.count
        var distance = [[Float]](repeating: [Float](repeating: 0, count: n), count: n)
        for i in 0..<n {
            for j in i + 1..<n {
                let d = dtwDistance(sorted[i].frames, sorted[j].frames, dimension: dimension)
                distance[i][j] = d
                distance[j][i] = d
            }
        }
        var nearest = [Float](repeating: .infinity, count: n)
        var chosen: [Int] = []
        for _ in 0..<k {
            var bestIndex = -1
            var bestTotal = Float.infinity
            for candidate in 0..<n where !chosen.contains(candidate) {
                var total: Float = 0
                for i in 0..<n { total += min(nearest[i], distance[i][candidate]) }
                if total < bestTotal {
                    bestTotal = total
                    bestIndex = candidate
                }
            }
            chosen.append(bestIndex)
            for i in 0..<n { nearest[i] = min(nearest[i], distance[i][bestIndex]) }
        }
        return chosen.sorted().map { sorted[$0] }
    }

    /// Symmetric DTW distance between two frame sequences, per step of the path.
    static func dtwDistance(_ a: [Float], _ b: [Float], dimension: Int) -> Float {
        let n = a.count / dimension, m = b.count / dimension
        var previous = [Float](repeating: .infinity, count: m + 1), current = previous
        previous[0] = 0
        for i in 1...n {
            current[0] = .infinity
            for j in 1...m {
                var d: Float = 0
                for k in 0..<dimension {
                    let x = a[(i - 1) * dimension + k] - b[(j - 1) * dimension + k]
                    d += x * x
                }
                current[j] = d.squareRoot() + min(previous[j], current[j - 1], previous[j - 1])
            }
            swap(&previous, &current)
        }
        return previous[m] / Float(n + m)
    }

    /// First to last frame within 35 dB of the loudest (and above −55 dBFS).
    static func speechSpan(_ frames: [RawFrame]) -> ClosedRange<Int>? {
        guard let loudest = frames.map(\.energyDB).max() else { return nil }
        let threshold = max(loudest - 35, -55)
        guard loudest > -55, let first = frames.firstIndex(where: { $0.energyDB >= threshold }),
            let last = frames.lastIndex(where: { $0.energyDB >= threshold })
        else { return nil }
        return first...last
    }
}
