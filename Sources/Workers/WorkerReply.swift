import Foundation
import SpeechCore

/// A message from a worker (see WorkerProtocol.md), decoded at the boundary; fields depend on `type`.
struct WorkerReply: Decodable, Sendable {
    struct Word: Decodable, Sendable {
        var text: String
        var start: Double
        var end: Double
        var confidence: Double?
    }
    struct Segment: Decodable, Sendable {
        var start: Double
        var end: Double
        var words: [Word]
        var alternatives: [[String]]?
    }

    /// What a worker may send (WorkerProtocol.md).
    enum Kind: String, ClosedSetValue {
        case ready, started, hypothesis, ended, error, listening, speech
        static let valueName = "reply type"
    }

    var type: Kind
    /// Protocol 2: the request this answers; nil for news (an unrequested hypothesis).
    var id: Int?
    var session: Int?
    var message: String?
    var finalized: [Segment]?
    var volatile: Segment?
    var finalizedThrough: Double?
    /// Protocol 1: the worker's CPU seconds for the request.
    var computeSeconds: Double?
    /// Protocol 2: the worker's CPU seconds for the session since its previous message.
    var cpuSeconds: Double?
    var engine: String?
    var locales: [String]?
    var sampleRate: Double?
    var loadSeconds: Double?
    var protocolVersion: Int?
    /// Protocol 2 handshake: whether the worker reports its CPU time.
    var cpuTime: Bool?
    /// Protocol 2 handshake: the worker's voice activity detector, when it has one.
    var voiceActivity: VoiceActivity?
    /// A `speech` reply: the speech probability of each window completed since the last.
    var probabilities: [Float]?

    struct VoiceActivity: Decodable, Sendable, Hashable {
        var model: String
        var windowSamples: Int
    }

    enum CodingKeys: String, CodingKey {
        case type, id, session, message, finalized, volatile, finalizedThrough, computeSeconds, cpuSeconds, engine,
            locales,
            sampleRate, loadSeconds, cpuTime, voiceActivity, probabilities
        case protocolVersion = "protocol"
    }
}

extension WorkerReply {
    /// The hypothesis this message carries (empty for other types).
    var update: HypothesisUpdate {
        func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, preferredTimescale: 1_000_000) }
        func segment(_ s: Segment) -> HypothesisSegment {
            HypothesisSegment(
                range: TimeRange(start: time(s.start), end: time(max(s.start, s.end))),
                words: s.words.map {
                    RecognizedWord(
                        text: $0.text, range: TimeRange(start: time($0.start), end: time(max($0.start, $0.end))),
                        confidence: $0.confidence)
                },
                alternatives: s.alternatives ?? [])
        }
        return HypothesisUpdate(
            finalized: (finalized ?? []).map(segment), volatile: volatile.map(segment),
            finalizedThrough: finalizedThrough.map(time), computeSeconds: cpuSeconds ?? computeSeconds)
    }
}
