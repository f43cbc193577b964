import Foundation
import SpeechCore

/// What the scripted engine says and when: words at audio times, with the latency, revisions,
/// alternatives, confidences and faults a conformance scenario wants to see.
public struct EngineScript: Sendable, Hashable, Codable {
    public struct Word: Sendable, Hashable, Codable {
        public var text: String
        public var start: Double
        public var end: Double
        public var confidence: Double?
        /// Earlier spellings shown as volatile text before `text`, each for `revisionInterval` of audio.
        public var revisions: [String]?
        /// Other candidates for this word; each gives one alternative transcription of its segment.
        public var alternatives: [String]?

        public init(
            _ text: String, start: Double, end: Double, confidence: Double? = nil,
            revisions: [String]? = nil, alternatives: [String]? = nil
        ) {
            self.text = text
            self.start = start
            self.end = end
            self.confidence = confidence
            self.revisions = revisions
            self.alternatives = alternatives
        }

        private enum CodingKeys: String, CodingKey { case text, word, start, end, confidence, revisions, alternatives }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            // Corpus manifests write "word"; scripts may write "text".
            text = try c.decodeIfPresent(String.self, forKey: .text) ?? c.decode(String.self, forKey: .word)
            start = try c.decode(Double.self, forKey: .start)
            end = try c.decode(Double.self, forKey: .end)
            confidence = try c.decodeIfPresent(Double.self, forKey: .confidence)
            revisions = try c.decodeIfPresent([String].self, forKey: .revisions)
            alternatives = try c.decodeIfPresent([String].self, forKey: .alternatives)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(text, forKey: .text)
            try c.encode(start, forKey: .start)
            try c.encode(end, forKey: .end)
            try c.encodeIfPresent(confidence, forKey: .confidence)
            try c.encodeIfPresent(revisions, forKey: .revisions)
            try c.encodeIfPresent(alternatives, forKey: .alternatives)
        }
    }

    /// A planted failure.
    public enum Fault: Sendable, Hashable, Codable {
        /// `accept` throws once the audio reaches this time (seconds).
        case throwAt(Double, message: String)
        /// `accept` blocks once the audio reaches this time, until the session is closed.
        case stallAt(Double)
        /// `finalize` throws.
        case failFinalize(message: String)
        /// `finalize` yields this many times first: a finalisation that takes a while.
        case slowFinalize(yields: Int)
    }

    public var words: [Word]
    /// Audio seconds after a word's end before it is reported as volatile text.
    public var latency: Double
    public var revisionInterval: Double
    /// Silence after a word that ends a segment and finalises it on the engine's own initiative;
    /// nil: the engine never finalises unless asked.
    public var endpointSilence: Double?
    public var faults: [Fault]

    public init(
        words: [Word], latency: Double = 0, revisionInterval: Double = 0.2,
        endpointSilence: Double? = 0.6, faults: [Fault] = []
    ) {
        self.words = words.sorted { $0.start < $1.start }
        self.latency = latency
        self.revisionInterval = revisionInterval
        self.endpointSilence = endpointSilence
        self.faults = faults
    }

    private enum CodingKeys: String, CodingKey { case words, latency, revisionInterval, endpointSilence, faults }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            words: try c.decode([Word].self, forKey: .words),
            latency: try c.decodeIfPresent(Double.self, forKey: .latency) ?? 0,
            revisionInterval: try c.decodeIfPresent(Double.self, forKey: .revisionInterval) ?? 0.2,
            endpointSilence: c.contains(.endpointSilence)
                ? try c.decodeIfPresent(Double.self, forKey: .endpointSilence) : 0.6,
            faults: try c.decodeIfPresent([Fault].self, forKey: .faults) ?? [])
    }

    /// Words at fixed spacing, for quick tests: each word lasts `duration` and is followed by `gap`.
    public static func evenlySpaced(
        _ text: String, startingAt start: Double = 0.2, duration: Double = 0.4,
        gap: Double = 0.1, latency: Double = 0, endpointSilence: Double? = 0.6
    ) -> EngineScript {
        let tokens = text.split(separator: " ").map(String.init)
        let words = tokens.enumerated().map { i, token in
            Word(
                token, start: start + Double(i) * (duration + gap), end: start + Double(i) * (duration + gap) + duration
            )
        }
        return EngineScript(words: words, latency: latency, endpointSilence: endpointSilence)
    }

    /// Reads a script from JSON: a script object (a field it does not know is an error), or a
    /// corpus manifest line (an object with `words`). A path may name one manifest line as `manifest.jsonl#utterance-id`.
    public static func load(path: String) throws -> EngineScript {
        let (file, id) = path.split(separator: "#", maxSplits: 1).map(String.init).splitPair
        guard let data = FileContents.read(atPath: file) else {
            throw EngineError.invalidScript(path: file, reason: "cannot read the file")
        }
        let text = String(decoding: data, as: UTF8.self)
        let candidates = id == nil ? [text] : text.split(separator: "\n").map(String.init)
        for candidate in candidates {
            if let id, !(candidate.contains("\"id\":\"\(id)\"") || candidate.contains("\"id\": \"\(id)\"")) { continue }
            do {
                // A script file is read strictly; a manifest line has the manifest's other fields.
                return try DecodingProblem.decode(
                    EngineScript.self, from: Data(candidate.utf8), strict: id == nil && !file.hasSuffix(".jsonl"))
            } catch {
                throw EngineError.invalidScript(path: file, reason: error.description)
            }
        }
        throw EngineError.invalidScript(path: file, reason: "no line with id '\(id ?? "")'")
    }
}

private extension Array where Element == String {
    var splitPair: (String, String?) { (self.first ?? "", self.count > 1 ? self[1] : nil) }
}
