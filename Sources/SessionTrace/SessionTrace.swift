import Foundation

/// One recorded analysis session (docs/session-traces.md, version 1), decoded strictly: every line
/// and field is checked at the boundary, and a bad one is a ``TraceError`` naming the file, the
/// line and the field.
public struct SessionTrace: Sendable, Equatable {
    public struct Platform: Sendable, Equatable {
        public var system: String
        public var version: String
        /// `reference` (the harness's analyzer) or `apple`.
        public var speech: String
    }

    public struct Audio: Sendable, Equatable {
        public var name: String
        public var sha256: String
        public var sampleRate: Double
        public var channels: Int
        public var frames: Int
    }

    public struct Module: Sendable, Equatable {
        public enum Kind: String, Sendable, CaseIterable {
            case speechTranscriber = "SpeechTranscriber"
            case dictationTranscriber = "DictationTranscriber"
            case speechDetector = "SpeechDetector"
        }
        public var index: Int
        public var kind: Kind
        public var locale: String?
        public var options: [String: [String]]
    }

    public enum Input: String, Sendable, CaseIterable { case file, stream }

    public struct Session: Sendable, Equatable {
        public var scenario: String
        public var platform: Platform
        public var audio: Audio
        public var modules: [Module]
        public var input: Input
        public var bufferFrames: Int?
    }

    public struct Call: Sendable, Equatable {
        public enum Outcome: String, Sendable, CaseIterable { case returned, threw }
        public var seq: Int
        public var name: String
        public var arguments: [String: String]
        public var inputSeconds: Double
        public var outcome: Outcome
        public var value: String?
        public var error: String?
    }

    public struct Run: Sendable, Equatable {
        public var text: String
        public var start: Double?
        public var duration: Double?
        public var confidence: Double?
    }

    public struct Result: Sendable, Equatable {
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
    }

    public enum Event: Sendable, Equatable {
        case call(Call)
        case result(Result)
    }

    /// How a module's result sequence ended.
    public enum StreamEnding: Sendable, Equatable {
        case finished
        case threw(String)
    }

    public var session: Session
    public var events: [Event]
    public var streams: [StreamEnding]

    public var calls: [Call] { events.compactMap { if case .call(let c) = $0 { return c } else { return nil } } }
    public var results: [Result] { events.compactMap { if case .result(let r) = $0 { return r } else { return nil } } }

    /// Reads a trace file.
    public static func read(path: String) throws(TraceError) -> SessionTrace {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "cannot read the file")
        }
        return try decode(data, path: path)
    }

    /// Decodes a trace's JSON lines; `path` names it in errors.
    public static func decode(_ data: Data, path: String) throws(TraceError) -> SessionTrace {
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path, reason: "not UTF-8 text")
        }
        var session: Session?
        var events: [Event] = []
        var streams: [StreamEnding]?
        var expectedResults = 0
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, raw) in lines.enumerated() where !raw.trimmingCharacters(in: .whitespaces).isEmpty {
            var line = TraceLine(path: path, number: offset + 1)
            try line.parse(raw)
            if streams != nil { throw line.error("", "a line after the end line") }
            let type = try line.string("type")
            switch type {
            case "session":
                guard session == nil, events.isEmpty else { throw line.error("type", "a second session line") }
                session = try line.session()
            case "call", "result", "end":
                guard session != nil else { throw line.error("type", "the first line must be the session line") }
                let seq = try line.integer("seq")
                guard seq == events.count else { throw line.error("seq", "\(seq) where \(events.count) was next") }
                switch type {
                case "call": events.append(.call(try line.call(seq)))
                case "result": events.append(.result(try line.result(seq)))
                default:
                    expectedResults = try line.integer("results")
                    var endings: [StreamEnding] = []
                    for ending in try line.strings("streams") {
                        if ending == "finished" {
                            endings.append(.finished)
                        } else if ending.hasPrefix("threw: ") {
                            endings.append(.threw(String(ending.dropFirst("threw: ".count))))
                        } else {
                            throw line.error("streams", "'\(ending)' is neither finished nor threw: …")
                        }
                    }
                    streams = endings
                }
            default:
                throw line.error("type", "'\(type)' is not one of session, call, result, end")
            }
            try line.finish()
        }
        guard let session else { throw .malformed(path: path, line: 1, field: "type", reason: "no session line") }
        guard let streams else {
            throw .malformed(
                path: path, line: lines.count, field: "type", reason: "no end line (the recording stopped early)")
        }
        let trace = SessionTrace(session: session, events: events, streams: streams)
        guard trace.results.count == expectedResults else {
            throw .malformed(
                path: path, line: lines.count, field: "results",
                reason: "the end line counts \(expectedResults) results; the trace has \(trace.results.count)")
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

/// One line being decoded: its fields, each taken once, so that a field nobody asked for is an
/// error too.
struct TraceLine {
    let path: String
    let number: Int
    private var fields: [String: Any] = [:]
    private var prefix = ""

    init(path: String, number: Int) {
        self.path = path
        self.number = number
    }

    func error(_ field: String, _ reason: String) -> TraceError {
        .malformed(path: path, line: number, field: prefix + field, reason: reason)
    }

    mutating func parse(_ raw: Substring) throws(TraceError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(raw.utf8)),
            let fields = object as? [String: Any]
        else { throw error("", "not a JSON object") }
        self.fields = fields
    }

    /// Every field was used.
    func finish() throws(TraceError) {
        if let extra = fields.keys.sorted().first { throw error(extra, "not a field of this line") }
    }

    private mutating func take(_ name: String) -> Any? { fields.removeValue(forKey: name) }

    mutating func string(_ name: String) throws(TraceError) -> String {
        guard let value = take(name) else { throw error(name, "missing") }
        guard let text = value as? String else { throw error(name, "not a string") }
        return text
    }

    mutating func optionalString(_ name: String) throws(TraceError) -> String? {
        guard let value = take(name) else { return nil }
        guard let text = value as? String else { throw error(name, "not a string") }
        return text
    }

    mutating func number(_ name: String, minimum: Double = 0) throws(TraceError) -> Double {
        guard let value = take(name) else { throw error(name, "missing") }
        return try checkedNumber(value, name, minimum: minimum)
    }

    mutating func optionalNumber(_ name: String, minimum: Double = 0) throws(TraceError) -> Double? {
        guard let value = take(name) else { return nil }
        return try checkedNumber(value, name, minimum: minimum)
    }

    private func checkedNumber(_ value: Any, _ name: String, minimum: Double) throws(TraceError) -> Double {
        guard let number = value as? NSNumber, !Self.isBoolean(value) else { throw error(name, "not a number") }
        let double = number.doubleValue
        guard double.isFinite, double >= minimum else { throw error(name, "\(double) is out of range") }
        return double
    }

    /// JSON `true`/`false` as Foundation decodes them (an NSNumber subclass that 0 and 1 are not).
    static func isBoolean(_ value: Any) -> Bool { String(describing: type(of: value)).contains("Boolean") }

    mutating func integer(_ name: String) throws(TraceError) -> Int {
        let value = try number(name)
        guard value == value.rounded(), value < 1e15 else { throw error(name, "\(value) is not a whole number") }
        return Int(value)
    }

    mutating func bool(_ name: String) throws(TraceError) -> Bool {
        guard let value = take(name) else { throw error(name, "missing") }
        guard Self.isBoolean(value), let flag = value as? Bool else { throw error(name, "not true or false") }
        return flag
    }

    mutating func optionalBool(_ name: String) throws(TraceError) -> Bool? {
        fields[name] == nil ? nil : try bool(name)
    }

    mutating func strings(_ name: String) throws(TraceError) -> [String] {
        guard let value = take(name) else { throw error(name, "missing") }
        guard let list = value as? [Any], let texts = list as? [String], texts.count == list.count else {
            throw error(name, "not a list of strings")
        }
        return texts
    }

    mutating func enumeration<T: RawRepresentable & CaseIterable>(
        _ name: String, _ type: T.Type
    ) throws(TraceError) -> T
    where T.RawValue == String {
        let text = try string(name)
        guard let value = T(rawValue: text) else {
            throw error(name, "'\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// A nested object, decoded by `body` with the field names prefixed.
    mutating func object<T>(_ name: String, _ body: (inout TraceLine) throws(TraceError) -> T) throws(TraceError) -> T {
        guard let value = take(name) else { throw error(name, "missing") }
        return try nested(value, name, body)
    }

    private func nested<T>(
        _ value: Any, _ name: String, _ body: (inout TraceLine) throws(TraceError) -> T
    ) throws(TraceError) -> T {
        guard let fields = value as? [String: Any] else { throw error(name, "not an object") }
        var inner = TraceLine(path: path, number: number)
        inner.fields = fields
        inner.prefix = prefix + name + "."
        let result = try body(&inner)
        try inner.finish()
        return result
    }

    mutating func objects<T>(
        _ name: String, _ body: (inout TraceLine) throws(TraceError) -> T
    ) throws(TraceError) -> [T] {
        guard let value = take(name) else { throw error(name, "missing") }
        guard let list = value as? [Any] else { throw error(name, "not a list") }
        var out: [T] = []
        for (index, item) in list.enumerated() { out.append(try nested(item, "\(name)[\(index)]", body)) }
        return out
    }

    mutating func optionalObjects<T>(
        _ name: String, _ body: (inout TraceLine) throws(TraceError) -> T
    ) throws(TraceError) -> [T]? {
        fields[name] == nil ? nil : try objects(name, body)
    }

    mutating func stringMap(_ name: String) throws(TraceError) -> [String: String] {
        guard let value = take(name) else { throw error(name, "missing") }
        guard let map = value as? [String: Any], let strings = map as? [String: String], strings.count == map.count
        else {
            throw error(name, "not an object of strings")
        }
        return strings
    }

    mutating func listMap(_ name: String) throws(TraceError) -> [String: [String]] {
        guard let value = take(name) else { throw error(name, "missing") }
        guard let map = value as? [String: Any] else { throw error(name, "not an object") }
        var out: [String: [String]] = [:]
        for (key, item) in map {
            guard let list = item as? [Any], let texts = list as? [String], texts.count == list.count else {
                throw error("\(name).\(key)", "not a list of strings")
            }
            out[key] = texts
        }
        return out
    }

    // MARK: the line kinds

    mutating func session() throws(TraceError) -> SessionTrace.Session {
        let version = try integer("version")
        guard version == 1 else { throw error("version", "version \(version) is not supported (expected 1)") }
        let scenario = try string("scenario")
        let platform = try object("platform") { (line: inout TraceLine) throws(TraceError) in
            SessionTrace.Platform(
                system: try line.string("system"), version: try line.string("version"),
                speech: try line.string("speech"))
        }
        let audio = try object("audio") { (line: inout TraceLine) throws(TraceError) in
            let sha = try line.string("sha256")
            guard sha.count == 64, sha.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                throw line.error("sha256", "not 64 lowercase hex digits")
            }
            return SessionTrace.Audio(
                name: try line.string("name"), sha256: sha, sampleRate: try line.number("sampleRate"),
                channels: try line.integer("channels"), frames: try line.integer("frames"))
        }
        let modules = try objects("modules") { (line: inout TraceLine) throws(TraceError) in
            SessionTrace.Module(
                index: try line.integer("index"), kind: try line.enumeration("kind", SessionTrace.Module.Kind.self),
                locale: try line.optionalString("locale"), options: try line.listMap("options"))
        }
        guard !modules.isEmpty else { throw error("modules", "empty") }
        let input = try enumeration("input", SessionTrace.Input.self)
        let bufferFrames = try optionalNumber("bufferFrames", minimum: 1).map { Int($0) }
        return SessionTrace.Session(
            scenario: scenario, platform: platform, audio: audio, modules: modules, input: input,
            bufferFrames: bufferFrames)
    }

    mutating func call(_ seq: Int) throws(TraceError) -> SessionTrace.Call {
        let call = SessionTrace.Call(
            seq: seq, name: try string("name"), arguments: try stringMap("arguments"),
            inputSeconds: try number("inputSeconds"),
            outcome: try enumeration("outcome", SessionTrace.Call.Outcome.self),
            value: try optionalString("value"), error: try optionalString("error"))
        if (call.outcome == .threw) != (call.error != nil) {
            throw error(
                "error", call.outcome == .threw ? "missing for a call that threw" : "present for a call that returned")
        }
        return call
    }

    mutating func result(_ seq: Int) throws(TraceError) -> SessionTrace.Result {
        SessionTrace.Result(
            seq: seq, module: try integer("module"), start: try number("start"), duration: try number("duration"),
            finalizedThrough: try number("finalizedThrough"), isFinal: try bool("isFinal"),
            text: try optionalString("text"),
            runs: try optionalObjects("runs") { (line: inout TraceLine) throws(TraceError) in
                SessionTrace.Run(
                    text: try line.string("text"), start: try line.optionalNumber("start"),
                    duration: try line.optionalNumber("duration"), confidence: try line.optionalNumber("confidence"))
            },
            alternatives: fields["alternatives"] == nil ? nil : try strings("alternatives"),
            speechDetected: try optionalBool("speechDetected"))
    }
}
