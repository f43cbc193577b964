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
        return TemplateSet(locale: "en-US", frontEnd: FrontEndConfiguration(), vocabulary: words.map(\.0), tasks: words.map { _ in "digits" },
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
        var decoder = ConnectedWordDecoder(templates: Self.set(Self.words + [("near", (0..<6).map { Self.frame($0 % 3, 3) })]))
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
        #expect(throws: TemplateSetError.unsupportedVersion(file: "x.shdt", version: 9, supported: 1)) {
            try TemplateSet.decode(newer, name: "x.shdt")
        }
        #expect(throws: TemplateSetError.malformed(file: "x.shdt", reason: "4 bytes follow the last template")) {
            try TemplateSet.decode(bytes + [0, 0, 0, 0], name: "x.shdt")
        }
    }
}
