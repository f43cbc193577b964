import Foundation
import SpeechCore
import SpeechReference

/// How a call or query ended, in the words scenarios use: `returns`, `cancelled`, `fails:<code>`
/// (an SFSpeechError code's name, `engine` or `usage`), `time:<seconds>` or `time:nil` (what
/// `analyzeSequence` returned), or a query's answer (`true`, `false`, `installed`, `nil`, `format`,
/// an asset status).
public enum CallOutcome: Hashable, Sendable, CustomStringConvertible {
    case returns
    case cancelled
    case fails(String)
    case returnedTime(Double?)
    case answer(String)

    public var description: String {
        switch self {
        case .returns: "returns"
        case .cancelled: "cancelled"
        case .fails(let code): "fails:\(code)"
        case .returnedTime(let time): "time:" + (time.map { String(format: "%.3f", $0) } ?? "nil")
        case .answer(let answer): answer
        }
    }
}

/// An expected outcome, and whether it holds only on the scripted engine (`exact:` in the file).
public struct Expectation: Hashable, Sendable {
    public var outcome: CallOutcome
    public var exactOnly: Bool
}

/// One step of a scenario's timeline, decoded from `{"do": "<kind>", …}`: an unknown kind, a field
/// the kind does not take, or a malformed value fails when the file is read, not when it runs.
public enum ScenarioStep: Hashable, Sendable {
    /// Every step a scenario file can name, with the fields it takes: the one table that
    /// decoding, the runner's messages and the reports read. A new step is a new case here, and
    /// the compiler then asks for its fields, its decoding and its name.
    public enum Name: String, CaseIterable, Sendable {
        case feed
        case feedAsync
        case analyze
        case startInput
        case endPreviousInput
        case endInput
        case finalize
        case finish
        case finalizeAndFinish
        case finishAtEndOfInput
        case cancelBefore
        case cancelAndFinishNow
        case addModule
        case removeModule
        case `await`
        case checkPending
        case cancelTask
        case markHandler
        case replaceHandler
        case checkHandler
        case checkAttributes
        case checkModuleCount
        case checkReserved
        case checkVolatileRange
        case checkStreams
        case checkResults
        case reserve
        case release
        case status
        case installRequest
        case setContext
        case prepare
        case bestFormat
        case useModuleElsewhere

        /// The fields the step takes besides `do`.
        var fields: Set<String> {
            let call: Set<String> = ["expect", "async", "ref"], audio: Set<String> = ["seconds", "start", "sampleRate"]
            switch self {
            case .feed: return audio.union(call)
            case .feedAsync: return audio.union(["value", "expect"])
            case .analyze: return audio.union(["expect"])
            case .startInput: return ["expect"]
            case .endPreviousInput: return []
            case .endInput: return []
            case .finalize: return call.union(["time"])
            case .finish: return call.union(["time"])
            case .finalizeAndFinish: return call.union(["time"])
            case .finishAtEndOfInput: return call
            case .cancelBefore: return ["time"]
            case .cancelAndFinishNow: return []
            case .addModule: return call.union(["value", "locale"])
            case .removeModule: return call.union(["module"])
            case .`await`: return ["ref", "expect"]
            case .checkPending: return ["ref"]
            case .cancelTask: return ["ref"]
            case .markHandler: return []
            case .replaceHandler: return []
            case .checkHandler: return ["value"]
            case .checkAttributes: return ["value", "module", "expect"]
            case .checkModuleCount: return ["value"]
            case .checkReserved: return ["value"]
            case .checkVolatileRange: return ["value"]
            case .checkStreams: return ["value", "module"]
            case .checkResults: return ["value"]
            case .reserve: return ["locale", "expect"]
            case .release: return ["locale", "expect"]
            case .status: return ["expect"]
            case .installRequest: return ["expect"]
            case .setContext: return call
            case .prepare: return call
            case .bestFormat: return ["expect"]
            case .useModuleElsewhere: return call.union(["module"])
            }
        }
    }

    /// Generated noise: its length, its start (nil: right after the previous buffer), its rate.
    public struct Audio: Hashable, Sendable {
        public var seconds: Double
        public var start: Double?
        public var sampleRate: Double
    }

    /// A call of the analyzer: awaited in place and checked against `expect`, or (with a name)
    /// started and left running for a later `await` of that name.
    public struct Call: Hashable, Sendable {
        public var expect: Expectation?
        public var startedAs: String?
    }

    public enum ModuleKind: String, ClosedSetValue, Hashable {
        case transcriber, dictation, detector
        public static let valueName = "module kind"
    }
    public enum StreamState: String, ClosedSetValue, Hashable {
        case open, ended, failed
        public static let valueName = "stream state"
    }

    /// What the volatile range handler must have seen.
    public enum HandlerCheck: Hashable, Sendable {
        case changedEnd, quietSinceMark, oldQuiet, newCalled, matchesProperty, none
        case changedStartAtLeast(Double)
    }

    /// Attribute rules of the published results with text.
    public enum AttributeCheck: String, ClosedSetValue, Hashable {
        case time, notime, confidence, noconfidence, timesInRange
        case severalAlternatives = "alternatives>1"
        case oneAlternative = "alternatives=1"
        public static let valueName = "attribute check"
    }

    /// The analyzer's `volatileRange`: nil, or a bound on its start or end.
    public enum RangeCheck: Hashable, Sendable {
        case none
        case startAtLeast(Double)
        case endAtLeast(Double)
    }

    case feed(Audio, Call)
    /// Audio into the autonomous input sequence (started on first use); unless `waits` is false
    /// the step waits until the analyzer has taken it.
    case feedAsync(Audio, waits: Bool, startExpect: Expectation?)
    case analyze(Audio, expect: Expectation?)
    case startInput(expect: Expectation?)
    case endPreviousInput
    case endInput
    case finalize(through: Double?, Call)
    case finish(after: Double?, Call)
    case finalizeAndFinish(through: Double?, Call)
    case finishAtEndOfInput(Call)
    case cancelBefore(Double?)
    case cancelAndFinishNow
    case addModule(ModuleKind, locale: String?, Call)
    case removeModule(index: Int?, Call)
    case await(String, expect: Expectation?)
    case checkPending(String)
    case cancelTask(String)
    case markHandler
    case replaceHandler
    case checkHandler(HandlerCheck)
    case checkAttributes(AttributeCheck, module: Int, exactOnly: Bool)
    case checkModuleCount(Int)
    case checkReserved(Int)
    case checkVolatileRange(RangeCheck)
    case checkStreams(module: Int, StreamState)
    case checkResults(String)
    case reserve(locale: String, expect: Expectation?)
    case release(locale: String, expect: Expectation?)
    case status(expect: Expectation?)
    case installRequest(expect: Expectation?)
    case setContext(Call)
    case prepare(Call)
    case bestFormat(expect: Expectation?)
    case useModuleElsewhere(module: Int, Call)

    /// The step's kind, as the file names it.
    /// The step's name in the table of steps.
    public var name: Name {
        switch self {
        case .feed: .feed
        case .feedAsync: .feedAsync
        case .analyze: .analyze
        case .startInput: .startInput
        case .endPreviousInput: .endPreviousInput
        case .endInput: .endInput
        case .finalize: .finalize
        case .finish: .finish
        case .finalizeAndFinish: .finalizeAndFinish
        case .finishAtEndOfInput: .finishAtEndOfInput
        case .cancelBefore: .cancelBefore
        case .cancelAndFinishNow: .cancelAndFinishNow
        case .addModule: .addModule
        case .removeModule: .removeModule
        case .`await`: .`await`
        case .checkPending: .checkPending
        case .cancelTask: .cancelTask
        case .markHandler: .markHandler
        case .replaceHandler: .replaceHandler
        case .checkHandler: .checkHandler
        case .checkAttributes: .checkAttributes
        case .checkModuleCount: .checkModuleCount
        case .checkReserved: .checkReserved
        case .checkVolatileRange: .checkVolatileRange
        case .checkStreams: .checkStreams
        case .checkResults: .checkResults
        case .reserve: .reserve
        case .release: .release
        case .status: .status
        case .installRequest: .installRequest
        case .setContext: .setContext
        case .prepare: .prepare
        case .bestFormat: .bestFormat
        case .useModuleElsewhere: .useModuleElsewhere
        }
    }

    /// The name as scenario files write it.
    public var kind: String { name.rawValue }

    /// The locale a step names (a module it adds, a reservation), for the backend's locale check.
    public var locale: String? {
        switch self {
        case .addModule(_, let locale, _): locale
        case .reserve(let locale, _), .release(let locale, _): locale
        default: nil
        }
    }

    /// The audio a step feeds, and what it expects of the feeding call.
    public var audio: (Audio, Expectation?)? {
        switch self {
        case .feed(let audio, let call): (audio, call.expect)
        case .feedAsync(let audio, _, let expect): (audio, expect)
        case .analyze(let audio, let expect): (audio, expect)
        default: nil
        }
    }
}

extension ScenarioStep: Decodable {
    struct Key: CodingKey, Hashable {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The fields each kind takes besides `do`.

    static let callOutcomes = "returns, cancelled, fails:<code>"

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let kind = try container.decode(String.self, forKey: Key("do"))
        guard let name = Name(rawValue: kind) else {
            throw DecodingError.dataCorruptedError(
                forKey: Key("do"), in: container,
                debugDescription:
                    "unknown step '\(kind)' (expected one of: \(Name.allCases.map(\.rawValue).sorted().joined(separator: ", ")))"
            )
        }
        let allowed = name.fields
        for key in container.allKeys where key.stringValue != "do" && !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "'\(kind)' takes no field '\(key.stringValue)'")
        }
        func value<T: Decodable>(_ name: String, _ type: T.Type = T.self) throws -> T? {
            try container.decodeIfPresent(T.self, forKey: Key(name))
        }
        func invalid(_ name: String, _ reason: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: Key(name), in: container, debugDescription: reason)
        }
        func required<T: Decodable>(_ name: String, _ type: T.Type = T.self) throws -> T {
            guard let found: T = try value(name) else { throw invalid(name, "'\(kind)' needs '\(name)'") }
            return found
        }
        /// `expect`, parsed and checked against what this kind of step can report.
        func expectation(_ accepts: (CallOutcome) -> Bool, _ wanted: String) throws -> Expectation? {
            guard let text: String = try value("expect") else { return nil }
            let exactOnly = text.hasPrefix("exact:")
            guard let outcome = Self.outcome(exactOnly ? String(text.dropFirst(6)) : text), accepts(outcome) else {
                throw invalid("expect", "unknown outcome '\(text)' of '\(kind)' (expected one of: \(wanted))")
            }
            return Expectation(outcome: outcome, exactOnly: exactOnly)
        }
        let callExpectation = {
            try expectation(
                {
                    switch $0 {
                    case .returns, .cancelled, .fails: true
                    default: false
                    }
                }, Self.callOutcomes)
        }
        func answers(_ names: Set<String>, failures: Bool) throws -> Expectation? {
            try expectation(
                {
                    switch $0 {
                    case .answer(let answer): names.contains(answer)
                    case .fails: failures
                    default: false
                    }
                }, (names.sorted() + (failures ? ["fails:<code>"] : [])).joined(separator: ", "))
        }
        func call() throws -> Call {
            let startedAs: String? = try value("async") == true ? (try value("ref") ?? "") : nil
            if startedAs == nil, try value("ref", String.self) != nil {
                throw invalid("ref", "a name is given to a call started with \"async\": true")
            }
            return Call(expect: try callExpectation(), startedAs: startedAs)
        }
        func audio() throws -> Audio {
            let seconds = try value("seconds") ?? 0.1, rate = try value("sampleRate") ?? 16_000.0
            guard seconds >= 0, rate > 0 else {
                throw invalid(seconds < 0 ? "seconds" : "sampleRate", "must be positive")
            }
            return Audio(seconds: seconds, start: try value("start"), sampleRate: rate)
        }
        func enumeration<E: ClosedSetValue>(_ name: String, _ type: E.Type, default: E? = nil) throws -> E {
            guard let text: String = try `default` == nil ? required(name) : value(name) else { return `default`! }
            guard let found = E(rawValue: text) else { throw invalid(name, E.unknown(text)) }
            return found
        }
        func count(_ name: String) throws -> Int {
            let text: String = try required(name)
            guard let number = Int(text), number >= 0 else { throw invalid(name, "'\(text)' is not a count") }
            return number
        }
        switch name {
        case .feed: self = .feed(try audio(), try call())
        case .feedAsync:
            let wait: String? = try value("value")
            guard wait == nil || wait == "nowait" else {
                throw invalid("value", "only 'nowait' (do not wait for the analyzer)")
            }
            self = .feedAsync(try audio(), waits: wait == nil, startExpect: try callExpectation())
        case .analyze:
            let expect = try expectation(
                {
                    switch $0 {
                    case .returnedTime, .cancelled, .fails: true
                    default: false
                    }
                }, "time:<seconds>, time:nil, cancelled, fails:<code>")
            self = .analyze(try audio(), expect: expect)
        case .startInput: self = .startInput(expect: try callExpectation())
        case .endPreviousInput: self = .endPreviousInput
        case .endInput: self = .endInput
        case .finalize: self = .finalize(through: try value("time"), try call())
        case .finish: self = .finish(after: try value("time"), try call())
        case .finalizeAndFinish: self = .finalizeAndFinish(through: try value("time"), try call())
        case .finishAtEndOfInput: self = .finishAtEndOfInput(try call())
        case .cancelBefore: self = .cancelBefore(try value("time"))
        case .cancelAndFinishNow: self = .cancelAndFinishNow
        case .addModule:
            self = .addModule(
                try enumeration("value", ModuleKind.self, default: .transcriber), locale: try value("locale"),
                try call())
        case .removeModule: self = .removeModule(index: try value("module"), try call())
        case .`await`: self = .await(try required("ref"), expect: try callExpectation())
        case .checkPending: self = .checkPending(try required("ref"))
        case .cancelTask: self = .cancelTask(try required("ref"))
        case .markHandler: self = .markHandler
        case .replaceHandler: self = .replaceHandler
        case .checkHandler:
            let text: String = try required("value")
            guard let check = Self.handlerCheck(text) else {
                throw invalid(
                    "value",
                    "unknown handler check '\(text)' (expected one of: changedEnd, changedStart>=<s>, quietSinceMark, oldQuiet, newCalled, matchesProperty, none)"
                )
            }
            self = .checkHandler(check)
        case .checkAttributes:
            let expect: String? = try value("expect")
            guard expect == nil || expect == "exact:" else {
                throw invalid("expect", "only 'exact:' (holds on the scripted engine only)")
            }
            self = .checkAttributes(
                try enumeration("value", AttributeCheck.self), module: try value("module") ?? 0,
                exactOnly: expect != nil)
        case .checkModuleCount: self = .checkModuleCount(try count("value"))
        case .checkReserved: self = .checkReserved(try count("value"))
        case .checkVolatileRange:
            let text: String = try required("value")
            guard let check = Self.rangeCheck(text) else {
                throw invalid("value", "unknown range check '\(text)' (expected one of: nil, start>=<s>, end>=<s>)")
            }
            self = .checkVolatileRange(check)
        case .checkStreams:
            self = .checkStreams(module: try value("module") ?? 0, try enumeration("value", StreamState.self))
        case .checkResults: self = .checkResults(try required("value"))
        case .reserve:
            self = .reserve(
                locale: try value("locale") ?? "en-US", expect: try answers(["true", "false"], failures: true))
        case .release:
            self = .release(
                locale: try value("locale") ?? "en-US", expect: try answers(["true", "false"], failures: false))
        case .status:
            self = .status(
                expect: try answers(["unsupported", "supported", "downloading", "installed"], failures: false))
        case .installRequest: self = .installRequest(expect: try answers(["installed", "nil"], failures: true))
        case .setContext: self = .setContext(try call())
        case .prepare: self = .prepare(try call())
        case .bestFormat: self = .bestFormat(expect: try answers(["format", "nil"], failures: false))
        case .useModuleElsewhere: self = .useModuleElsewhere(module: try value("module") ?? 0, try call())
        }
    }

    /// An outcome as written in a file; nil when it is not one.
    static func outcome(_ text: String) -> CallOutcome? {
        switch text {
        case "returns": return .returns
        case "cancelled": return .cancelled
        case "time:nil": return .returnedTime(nil)
        default:
            if text.hasPrefix("fails:") {
                let code = String(text.dropFirst(6))
                return SFSpeechError.Code.names.values.contains(code) || code == "engine" || code == "usage"
                    ? .fails(code) : nil
            }
            if text.hasPrefix("time:") { return Double(text.dropFirst(5)).map { .returnedTime($0) } }
            return text.isEmpty || text.contains(":") ? nil : .answer(text)
        }
    }

    static func handlerCheck(_ text: String) -> HandlerCheck? {
        switch text {
        case "changedEnd": return .changedEnd
        case "quietSinceMark": return .quietSinceMark
        case "oldQuiet": return .oldQuiet
        case "newCalled": return .newCalled
        case "matchesProperty": return .matchesProperty
        case "none": return HandlerCheck.none
        default:
            guard text.hasPrefix("changedStart>="), let bound = Double(text.dropFirst("changedStart>=".count)) else {
                return nil
            }
            return .changedStartAtLeast(bound)
        }
    }

    static func rangeCheck(_ text: String) -> RangeCheck? {
        if text == "nil" { return RangeCheck.none }
        for (prefix, make) in [("start>=", RangeCheck.startAtLeast), ("end>=", RangeCheck.endAtLeast)]
        where text.hasPrefix(prefix) {
            return Double(text.dropFirst(prefix.count)).map(make)
        }
        return nil
    }
}
