// The session-trace format, version 1 (docs/session-traces.md), as this recorder writes it: JSON
// lines, keys sorted, one object per line. The first line describes the session, then every call
// and every result in the order the program saw them, then an end line. Times are seconds of the
// audio, rounded to microseconds, so two recordings of the same session diff line by line (a
// result and a call's return may trade places between runs; `trace diff` compares by clause).
import Foundation

/// One line of a trace.
enum TraceLine: Encodable, Sendable {
    case session(Session)
    case call(Call)
    case result(Result)
    case volatileRange(VolatileRange)
    case end(End)

    struct Platform: Encodable, Sendable {
        var system: String
        var version: String
        /// "reference" on Linux (the harness's SpeechAnalyzer), "apple" with Apple's framework.
        var speech: String
    }

    struct Audio: Encodable, Sendable {
        var name: String
        var sha256: String
        /// SHA-256 of the first second of the audio as 16 kHz mono 16-bit samples (little-endian):
        /// how a replaying engine, which sees samples and not files, finds this recording.
        var headSHA256: String?
        /// The same digest of the first 0.1 s, 0.2 s, … 1 s: a replaying engine narrows its choice
        /// as the audio comes, so that results due within the first second come on time.
        var headPrefixSHA256: [String]?
        var sampleRate: Double
        var channels: Int
        var frames: Int64
    }

    struct Module: Encodable, Sendable {
        var index: Int
        var kind: String
        var locale: String?
        var options: [String: [String]]
    }

    struct Session: Encodable, Sendable {
        let type = "session"
        var version = 1
        var scenario: String
        var platform: Platform
        var audio: Audio
        var modules: [Module]
        /// "file" (the analyzer reads the file) or "stream" (buffers of `bufferFrames`).
        var input: String
        var bufferFrames: Int?
        /// "realtime" when buffers were given at the pace of their audio (results then carry
        /// `arrival`); absent when given as fast as the program could.
        var pacing: String?
    }

    struct Call: Encodable, Sendable {
        let type = "call"
        var seq = 0
        var name: String
        var arguments: [String: String]
        /// Audio given to the analyzer before the call, in seconds.
        var inputSeconds: Double
        /// "returned" or "threw".
        var outcome: String
        var value: String?
        var error: String?
        /// Under real-time pacing, where the audio was when the call returned or threw.
        var arrival: Double?
    }

    struct Run: Encodable, Sendable {
        var text: String
        var start: Double?
        var duration: Double?
        var confidence: Double?
    }

    struct Result: Encodable, Sendable {
        let type = "result"
        var seq = 0
        var module: Int
        var start: Double
        var duration: Double
        var finalizedThrough: Double
        var isFinal: Bool
        var text: String?
        var runs: [Run]?
        var alternatives: [String]?
        var speechDetected: Bool?
        /// Under real-time pacing, where the audio was (seconds since the first buffer's clock
        /// started) when the program received this result: its latency is this minus the range's end.
        var arrival: Double?
        /// Under real-time pacing, the audio the program had given when it received this result.
        var inputSeconds: Double?
    }

    /// A call of a volatile range handler: which handler (in the order they were set, from 0) and
    /// what it was told.
    struct VolatileRange: Encodable, Sendable {
        let type = "volatileRange"
        var seq = 0
        var handler: Int
        var start: Double
        var duration: Double
        var changedStart: Bool
        var changedEnd: Bool
    }

    struct End: Encodable, Sendable {
        let type = "end"
        var seq = 0
        var results: Int
        /// The result sequences' endings, per module: "finished" or the error.
        var streams: [String]
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .session(let line): try line.encode(to: encoder)
        case .call(let line): try line.encode(to: encoder)
        case .result(let line): try line.encode(to: encoder)
        case .volatileRange(let line): try line.encode(to: encoder)
        case .end(let line): try line.encode(to: encoder)
        }
    }

    /// The line with its place in the session's order and, under real-time pacing, its time.
    func numbered(_ seq: Int, at reading: (arrival: Double?, inputSeconds: Double?)) -> TraceLine {
        switch self {
        case .session: return self
        case .call(var line):
            line.seq = seq
            line.arrival = reading.arrival
            return .call(line)
        case .result(var line):
            line.seq = seq
            (line.arrival, line.inputSeconds) = reading
            return .result(line)
        case .volatileRange(var line):
            line.seq = seq
            return .volatileRange(line)
        case .end(var line):
            line.seq = seq
            return .end(line)
        }
    }

    /// Seconds rounded to microseconds.
    static func seconds(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}

/// The lines of one session in the order they happened, calls and results timed by the clock
/// under real-time pacing. Results arrive from other tasks and
/// volatile range reports from the analyzer's handler, which cannot wait, so appending is
/// synchronous under a lock.
final class TraceLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [TraceLine] = []
    private var next = 0
    private let clock: InputClock

    init(clock: InputClock) { self.clock = clock }

    /// Appends `line`, numbering it after every line before it (the session line is not numbered).
    func append(_ line: TraceLine) {
        lock.lock()
        defer { lock.unlock() }
        if case .session = line {
            stored.append(line)
            return
        }
        stored.append(line.numbered(next, at: clock.reading()))
        next += 1
    }

    var lines: [TraceLine] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// How many result lines there are.
    var resultCount: Int { lines.filter { if case .result = $0 { return true } else { return false } }.count }

    /// The trace as JSON lines.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = Data()
        for line in lines {
            data += try encoder.encode(line)
            data += Data("\n".utf8)
        }
        return data
    }
}
