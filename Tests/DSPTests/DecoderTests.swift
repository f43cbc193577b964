import Testing

@testable import DSP

@Suite("One-pass DTW")
struct DecoderTests {
    static let dimension = FrontEndConfiguration().dimension

    /// A frame that is `value` on dimension `axis` and 0 elsewhere.
    static func frame(_ axis: Int, _ value: Float = 4) -> [Float] {
        var f = [Float](repeating: 0, count: dimension)
        f[axis] = value
        return f
    }

    static func set(_ words: [(String, [[Float]])]) -> TemplateSet {
        var parameters = DecoderParameters()
        parameters.beam = 1_000
        return TemplateSet(
            locale: "en-US", frontEnd: FrontEndConfiguration(), vocabulary: words.map(\.0),
            tasks: words.map { _ in "digits" },
            cepstralMean: [Float](repeating: 0, count: 13), scale: [Float](repeating: 1, count: dimension),
            parameters: parameters,
            templates: words.enumerated().map { .init(word: $0, frames: $1.1.flatMap { $0 }, source: $1.0) })
    }

    /// Two words, each a ramp over its own axes; silence is the zero vector.
    static let words: [(String, [[Float]])] = [
        ("up", (0..<6).map { frame($0 % 3) }),
        ("down", (0..<6).map { frame(3 + $0 % 3) }),
    ]

    @Test func theBestPathFollowsTheConstructedWords() {
        var decoder = ConnectedWordDecoder(templates: Self.set(Self.words))
        let silence = [Float](repeating: 0, count: Self.dimension)
        // 3 silent frames, "up" stretched to 9 frames, 4 silent, "down" compressed to 4 frames (advance by 2… ), 2 silent.
        var input: [[Float]] = Array(repeating: silence, count: 3)
        input += (0..<9).map { Self.frame(($0 * 6 / 9) % 3) }
        input += Array(repeating: silence, count: 4)
        input += [0, 2, 3, 5].map { Self.frame(3 + $0 % 3) }
        input += Array(repeating: silence, count: 2)
        for x in input { decoder.step(x, noise: silence) }
        let path = decoder.bestPath()
        #expect(path.map(\.word) == [0, 1])
        #expect(path.map(\.firstFrame) == [3, 16])
        #expect(path.map(\.lastFrame) == [11, 19])
        // An exact match costs nothing per frame.
        #expect(path.allSatisfy { $0.costPerFrame < 1e-5 })
    }

    @Test func aWordFasterThanThreeTimesItsTemplateCannotMatchIt() {
        var decoder = ConnectedWordDecoder(templates: Self.set([("long", (0..<12).map { Self.frame($0 % 4) })]))
        let silence = [Float](repeating: 0, count: Self.dimension)
        for x in [silence, Self.frame(0), Self.frame(3), silence] { decoder.step(x, noise: silence) }
        #expect(decoder.bestPath().isEmpty)
    }

    @Test func competitorsRankTheOtherWordsByMargin() {
        var decoder = ConnectedWordDecoder(
            templates: Self.set(Self.words + [("near", (0..<6).map { Self.frame($0 % 3, 3) })]))
        let silence = [Float](repeating: 0, count: Self.dimension)
        for x in (0..<6).map({ Self.frame($0 % 3) }) + [silence] { decoder.step(x, noise: silence) }
        let path = decoder.bestPath()
        #expect(path.map(\.word) == [0])
        let competitors = decoder.competitors(of: path[0])
        #expect(competitors.map(\.word) == [2, 1])
        #expect(competitors[0].margin > 0 && competitors[0].margin < competitors[1].margin)
    }

    @Test func theAdaptiveBeamNarrowsOnlyWhenManyCellsSurvive() {
        let words = Self.words + [("near", (0..<6).map { Self.frame($0 % 3, 3) })]
        let silence = [Float](repeating: 0, count: Self.dimension)
        func decode(target: Int, minimumBeam: Float) -> (path: [ConnectedWordDecoder.Word], competitors: [Int]) {
            var set = Self.set(words)
            set.parameters.beam = 10
            set.parameters.wordPenalty = 0
            set.parameters.activeTarget = target
            set.parameters.minimumBeam = minimumBeam
            var decoder = ConnectedWordDecoder(templates: set)
            for x in (0..<6).map({ Self.frame($0 % 3) }) + [silence] { decoder.step(x, noise: silence) }
            let path = decoder.bestPath()
            return (path, path.first.map { decoder.competitors(of: $0).map(\.word) } ?? [])
        }
        let fixed = decode(target: 0, minimumBeam: 0.5)
        // Under the target the beam stays as it is.
        #expect(decode(target: 1_000_000, minimumBeam: 0.5).path == fixed.path)
        #expect(decode(target: 1_000_000, minimumBeam: 0.5).competitors == fixed.competitors)
        // Over it, a close competitor ("near", one unit per frame behind) falls outside the narrowed beam.
        let narrowed = decode(target: 1, minimumBeam: 0.5)
        #expect(narrowed.path.map(\.word) == [0])
        #expect(fixed.competitors.contains(2) && !narrowed.competitors.contains(2))
    }

    @Test func partialsIncludeTheWordInProgress() {
        var decoder = ConnectedWordDecoder(templates: Self.set(Self.words))
        let silence = [Float](repeating: 0, count: Self.dimension)
        for x in [silence] + (0..<6).map({ Self.frame($0 % 3) }) + (0..<3).map({ Self.frame(3 + $0 % 3) }) {
            decoder.step(x, noise: silence)
        }
        #expect(decoder.partialPath().map(\.word) == [0, 1])
    }

    /// The bundled SIMD search against a plain scalar one-pass DTW written from the documented
    /// rules, on integer-valued frames (so distances are exact whatever the summation order):
    /// every best path and every partial path must agree to the bit.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theSearchEqualsAPlainOnePassDTW(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        let dimension = Self.dimension
        func randomFrame() -> [Float] { (0..<dimension).map { $0 < 6 ? Float(Int(rng.next() % 5) - 2) : 0 } }
        // 23 templates over five words, 2…20 frames long: bundles of eight with a partial last one.
        let words = ["a", "b", "c", "d", "e"]
        var templates: [(word: Int, frames: [[Float]])] = []
        for n in 0..<23 { templates.append((n % 5, (0..<(2 + Int(rng.next() % 19))).map { _ in randomFrame() })) }
        var parameters = DecoderParameters()
        parameters.beam = 1e9
        parameters.activeTarget = 0
        parameters.wordPenalty = 3
        parameters.stayPenalty = 0.5
        let set = TemplateSet(
            locale: "en-US", frontEnd: FrontEndConfiguration(), vocabulary: words, tasks: words.map { _ in "digits" },
            cepstralMean: [Float](repeating: 0, count: 13), scale: [Float](repeating: 1, count: dimension),
            parameters: parameters,
            templates: templates.enumerated().map {
                .init(word: $1.word, frames: $1.frames.flatMap { $0 }, source: "t\($0)")
            })
        var decoder = ConnectedWordDecoder(templates: set)
        var reference = PlainOnePassDTW(templates: templates, vocabularySize: words.count, parameters: parameters)
        let noise = [Float](repeating: 0, count: dimension)
        for f in 0..<80 {
            // Mostly pieces of templates, some silence, some noise.
            let x: [Float]
            switch rng.next() % 4 {
            case 0: x = noise
            case 1: x = randomFrame()
            default:
                let t = templates[Int(rng.next() % UInt64(templates.count))].frames
                x = t[Int(rng.next() % UInt64(t.count))]
            }
            let speechLike = f % 3 == 0
            decoder.step(x, noise: noise, speechLike: speechLike)
            reference.step(x, noise: noise, speechLike: speechLike)
            if f % 7 == 0 { #expect(decoder.partialPath() == reference.partialPath(), "partial path at frame \(f)") }
        }
        #expect(decoder.bestPath() == reference.bestPath())
        #expect(!decoder.bestPath().isEmpty)
    }
}

/// A deterministic 64-bit generator for test data.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One-pass DTW cell by cell, as ``ConnectedWordDecoder`` documents it: stay (plus the stay
/// penalty) or advance one to three template frames, enter cells 0 and 1 from the previous frame's
/// best boundary plus the word penalty, ties to the earlier choice; a self-looping silence state.
struct PlainOnePassDTW {
    let templates: [(word: Int, frames: [[Float]])]
    let vocabularySize: Int
    let parameters: DecoderParameters
    var cost: [[Float]]
    var start: [[Int]]
    var silenceCost = Float.infinity, silenceStart = 0
    var boundaryCost: [Float] = [], boundaryWord: [Int] = [], boundaryStart: [Int] = []
    var frames = 0

    init(templates: [(word: Int, frames: [[Float]])], vocabularySize: Int, parameters: DecoderParameters) {
        self.templates = templates
        self.vocabularySize = vocabularySize
        self.parameters = parameters
        cost = templates.map { [Float](repeating: .infinity, count: $0.frames.count) }
        start = templates.map { [Int](repeating: 0, count: $0.frames.count) }
    }

    static func distance(_ a: [Float], _ b: [Float]) -> Float {
        var sum: Float = 0
        for k in a.indices { sum += (a[k] - b[k]) * (a[k] - b[k]) }
        return sum.squareRoot()
    }

    mutating func step(_ x: [Float], noise: [Float], speechLike: Bool) {
        let f = frames
        let entry: Float = f == 0 ? 0 : boundaryCost[f - 1]
        let wordEntry = entry + parameters.wordPenalty
        var ends = [Float](repeating: .infinity, count: vocabularySize),
            endStarts = [Int](repeating: 0, count: vocabularySize)
        var next = cost, nextStart = start
        for (t, template) in templates.enumerated() {
            for j in template.frames.indices {
                var p = cost[t][j] + parameters.stayPenalty, s = start[t][j]
                for back in 1...parameters.maximumAdvance where j - back >= 0 && cost[t][j - back] < p {
                    p = cost[t][j - back]
                    s = start[t][j - back]
                }
                if j < 2 && wordEntry < p {
                    p = wordEntry
                    s = f
                }
                next[t][j] = p + Self.distance(x, template.frames[j])
                nextStart[t][j] = s
            }
            let last = template.frames.count - 1
            if next[t][last] < ends[template.word] {
                ends[template.word] = next[t][last]
                endStarts[template.word] = nextStart[t][last]
            }
        }
        cost = next
        start = nextStart
        var sp = silenceCost, ss = silenceStart
        if entry < sp {
            sp = entry
            ss = f
        }
        var squares: Float = 0
        for k in x.indices { squares += (x[k] - noise[k]) * (x[k] - noise[k]) }
        silenceCost =
            sp + parameters.silenceWeight * squares.squareRoot() + (speechLike ? parameters.silenceSpeechPenalty : 0)
        silenceStart = ss
        var boundary = silenceCost, label = -1, from = ss
        for w in 0..<vocabularySize where ends[w] < boundary {
            boundary = ends[w]
            label = w
            from = endStarts[w]
        }
        boundaryCost.append(boundary)
        boundaryWord.append(label)
        boundaryStart.append(from)
        frames += 1
    }

    func trace(from last: Int) -> [ConnectedWordDecoder.Word] {
        var words: [ConnectedWordDecoder.Word] = []
        var i = last
        while i >= 0 {
            let from = boundaryStart[i]
            if boundaryWord[i] >= 0 {
                let before: Float = from <= 0 ? 0 : boundaryCost[from - 1]
                let perFrame = (boundaryCost[i] - before - parameters.wordPenalty) / Float(i - from + 1)
                words.append(.init(word: boundaryWord[i], firstFrame: from, lastFrame: i, costPerFrame: perFrame))
            }
            guard from <= i else { break }
            i = from - 1
        }
        return words.reversed()
    }

    func bestPath() -> [ConnectedWordDecoder.Word] { trace(from: frames - 1) }

    func partialPath() -> [ConnectedWordDecoder.Word] {
        var best = boundaryCost[frames - 1], bestTemplate = -1, bestFrame = -1
        for t in templates.indices {
            for j in cost[t].indices where cost[t][j] < best {
                best = cost[t][j]
                bestTemplate = t
                bestFrame = j
            }
        }
        guard bestTemplate >= 0 else { return bestPath() }
        let from = start[bestTemplate][bestFrame]
        let before: Float = from <= 0 ? 0 : boundaryCost[from - 1]
        return trace(from: from - 1) + [
            .init(
                word: templates[bestTemplate].word, firstFrame: from, lastFrame: frames - 1,
                costPerFrame: (best - before) / Float(frames - from))
        ]
    }
}

@Suite("Template files")
struct TemplateFileTests {
    @Test func aSetSurvivesEncoding() throws {
        var set = DecoderTests.set(DecoderTests.words)
        set.codebook = DecoderTests.words.flatMap { $0.1.flatMap { $0 } }
        set.codes = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]
        let decoded = try TemplateSet.decode(try set.encoded(), name: "t.shdt")
        #expect(decoded == set)
        #expect(decoded.restricted(toTask: "digits") == set)
        #expect(decoded.restricted(toTask: "commands").templates.isEmpty)
    }

    @Test func damagedFilesAreNamedErrors() throws {
        let bytes = try DecoderTests.set(DecoderTests.words).encoded()
        #expect(throws: TemplateSetError.malformed(file: "x.shdt", reason: "not a template file (no SHDT signature)")) {
            try TemplateSet.decode(Array("RIFF....".utf8) + bytes, name: "x.shdt")
        }
        #expect(throws: TemplateSetError.malformed(file: "x.shdt", reason: "template 1 is truncated")) {
            try TemplateSet.decode(Array(bytes.dropLast(8)), name: "x.shdt")
        }
        var newer = bytes
        newer[4] = 9
        #expect(throws: TemplateSetError.unsupportedVersion(file: "x.shdt", version: 9, supported: 2)) {
            try TemplateSet.decode(newer, name: "x.shdt")
        }
        #expect(throws: TemplateSetError.malformed(file: "x.shdt", reason: "4 bytes follow the last template")) {
            try TemplateSet.decode(bytes + [0, 0, 0, 0], name: "x.shdt")
        }
    }
}
