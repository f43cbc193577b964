import Foundation
import Metrics
import Records

/// What the report pages' scripts read: every utterance once, and each engine's run of it, in a
/// compact JSON form (arrays for the many small things: alignment steps, events, word spans).
struct ExplorerData: Encodable {
    struct Utterance: Encodable {
        var id: String
        var manifest: String
        var tier: String
        var speaker: String
        var reference: String
        var seconds: Double
        /// A link into the corpus (relative to the report) or a `data:` URI; nil with `audioNote`.
        var audio: String?
        var audioNote: String?
        var words: [Word]
        /// Whether the engines' scored hypotheses differ.
        var differs: Bool
    }

    /// A reference word's span: `[start, end, word]`.
    struct Word: Encodable {
        var start: Double, end: Double, word: String
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(ExplorerData.rounded(start))
            try container.encode(ExplorerData.rounded(end))
            try container.encode(word)
        }
    }

    /// One alignment column: `["c", word]`, `["s", ref, hyp]`, `["d", ref]` or `["i", hyp]`.
    struct Step: Encodable {
        var step: AlignmentStep
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            switch step {
            case .correct(let word):
                try container.encode("c")
                try container.encode(word)
            case .substitution(let reference, let hypothesis):
                try container.encode("s")
                try container.encode(reference)
                try container.encode(hypothesis)
            case .deletion(let word):
                try container.encode("d")
                try container.encode(word)
            case .insertion(let word):
                try container.encode("i")
                try container.encode(word)
            }
        }
    }

    /// A published result: `[time, final (1) or partial (0), range start, range end, text]`.
    struct Event: Encodable {
        var event: StreamingTimeline.Event
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(ExplorerData.rounded(event.time))
            try container.encode(event.isFinal ? 1 : 0)
            try container.encode(ExplorerData.rounded(event.rangeStart))
            try container.encode(ExplorerData.rounded(event.rangeEnd))
            try container.encode(event.words.joined(separator: " "))
        }
    }

    /// One engine's run of one utterance.
    struct Run: Encodable {
        var utterance: Int
        var engine: Int
        var hypothesis: String
        var substitutions: Int, deletions: Int, insertions: Int, referenceWords: Int
        var alignment: [Step]
        var events: [Event]
        var firstPartial: Double?
        var final: Double?
        var compute: Double
        var error: String?
        /// True when the engine learned this locale from the utterance's own voice.
        var speakerDependent: Bool?

        enum CodingKeys: String, CodingKey {
            case utterance = "u"
            case engine = "e"
            case hypothesis = "hyp"
            case substitutions = "s"
            case deletions = "d"
            case insertions = "i"
            case
                referenceWords = "n"
            case alignment = "align"
            case events, firstPartial, final, compute, error
            case speakerDependent = "sd"
        }
    }

    var engines: [String]
    /// Engines that publish partial results (the others are final-only).
    var partialEngines: [String]
    var utterances: [Utterance]
    var runs: [Run]

    /// Milliseconds are enough for a page, and keep 10,000 utterances small.
    static func rounded(_ value: Double) -> Double { value.isFinite ? (value * 1000).rounded() / 1000 : 0 }

    /// The utterance key records share across engines.
    static func utteranceKey(_ record: UtteranceRecord) -> String {
        utteranceKey(manifest: record.manifest, id: record.id)
    }
    static func utteranceKey(manifest: String, id: String) -> String { manifest + "\u{1F}" + id }

    /// The explorer's data with one more top-level member a page needs (its pairs, its diffs).
    struct With<Extra: Encodable>: Encodable {
        var explorer: ExplorerData
        var key: String
        var extra: Extra

        func encode(to encoder: any Encoder) throws {
            try explorer.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(extra, forKey: Key(stringValue: key))
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

}

extension ExplorerData {
    /// `audio` gives each utterance's player source (or the reason there is none), by utterance key.
    init(records: [UtteranceRecord], partialEngines: Set<String>, audio: [String: AudioSource]) {
        engines = Array(Set(records.map(\.engine))).sorted()
        self.partialEngines = engines.filter(partialEngines.contains)
        let engineIndex = Dictionary(uniqueKeysWithValues: engines.enumerated().map { ($1, $0) })
        var utteranceIndex: [String: Int] = [:]
        var hypotheses: [[[String]]] = []
        utterances = []
        runs = []
        for record in records {
            let key = Self.utteranceKey(record)
            let index: Int
            if let known = utteranceIndex[key] {
                index = known
            } else {
                index = utterances.count
                utteranceIndex[key] = index
                let source = audio[key]
                utterances.append(
                    Utterance(
                        id: record.id, manifest: record.manifest, tier: record.tier, speaker: record.speaker,
                        reference: record.reference,
                        seconds: Self.rounded(record.audioSeconds), audio: source?.href, audioNote: source?.note,
                        words: record.timeline.referenceWords.map { Word(start: $0.start, end: $0.end, word: $0.word) },
                        differs: false))
                hypotheses.append([])
            }
            let parsed = Alignment(pralign: record.alignment)
            let steps = parsed?.steps ?? []
            hypotheses[index].append(
                steps.compactMap { step -> String? in
                    switch step {
                    case .correct(let word): word.lowercased()
                    case .substitution(_, let word), .insertion(let word): word.lowercased()
                    case .deletion: nil
                    }
                })
            runs.append(
                Run(
                    utterance: index, engine: engineIndex[record.engine] ?? 0, hypothesis: record.hypothesis,
                    substitutions: record.words.substitutions, deletions: record.words.deletions,
                    insertions: record.words.insertions,
                    referenceWords: record.words.referenceLength, alignment: steps.map(Step.init),
                    events: record.timeline.events.map(Event.init),
                    firstPartial: record.measures.firstPartialLatency.map(Self.rounded),
                    final: record.measures.finalizationLatency.map(Self.rounded),
                    compute: Self.rounded(record.computeSeconds),
                    error: record.error ?? (parsed == nil ? "the stored alignment could not be read" : nil),
                    speakerDependent: record.enrolledSpeaker))
        }
        for index in utterances.indices { utterances[index].differs = Set(hypotheses[index]).count > 1 }
    }
}

/// Where a page's audio player gets an utterance's clip.
public struct AudioSource: Sendable, Hashable {
    /// A relative link or a `data:` URI.
    public var href: String?
    /// Why there is no player (or why the link may not play), shown beside it.
    public var note: String?

    public init(href: String?, note: String? = nil) {
        self.href = href
        self.note = note
    }
}
