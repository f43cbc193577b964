import Foundation
import SpeechCore

/// One recorded analysis session (docs/session-traces.md, version 1), decoded strictly: every line
/// and field is checked at the boundary, and a bad one is a ``TraceError`` naming the file, the
/// line and the field.
public struct SessionTrace: Sendable, Equatable {
    public struct Platform: Sendable, Equatable, Decodable {
        public var system: String
        public var version: String
        /// `reference` (the harness's analyzer) or `apple`.
        public var speech: Speech

        public enum Speech: String, ClosedSetValue {
            case reference, apple
            public static let valueName = "speech framework"
        }
    }

    public struct Audio: Sendable, Equatable, Decodable {
        public var name: String
        public var sha256: String
        /// SHA-256 of the first second as 16 kHz mono 16-bit little-endian samples.
        public var headSHA256: String?
        /// The same of the first 0.1 s, 0.2 s, … up to 1 s.
        public var headPrefixSHA256: [String]?
        public var sampleRate: Double
        public var channels: Int
        public var frames: Int

        /// The recorded audio's length in seconds.
        public var seconds: Double { Double(frames) / sampleRate }
    }

    public struct Module: Sendable, Equatable, Decodable {
        public enum Kind: String, ClosedSetValue {
            case speechTranscriber = "SpeechTranscriber"
            case dictationTranscriber = "DictationTranscriber"
            case speechDetector = "SpeechDetector"
            public static let valueName = "module kind"
        }
        public var index: Int
        public var kind: Kind
        public var locale: String?
        public var options: [String: [String]]
    }

    public enum Input: String, ClosedSetValue {
        case file, stream
        public static let valueName = "input"
    }

    /// How the program gave its buffers: as fast as it could, or each when its audio would have
    /// been spoken (results then carry their arrival).
    public enum Pacing: String, ClosedSetValue {
        case fast, realtime
        public static let valueName = "pacing"
    }

    public struct Session: Sendable, Equatable, Decodable {
        let type: String
        public var version: Int
        public var scenario: String
        public var platform: Platform
        public var audio: Audio
        public var modules: [Module]
        public var input: Input
        public var bufferFrames: Int?
        /// Absent in traces given as fast as the program could.
        public var pacing: Pacing?
    }

    public struct Call: Sendable, Equatable, Decodable {
        public enum Outcome: String, ClosedSetValue {
            case returned, threw
            public static let valueName = "outcome"
        }
        let type: String
        public var seq: Int
        public var name: String
        public var arguments: [String: String]
        public var inputSeconds: Double
        public var outcome: Outcome
        public var value: String?
        public var error: String?
        /// Under real-time pacing, the audio time when the call returned or threw.
        public var arrival: Double?
    }

    public struct Run: Sendable, Equatable, Decodable {
        public var text: String
        public var start: Double?
        public var duration: Double?
        public var confidence: Double?
    }

    public struct Result: Sendable, Equatable, Decodable {
        let type: String
        public var seq: Int
        public var module: Int
        public var start: Double
        public var duration: Double
        public var finalizedThrough: Double
        public var isFinal: Bool
        public var text: String?
        public var runs: [Run]?
        public var alternatives: [String]?
        public var speechDetected: Bool?
        /// Under real-time pacing, the audio time when the program received the result.
        public var arrival: Double?
        /// Under real-time pacing, the audio the program had given when it received the result.
        public var inputSeconds: Double?

        /// How long after its audio ended the program received it (real-time pacing only).
        public var latency: Double? { arrival.map { $0 - (start + duration) } }
    }

    /// A report to a volatile range handler (`setVolatileRangeChangedHandler`), with the handler
    /// that received it, numbered from 0 in the order they were set.
    public struct VolatileRange: Sendable, Equatable, Decodable {
        let type: String
        public var seq: Int
        public var handler: Int
        public var start: Double
        public var duration: Double
        public var changedStart: Bool
        public var changedEnd: Bool
    }

    struct End: Decodable {
        let type: String
        var seq: Int
        var results: Int
        var streams: [String]
    }

    public enum Event: Sendable, Equatable {
        case call(Call)
        case result(Result)
        case volatileRange(VolatileRange)
    }

    /// How a module's result sequence ended.
    public enum StreamEnding: Sendable, Equatable {
        case finished
        case threw(String)
        /// Still open well after the session finished.
        case open
    }

    public var session: Session
    public var events: [Event]
    public var streams: [StreamEnding]

    public var calls: [Call] { events.compactMap { if case .call(let c) = $0 { return c } else { return nil } } }
    public var results: [Result] { events.compactMap { if case .result(let r) = $0 { return r } else { return nil } } }
    public var volatileRanges: [VolatileRange] {
        events.compactMap { if case .volatileRange(let v) = $0 { return v } else { return nil } }
    }

    /// Reads a trace file.
    public static func read(path: String) throws(TraceError) -> SessionTrace {
        guard let data = FileContents.read(atPath: path) else {
            throw .unreadable(path: path, reason: "cannot read the file")
        }
        return try decode(data, path: path)
    }

    /// The `type` of a line, read first to choose how to decode the rest.
    private struct Kind: Decodable {
        enum Value: String, ClosedSetValue {
            case session, call, result, volatileRange, end
            static let valueName = "line type"
        }
        var type: Value
    }

    /// Decodes a trace's JSON lines; `path` names it in errors.
    public static func decode(_ data: Data, path: String) throws(TraceError) -> SessionTrace {
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path, reason: "not UTF-8 text")
        }
        var session: Session?
        var events: [Event] = []
        var end: End?
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, raw) in lines.enumerated() where !raw.trimmingCharacters(in: .whitespaces).isEmpty {
            let number = offset + 1
            func fail(_ field: String, _ reason: String) -> TraceError {
                .malformed(path: path, line: number, field: field, reason: reason)
            }
            func decode<T: Decodable>(_ type: T.Type) throws(TraceError) -> T {
                do {
                    return try DecodingProblem.decode(T.self, from: Data(raw.utf8), strict: true)
                } catch {
                    throw fail(error.field, error.problem)
                }
            }
            guard end == nil else { throw fail("", "a line after the end line") }
            let kind: Kind.Value
            do {
                kind = try DecodingProblem.decode(Kind.self, from: Data(raw.utf8)).type
            } catch {
                throw fail(error.field, error.problem)
            }
            if kind == .session {
                guard session == nil else { throw fail("type", "a second session line") }
                let line = try decode(Session.self)
                guard line.version == 1 else {
                    throw fail("version", "version \(line.version) is not supported (expected 1)")
                }
                guard line.audio.sha256.count == 64, line.audio.sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase })
                else {
                    throw fail("audio.sha256", "not 64 lowercase hex digits")
                }
                guard !line.modules.isEmpty else { throw fail("modules", "empty") }
                session = line
                continue
            }
            guard session != nil else { throw fail("type", "the first line must be the session line") }
            let seq: Int
            switch kind {
            case .call:
                let call = try decode(Call.self)
                guard (call.outcome == .threw) == (call.error != nil) else {
                    throw fail(
                        "error",
                        call.outcome == .threw ? "missing for a call that threw" : "present for a call that returned")
                }
                guard call.inputSeconds >= 0 else { throw fail("inputSeconds", "\(call.inputSeconds) is out of range") }
                guard (call.arrival ?? 0) >= 0 else { throw fail("arrival", "\(call.arrival ?? 0) is out of range") }
                seq = call.seq
                events.append(.call(call))
            case .result:
                let result = try decode(Result.self)
                for (name, value) in [
                    ("start", result.start), ("duration", result.duration),
                    ("finalizedThrough", result.finalizedThrough), ("arrival", result.arrival ?? 0),
                    ("inputSeconds", result.inputSeconds ?? 0),
                ] where value < 0 {
                    throw fail(name, "\(value) is out of range")
                }
                seq = result.seq
                events.append(.result(result))
            case .volatileRange:
                let report = try decode(VolatileRange.self)
                for (name, value) in [("start", report.start), ("duration", report.duration)] where value < 0 {
                    throw fail(name, "\(value) is out of range")
                }
                guard report.handler >= 0 else { throw fail("handler", "\(report.handler) is out of range") }
                seq = report.seq
                events.append(.volatileRange(report))
            case .end, .session:
                let line = try decode(End.self)
                seq = line.seq
                end = line
            }
            guard seq == events.count - (kind == .end ? 0 : 1) else {
                throw fail("seq", "\(seq) where \(events.count - (kind == .end ? 0 : 1)) was next")
            }
        }
        guard let session else { throw .malformed(path: path, line: 1, field: "type", reason: "no session line") }
        guard let end else {
            throw .malformed(
                path: path, line: lines.count, field: "type", reason: "no end line (the recording stopped early)")
        }
        var streams: [StreamEnding] = []
        for ending in end.streams {
            if ending == "finished" {
                streams.append(.finished)
            } else if ending == "open" {
                streams.append(.open)
            } else if ending.hasPrefix("threw: ") {
                streams.append(.threw(String(ending.dropFirst("threw: ".count))))
            } else {
                throw .malformed(
                    path: path, line: lines.count, field: "streams",
                    reason: "'\(ending)' is not finished, open or threw: …")
            }
        }
        let trace = SessionTrace(session: session, events: events, streams: streams)
        guard trace.results.count == end.results else {
            throw .malformed(
                path: path, line: lines.count, field: "results",
                reason: "the end line counts \(end.results) results; the trace has \(trace.results.count)")
        }
        return trace
    }
}

/// Why a trace cannot be used.
public enum TraceError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformed(path: String, line: Int, field: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): \(reason)"
        case .malformed(let path, let line, let field, let reason):
            return field.isEmpty ? "\(path):\(line): \(reason)" : "\(path):\(line): field '\(field)': \(reason)"
        }
    }
}
