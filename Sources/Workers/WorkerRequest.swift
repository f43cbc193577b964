import Foundation

/// A message from the harness to a worker (WorkerProtocol.md), typed as the replies are: each
/// request is a case with its fields, encoded as one JSON line with its `type` (and, in protocol
/// 2, the `id` its reply will carry).
enum WorkerRequest: Equatable, Sendable {
    case hello(protocolVersion: Int)
    case start(
        session: Int, locale: String, partials: Bool, alternatives: Int, contextualStrings: [String], wordTimes: Bool)
    /// Protocol 2: a header; `bytes` bytes of samples follow it.
    case audio(session: Int, start: Double, bytes: Int)
    /// Protocol 1: the samples in the line, base64.
    case audioInline(session: Int, start: Double, samples: String)
    case finalize(session: Int, through: Double)
    case cancel(session: Int, before: Double)
    /// Opens a session whose audio goes to the worker's voice activity detector only.
    case listen(session: Int)
    /// The speech probabilities of the windows a listening session's audio completed since the last.
    case voice(session: Int)
    case end(session: Int)
    case shutdown

    /// The request's `type`.
    var type: String {
        switch self {
        case .hello: "hello"
        case .start: "start"
        case .audio, .audioInline: "audio"
        case .finalize: "finalize"
        case .cancel: "cancel"
        case .listen: "listen"
        case .voice: "voice"
        case .end: "end"
        case .shutdown: "shutdown"
        }
    }
}

/// A request with the `id` its reply carries (protocol 2; nil in protocol 1, for audio and for
/// the messages that get no reply).
struct WorkerRequestLine: Codable, Equatable, Sendable {
    var request: WorkerRequest
    var id: Int?

    enum Key: String, CodingKey {
        case type, id, session, start, bytes, samples, through, before, locale, partials, alternatives,
            contextualStrings, wordTimes
        case protocolVersion = "protocol"
    }

    init(_ request: WorkerRequest, id: Int? = nil) {
        self.request = request
        self.id = id
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(request.type, forKey: .type)
        try c.encodeIfPresent(id, forKey: .id)
        switch request {
        case .hello(let version):
            try c.encode(version, forKey: .protocolVersion)
        case .start(let session, let locale, let partials, let alternatives, let contextualStrings, let wordTimes):
            try c.encode(session, forKey: .session)
            try c.encode(locale, forKey: .locale)
            try c.encode(partials, forKey: .partials)
            try c.encode(alternatives, forKey: .alternatives)
            try c.encode(contextualStrings, forKey: .contextualStrings)
            try c.encode(wordTimes, forKey: .wordTimes)
        case .audio(let session, let start, let bytes):
            try c.encode(session, forKey: .session)
            try c.encode(start, forKey: .start)
            try c.encode(bytes, forKey: .bytes)
        case .audioInline(let session, let start, let samples):
            try c.encode(session, forKey: .session)
            try c.encode(start, forKey: .start)
            try c.encode(samples, forKey: .samples)
        case .finalize(let session, let through):
            try c.encode(session, forKey: .session)
            try c.encode(through, forKey: .through)
        case .cancel(let session, let before):
            try c.encode(session, forKey: .session)
            try c.encode(before, forKey: .before)
        case .listen(let session), .voice(let session), .end(let session):
            try c.encode(session, forKey: .session)
        case .shutdown:
            break
        }
    }

    /// Read back, for the protocol document's check and for workers written in Swift.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        id = try c.decodeIfPresent(Int.self, forKey: .id)
        let type = try c.decode(String.self, forKey: .type)
        func session() throws -> Int { try c.decode(Int.self, forKey: .session) }
        switch type {
        case "hello": request = .hello(protocolVersion: try c.decode(Int.self, forKey: .protocolVersion))
        case "start":
            request = .start(
                session: try session(), locale: try c.decode(String.self, forKey: .locale),
                partials: try c.decode(Bool.self, forKey: .partials),
                alternatives: try c.decode(Int.self, forKey: .alternatives),
                contextualStrings: try c.decode([String].self, forKey: .contextualStrings),
                wordTimes: try c.decode(Bool.self, forKey: .wordTimes))
        case "audio":
            if c.contains(.samples) {
                request = .audioInline(
                    session: try session(), start: try c.decode(Double.self, forKey: .start),
                    samples: try c.decode(String.self, forKey: .samples))
            } else {
                request = .audio(
                    session: try session(), start: try c.decode(Double.self, forKey: .start),
                    bytes: try c.decode(Int.self, forKey: .bytes))
            }
        case "finalize":
            request = .finalize(session: try session(), through: try c.decode(Double.self, forKey: .through))
        case "cancel": request = .cancel(session: try session(), before: try c.decode(Double.self, forKey: .before))
        case "listen": request = .listen(session: try session())
        case "voice": request = .voice(session: try session())
        case "end": request = .end(session: try session())
        case "shutdown": request = .shutdown
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c, debugDescription: "unknown request type '\(type)'")
        }
    }

    /// The JSON line, without its line end.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
