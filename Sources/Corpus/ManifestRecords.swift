import Foundation
import SpeechCore

/// One line of a JSON-lines manifest as the file has it: decoded at the boundary, then made an
/// ``Utterance`` by ``utterance(locale:)``. Fields the format does not read are kept by name, to
/// be said once per file (a misspelt `refrence` is then visible) without refusing the line.
protocol ManifestLine: Decodable {
    /// The fields the format reads.
    static var fields: Set<String> { get }
    /// Fields of this line the format does not read.
    var unread: [String] { get }
    /// The entry's id, for messages about the line once it is decoded.
    var id: String { get }
    func utterance(locale: String) throws(ManifestIssue.Problem) -> Utterance
}

extension ManifestLine {
    /// The line's fields other than the format's.
    static func unread(in decoder: any Decoder) throws -> [String] {
        try decoder.container(keyedBy: FieldName.self).allKeys.map(\.stringValue).filter { !fields.contains($0) }
            .sorted()
    }
}

/// A word with its time in the audio, as our manifests write it.
struct ManifestWord: Decodable {
    var word: String
    var start: Double
    var end: Double
}

/// Our own JSON lines (`*.jsonl`). Only `id`, `audio` and the transcript (`reference`, or `text`
/// or `transcript` as other tools call it) are required.
struct OwnManifestLine: ManifestLine {
    static let fields: Set<String> = [
        "id", "audio", "reference", "text", "transcript", "locale", "speaker", "task", "duration", "offset", "tier",
        "split", "words",
    ]
    var id: String
    var audio: String
    var reference: String?
    var text: String?
    var transcript: String?
    var locale: String?
    var speaker: String?
    var task: String?
    var duration: Double?
    var offset: Double?
    var tier: String?
    var split: Utterance.Split?
    var words: [ManifestWord]?
    var unread: [String]

    enum CodingKeys: String, CodingKey {
        case id, audio, reference, text, transcript, locale, speaker, task, duration, offset, tier, split, words
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.decode(String.self, forKey: .id)
        audio = try fields.decode(String.self, forKey: .audio)
        reference = try fields.decodeIfPresent(String.self, forKey: .reference)
        text = try fields.decodeIfPresent(String.self, forKey: .text)
        transcript = try fields.decodeIfPresent(String.self, forKey: .transcript)
        locale = try fields.decodeIfPresent(String.self, forKey: .locale)
        speaker = try fields.decodeIfPresent(String.self, forKey: .speaker)
        task = try fields.decodeIfPresent(String.self, forKey: .task)
        duration = try fields.decodeIfPresent(Double.self, forKey: .duration)
        offset = try fields.decodeIfPresent(Double.self, forKey: .offset)
        tier = try fields.decodeIfPresent(String.self, forKey: .tier)
        split = try fields.decodeIfPresent(Utterance.Split.self, forKey: .split)
        words = try fields.decodeIfPresent([ManifestWord].self, forKey: .words)
        unread = try Self.unread(in: decoder)
    }

    func utterance(locale defaultLocale: String) throws(ManifestIssue.Problem) -> Utterance {
        guard let reference = reference ?? text ?? transcript else { throw .missingField("reference") }
        var utterance = Utterance(
            id: id, audio: audio, reference: reference, locale: locale ?? defaultLocale,
            speaker: speaker ?? "unknown", task: task ?? "unknown", duration: try durationOrUnknown(duration),
            offset: offset, tier: tier)
        if let split { utterance.split = split }
        utterance.words = try words.map(Self.aligned)
        return utterance
    }

    /// Words in order, each within itself and after the one before.
    static func aligned(_ words: [ManifestWord]) throws(ManifestIssue.Problem) -> [Utterance.AlignedWord] {
        var previousEnd = -Double.infinity
        var aligned: [Utterance.AlignedWord] = []
        for (index, word) in words.enumerated() {
            guard word.start >= 0, word.end >= word.start, word.start >= previousEnd - 1e-9 else {
                throw .invalidValue(
                    field: "words[\(index)]", reason: "times must be ordered, non-negative and not overlap")
            }
            previousEnd = word.end
            aligned.append(Utterance.AlignedWord(word: word.word, start: word.start, end: word.end))
        }
        return aligned
    }
}

/// A NeMo manifest line: `audio_filepath`, `text`, optional `duration`, `offset`, `lang`,
/// `speaker`. NeMo has no id: the audio path (with the offset, for segments) identifies the entry.
struct NeMoManifestLine: ManifestLine {
    static let fields: Set<String> = ["audio_filepath", "text", "duration", "offset", "lang", "speaker"]
    var audioFilepath: String
    var text: String
    var duration: Double?
    var offset: Double?
    var lang: String?
    var speaker: String?
    var unread: [String]

    enum CodingKeys: String, CodingKey {
        case audioFilepath = "audio_filepath"
        case text, duration, offset, lang, speaker
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        audioFilepath = try fields.decode(String.self, forKey: .audioFilepath)
        text = try fields.decode(String.self, forKey: .text)
        duration = try fields.decodeIfPresent(Double.self, forKey: .duration)
        offset = try fields.decodeIfPresent(Double.self, forKey: .offset)
        lang = try fields.decodeIfPresent(String.self, forKey: .lang)
        speaker = try fields.decodeIfPresent(String.self, forKey: .speaker)
        unread = try Self.unread(in: decoder)
    }

    var id: String { Self.id(audio: audioFilepath, offset: offset) }

    /// What identifies a NeMo entry: its audio path, with the offset for a segment.
    static func id(audio: String, offset: Double?) -> String { offset.map { "\(audio)@\($0)" } ?? audio }

    func utterance(locale: String) throws(ManifestIssue.Problem) -> Utterance {
        Utterance(
            id: id, audio: audioFilepath, reference: text, locale: lang ?? locale, speaker: speaker ?? "unknown",
            task: "unknown", duration: try durationOrUnknown(duration), offset: offset)
    }
}

/// A stated duration, which must be a positive number of seconds; -1 (the audio header says) when
/// absent.
private func durationOrUnknown(_ seconds: Double?) throws(ManifestIssue.Problem) -> Double {
    guard let seconds else { return -1 }
    guard seconds > 0 && seconds.isFinite else {
        throw .invalidValue(field: "duration", reason: "must be a positive number of seconds")
    }
    return seconds
}

extension ManifestIssue.Problem {
    /// A decoding problem of one manifest line, in the manifest's terms.
    init(_ decoding: DecodingProblem) {
        switch decoding.kind {
        case _ where decoding.path.isEmpty: self = .malformedJSON(decoding.problem)
        case .missing: self = .missingField(decoding.field)
        case .wrongType(let expected, let found):
            self = .wrongType(field: decoding.field, expected: expected, found: found ?? "another kind of value")
        case .invalid: self = .invalidValue(field: decoding.field, reason: decoding.problem)
        }
    }
}
