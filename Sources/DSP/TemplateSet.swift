import Foundation

/// Decoder settings that travel with a template set (they were tuned for it).
public struct DecoderParameters: Sendable, Hashable, Codable {
    /// Cost added each time a word starts (discourages insertions).
    public var wordPenalty: Float = 8
    /// Cost added when an input frame stays on the same template frame (limits stretching).
    public var stayPenalty: Float = 0
    /// Template frames one input frame may advance: 2 or 3 (how much faster than its template a word may be).
    public var maximumAdvance = 3
    /// Hypotheses worse than the best by more than this are dropped.
    public var beam: Float = 30
    /// When more cells than this survived the previous frame, the beam narrows in proportion
    /// (0: never), down to ``minimumBeam``. Most frames stay under it; it trims the frames where
    /// many templates fit about equally badly.
    public var activeTarget = 4_000
    public var minimumBeam: Float = 15
    /// Weight on the distance to the noise estimate in the silence model.
    public var silenceWeight: Float = 0.7
    /// Extra silence cost on frames the voice-activity detector finds speech-like.
    public var silenceSpeechPenalty: Float = 5
    /// Confidence slope: per-frame cost margin that makes a word 73% sure.
    public var confidenceScale: Float = 0.5

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case wordPenalty, stayPenalty, maximumAdvance, beam, activeTarget, minimumBeam, silenceWeight,
            silenceSpeechPenalty, confidenceScale
    }

    /// Files written before the adaptive beam existed decode with it off (as they were tuned).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        wordPenalty = try container.decode(Float.self, forKey: .wordPenalty)
        stayPenalty = try container.decode(Float.self, forKey: .stayPenalty)
        maximumAdvance = try container.decode(Int.self, forKey: .maximumAdvance)
        beam = try container.decode(Float.self, forKey: .beam)
        activeTarget = try container.decodeIfPresent(Int.self, forKey: .activeTarget) ?? 0
        minimumBeam = try container.decodeIfPresent(Float.self, forKey: .minimumBeam) ?? beam
        silenceWeight = try container.decode(Float.self, forKey: .silenceWeight)
        silenceSpeechPenalty = try container.decode(Float.self, forKey: .silenceSpeechPenalty)
        confidenceScale = try container.decode(Float.self, forKey: .confidenceScale)
    }
}

/// The DSP engine's asset for one locale: word templates (normalised feature sequences, several
/// per word), the vocabulary, normalisation statistics and decoder settings.
public struct TemplateSet: Sendable, Hashable {
    public struct Template: Sendable, Hashable {
        /// Index into ``TemplateSet/vocabulary``.
        public var word: Int
        /// Frames × ``FrontEndConfiguration/dimension`` values, row-major, normalised.
        public var frames: [Float]
        /// Where the exemplar came from (utterance id), for reports.
        public var source: String

        public init(word: Int, frames: [Float], source: String) {
            self.word = word
            self.frames = frames
            self.source = source
        }
    }

    /// The newest format this build reads and writes. Version 2 adds PLP front ends
    /// (``FrontEndConfiguration/plpOrder``), which a version-1 reader would take for MFCC; sets
    /// without PLP are still written as version 1, byte for byte as before.
    public static let formatVersion: UInt32 = 2
    static let magic: [UInt8] = Array("SHDT".utf8)

    public var locale: String
    public var frontEnd: FrontEndConfiguration
    public var vocabulary: [String]
    /// The task of each vocabulary entry (`digits`, `commands`, …), same order.
    public var tasks: [String]
    /// Prior mean of the raw cepstra (cepstral mean normalisation starts from it).
    public var cepstralMean: [Float]
    /// Per-dimension divisor applied after mean removal.
    public var scale: [Float]
    public var parameters: DecoderParameters
    public var templates: [Template]
    /// Optional vector quantiser of template frames: `codebookSize` centroids (row-major) and,
    /// per template, the code of each frame. The decoder then scores a frame against the
    /// centroids once and looks cell distances up, which is many times faster.
    public var codebook: [Float] = []
    public var codes: [[UInt16]] = []
    /// The speakers the set was enrolled from (the exemplars' groups), so that a figure on their
    /// own voices can be marked speaker-dependent; empty in files written before it was kept.
    public var speakers: [String] = []

    public var codebookSize: Int { codebook.count / frontEnd.dimension }

    public init(
        locale: String, frontEnd: FrontEndConfiguration, vocabulary: [String], tasks: [String], cepstralMean: [Float],
        scale: [Float],
        parameters: DecoderParameters, templates: [Template]
    ) {
        self.locale = locale
        self.frontEnd = frontEnd
        self.vocabulary = vocabulary
        self.tasks = tasks
        self.cepstralMean = cepstralMean
        self.scale = scale
        self.parameters = parameters
        self.templates = templates
    }

    /// The same set restricted to the entries of one task.
    public func restricted(toTask task: String) -> TemplateSet {
        let keptIndices = vocabulary.indices.filter { tasks[$0] == task }
        let kept = keptIndices.map { vocabulary[$0] }
        let index = Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1, $0) })
        var copy = self
        copy.vocabulary = kept
        copy.tasks = keptIndices.map { tasks[$0] }
        var keptCodes: [[UInt16]] = []
        copy.templates = templates.enumerated().compactMap { n, t in
            guard let word = index[vocabulary[t.word]] else { return nil }
            if !codes.isEmpty { keptCodes.append(codes[n]) }
            return Template(word: word, frames: t.frames, source: t.source)
        }
        copy.codes = keptCodes
        return copy
    }

    // MARK: File format

    private struct Header: Codable {
        var locale: String
        var frontEnd: FrontEndConfiguration
        var vocabulary: [String]
        var tasks: [String]
        var cepstralMean: [Float]
        var scale: [Float]
        var parameters: DecoderParameters
        var templates: [TemplateInfo]
        var codebookSize: Int
        var speakers: [String]?
    }

    private struct TemplateInfo: Codable {
        var word: Int
        var frames: Int
        var source: String
    }

    /// `SHDT`, format version (UInt32 LE), header length (UInt32 LE), JSON header, then every
    /// template's frames as Float32 LE in header order, then the codebook (Float32 LE) and every
    /// template frame's code (UInt16 LE) when there is a codebook.
    public func encoded() throws -> [UInt8] {
        let dimension = frontEnd.dimension
        let header = Header(
            locale: locale, frontEnd: frontEnd, vocabulary: vocabulary, tasks: tasks, cepstralMean: cepstralMean,
            scale: scale,
            parameters: parameters,
            templates: templates.map {
                TemplateInfo(word: $0.word, frames: $0.frames.count / dimension, source: $0.source)
            },
            codebookSize: codebookSize, speakers: speakers.isEmpty ? nil : speakers)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = Array(try encoder.encode(header))
        var bytes = Self.magic
        // The oldest version that can hold this set.
        let version: UInt32 = frontEnd.plpOrder > 0 ? 2 : 1
        bytes += Self.littleEndian(version) + Self.littleEndian(UInt32(json.count)) + json
        bytes.reserveCapacity(bytes.count + templates.reduce(0) { $0 + $1.frames.count * 4 })
        for template in templates {
            for value in template.frames { bytes += Self.littleEndian(value.bitPattern) }
        }
        for value in codebook { bytes += Self.littleEndian(value.bitPattern) }
        for code in codes.joined() { bytes += [UInt8(code & 0xff), UInt8(code >> 8)] }
        return bytes
    }

    /// The format version a template file's first eight bytes declare (nil when they are not a
    /// template file's).
    public static func declaredVersion(ofHead head: [UInt8]) -> Int? {
        guard head.count >= 8, Array(head.prefix(4)) == magic else { return nil }
        return Int(readUInt32(head, at: 4))
    }

    /// Reads a template file; `name` is used in errors.
    public static func decode(_ bytes: [UInt8], name: String) throws -> TemplateSet {
        func fail(_ reason: String) -> TemplateSetError { .malformed(file: name, reason: reason) }
        guard bytes.count >= 12, Array(bytes[0..<4]) == magic else {
            throw fail("not a template file (no SHDT signature)")
        }
        let version = readUInt32(bytes, at: 4)
        guard (1...formatVersion).contains(version) else {
            throw TemplateSetError.unsupportedVersion(file: name, version: Int(version), supported: Int(formatVersion))
        }
        let headerLength = Int(readUInt32(bytes, at: 8))
        guard 12 + headerLength <= bytes.count else { throw fail("header runs past the end of the file") }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(bytes[12..<12 + headerLength]))
        } catch {
            throw fail("header is not valid: \(error)")
        }
        let dimension = header.frontEnd.dimension
        guard version >= 2 || header.frontEnd.plpOrder == 0 else {
            throw fail("a version-1 file cannot hold a PLP front end")
        }
        guard FrontEndConfiguration.plpOrders.contains(header.frontEnd.plpOrder) else {
            throw fail("PLP order \(header.frontEnd.plpOrder) is outside \(FrontEndConfiguration.plpOrders)")
        }
        guard header.tasks.count == header.vocabulary.count else { throw fail("tasks and vocabulary differ in length") }
        guard header.cepstralMean.count == header.frontEnd.cepstra, header.scale.count == dimension else {
            throw fail("normalisation statistics do not match the feature dimension \(dimension)")
        }
        var offset = 12 + headerLength
        var templates: [Template] = []
        for (n, info) in header.templates.enumerated() {
            guard header.vocabulary.indices.contains(info.word), info.frames > 0 else {
                throw fail("template \(n) is invalid")
            }
            let count = info.frames * dimension
            guard offset + count * 4 <= bytes.count else { throw fail("template \(n) is truncated") }
            var frames = [Float](repeating: 0, count: count)
            for i in 0..<count { frames[i] = Float(bitPattern: readUInt32(bytes, at: offset + 4 * i)) }
            guard frames.allSatisfy(\.isFinite) else { throw fail("template \(n) holds a value that is not finite") }
            offset += count * 4
            templates.append(Template(word: info.word, frames: frames, source: info.source))
        }
        var set = TemplateSet(
            locale: header.locale, frontEnd: header.frontEnd, vocabulary: header.vocabulary, tasks: header.tasks,
            cepstralMean: header.cepstralMean, scale: header.scale, parameters: header.parameters, templates: templates)
        set.speakers = header.speakers ?? []
        if header.codebookSize > 0 {
            let count = header.codebookSize * dimension
            guard header.codebookSize <= 65_536, offset + count * 4 <= bytes.count else {
                throw fail("codebook is truncated")
            }
            set.codebook = (0..<count).map { Float(bitPattern: readUInt32(bytes, at: offset + 4 * $0)) }
            guard set.codebook.allSatisfy(\.isFinite) else { throw fail("codebook holds a value that is not finite") }
            offset += count * 4
            for template in templates {
                let frames = template.frames.count / dimension
                guard offset + 2 * frames <= bytes.count else { throw fail("codes are truncated") }
                let codes = (0..<frames).map {
                    UInt16(bytes[offset + 2 * $0]) | UInt16(bytes[offset + 2 * $0 + 1]) << 8
                }
                guard codes.allSatisfy({ Int($0) < header.codebookSize }) else {
                    throw fail("a code is outside the codebook")
                }
                set.codes.append(codes)
                offset += 2 * frames
            }
        }
        guard offset == bytes.count else { throw fail("\(bytes.count - offset) bytes follow the last template") }
        return set
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(
            bytes[offset + 3]) << 24
    }
}

/// A template file that cannot be used.
public enum TemplateSetError: Error, CustomStringConvertible, Sendable, Equatable {
    case malformed(file: String, reason: String)
    case unsupportedVersion(file: String, version: Int, supported: Int)

    public var description: String {
        switch self {
        case .malformed(let file, let reason): return "\(file): \(reason)"
        case .unsupportedVersion(let file, let version, let supported):
            return "\(file): template format version \(version); this build reads versions 1 to \(supported)"
        }
    }
}
