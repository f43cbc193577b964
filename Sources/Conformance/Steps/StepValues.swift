import Foundation
import SpeechCore
import SpeechReference

/// How a call or query ended: it returned, was cancelled, failed (``CallFailure``), returned a
/// time (`analyzeSequence`), answered (`true`, `installed`, `nil`, `format`, an asset status), or
/// reported a download's progress. Files write it as a JSON value (``Expectation``); reports print
/// it as `returns`, `fails:<code>`, `time:<seconds>`.
public enum CallOutcome: Hashable, Sendable, CustomStringConvertible {
    case returns
    case cancelled
    case fails(CallFailure)
    case returnedTime(Double?)
    case answer(String)
    /// How the last download's `Progress` moved; nil when it never moved.
    case downloadProgress(DownloadProgressSummary?)

    public var description: String {
        switch self {
        case .returns: "returns"
        case .cancelled: "cancelled"
        case .fails(let failure): "fails:\(failure)"
        case .returnedTime(let time): "time:" + (time.map { String(format: "%.3f", $0) } ?? "nil")
        case .answer(let answer): answer
        case .downloadProgress(let summary): summary.map { "\($0)" } ?? "none"
        }
    }

    /// Whether this outcome meets `expected`: the same case and values, times to the millisecond
    /// and download seconds to the tenth, as files write them.
    public func meets(_ expected: CallOutcome) -> Bool {
        switch (self, expected) {
        case (.returnedTime(let time?), .returnedTime(let wanted?)):
            (time * 1_000).rounded() == (wanted * 1_000).rounded()
        case (.downloadProgress(let summary?), .downloadProgress(let wanted?)):
            summary.steps == wanted.steps && summary.percent == wanted.percent
                && (summary.seconds * 10).rounded() == (wanted.seconds * 10).rounded()
        default: self == expected
        }
    }
}

/// How a call failed, as a scenario names it.
public enum CallFailure: Hashable, Sendable, CustomStringConvertible {
    /// An `SFSpeechError` with this code.
    case speech(SFSpeechError.Code)
    /// A Foundation error a download throws: its domain and code.
    case foundation(FoundationErrorDomain, code: Int)
    /// An engine's error (`EngineError`).
    case engine
    /// A use of the analyzer its API refuses (`SpeechAnalyzerUsageError`).
    case usage
    /// Any other error, as it describes itself.
    case other(String)

    /// The failure `error` is.
    public init(_ error: any Error) {
        switch error {
        case let error as SFSpeechError: self = .speech(error.code)
        case is EngineError: self = .engine
        case is SpeechAnalyzerUsageError: self = .usage
        case let error as URLError: self = .foundation(.URLError, code: error.code.rawValue)
        case let error as CocoaError: self = .foundation(.CocoaError, code: error.code.rawValue)
        default: self = .other("\(error)")
        }
    }

    public var description: String {
        switch self {
        case .speech(let code): "\(code)"
        case .foundation(let domain, let code):
            "\(domain.rawValue).\(FoundationErrorNames.codes[domain.rawValue]?[code] ?? String(code))"
        case .engine: "engine"
        case .usage: "usage"
        case .other(let text): "other(\(text))"
        }
    }
}

/// The Foundation error domains scenarios name.
public enum FoundationErrorDomain: String, Hashable, Sendable {
    case URLError, CocoaError
}

/// How a download's `Progress` moved: the steps it reported, the seconds of the device's clock it
/// took, and the share it ended at, to the nearest 10%. Files write `"10 steps over 3.0 s to 100%"`.
public struct DownloadProgressSummary: Hashable, Sendable, CustomStringConvertible {
    public var steps: Int
    public var seconds: Double
    public var percent: Int

    public init(steps: Int, seconds: Double, percent: Int) {
        self.steps = steps
        self.seconds = seconds
        self.percent = percent
    }

    /// Reads `"<n> steps over <s> s to <p>%"`; nil for anything else.
    public init?(_ text: String) {
        let words = text.split(separator: " ")
        guard words.count == 7, words[1] == "steps", words[2] == "over", words[4] == "s", words[5] == "to",
            words[6].hasSuffix("%"), let steps = Int(words[0]), let seconds = Double(words[3]), seconds.isFinite,
            let percent = Int(words[6].dropLast())
        else { return nil }
        self.init(steps: steps, seconds: seconds, percent: percent)
    }

    public var description: String {
        "\(steps) steps over \(String(format: "%.1f", seconds)) s to \(percent)%"
    }
}

/// An expected outcome, and whether it holds only on the scripted engine (`"exact": true`).
public struct Expectation: Hashable, Sendable {
    public var outcome: CallOutcome
    public var exactOnly: Bool
}

/// What a kind of step can report, to refuse an expectation it could never meet when the file is
/// read.
enum OutcomeKinds {
    /// A call: `"returns"`, `"cancelled"` or a failure.
    case call
    /// `analyzeSequence`: the time it returned, `"cancelled"` or a failure.
    case analyze
    /// A query: one of these answers (JSON text: `true`, `"installed"`, `null`), or a failure.
    case answers([String], failures: Bool)
    /// A query answering any text (a locale tag) or `null`.
    case text
    /// A download's progress (``DownloadProgressSummary``), or `"none"`.
    case downloadProgress

    /// The outcome a file's value stands for in a step of this kind: a download's progress is read
    /// from its text here, once; nil when the text is none of its forms.
    func read(_ written: CallOutcome) -> CallOutcome? {
        guard case .downloadProgress = self else { return written }
        switch written {
        case .answer("none"): return .downloadProgress(nil)
        case .answer(let text): return DownloadProgressSummary(text).map { .downloadProgress($0) }
        default: return nil
        }
    }

    func accepts(_ outcome: CallOutcome) -> Bool {
        switch (self, outcome) {
        case (.call, .returns), (.call, .cancelled), (.call, .fails): true
        case (.analyze, .returnedTime), (.analyze, .cancelled), (.analyze, .fails): true
        case (.answers(let answers, _), .answer(let answer)): answers.contains(OutcomeJSON.answerText(answer))
        case (.answers(_, let failures), .fails): failures
        case (.text, .answer): true
        case (.downloadProgress, .downloadProgress): true
        default: false
        }
    }

    /// The values allowed, as a file writes them.
    var listing: String {
        let fails = #"{"fails": {"domain": …}}"#
        switch self {
        case .call: return #""returns", "cancelled", "# + fails
        case .analyze: return #"{"time": <seconds or null>}, "cancelled", "# + fails
        case .answers(let answers, let failures): return (answers + (failures ? [fails] : [])).joined(separator: ", ")
        case .text: return "a string, null"
        case .downloadProgress: return #""<n> steps over <s> s to <p>%", "none""#
        }
    }
}

/// An outcome as a scenario file writes it: `"returns"`, `"cancelled"`, `true`, `"installed"`,
/// `null`, `{"time": 1.5}`, `{"fails": {"domain": "SFSpeechError", "code": "audioDisordered"}}`,
/// `{"fails": {"domain": "engine"}}`.
struct OutcomeJSON: Decodable {
    var outcome: CallOutcome?
    /// The value as the file has it, for messages.
    var text: String

    enum Key: String, CodingKey, CaseIterable { case fails, time }
    enum FailureKey: String, CodingKey { case domain, code }
    enum Domain: String, ClosedSetValue {
        case SFSpeechError, URLError, CocoaError, engine, usage
        static let valueName = "failure domain"
    }

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            (outcome, text) = (.answer("nil"), "null")
        } else if let flag = try? single.decode(Bool.self) {
            (outcome, text) = (.answer(String(flag)), String(flag))
        } else if let word = try? single.decode(String.self) {
            text = "\"\(word)\""
            switch word {
            case "returns": outcome = .returns
            case "cancelled": outcome = .cancelled
            case "true", "false", "nil", "": outcome = nil
            default: outcome = .answer(word)
            }
        } else {
            let object = try decoder.container(keyedBy: Key.self)
            guard object.allKeys.count == 1, let key = object.allKeys.first else {
                throw DecodingError.dataCorruptedError(
                    in: single, debugDescription: #"an outcome object has one field, "fails" or "time""#)
            }
            switch key {
            case .time:
                let seconds = try object.decodeIfPresent(Double.self, forKey: .time)
                (outcome, text) = (.returnedTime(seconds), #"{"time": \#(seconds.map { "\($0)" } ?? "null")}"#)
            case .fails:
                let failure = try object.nestedContainer(keyedBy: FailureKey.self, forKey: .fails)
                let domain = try failure.decode(Domain.self, forKey: .domain)
                let code = try failure.decodeIfPresent(String.self, forKey: .code)
                switch domain {
                case .SFSpeechError:
                    guard let code else {
                        throw DecodingError.keyNotFound(
                            FailureKey.code,
                            .init(
                                codingPath: failure.codingPath,
                                debugDescription: "an SFSpeechError failure names its code"))
                    }
                    guard SFSpeechError.Code.names.values.contains(code) else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .code, in: failure,
                            debugDescription:
                                "unknown SFSpeechError code '\(code)' (expected one of: \(SFSpeechError.Code.names.values.sorted().joined(separator: ", ")))"
                        )
                    }
                    outcome = SFSpeechError.Code.names.first { $0.value == code }.map {
                        .fails(.speech(SFSpeechError.Code(rawValue: $0.key)))
                    }
                case .URLError, .CocoaError:
                    let names = FoundationErrorNames.codes[domain.rawValue, default: [:]]
                    guard let code, let number = names.first(where: { $0.value == code })?.key else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .code, in: failure,
                            debugDescription:
                                "a \(domain) failure names one of its codes: \(names.values.sorted().joined(separator: ", "))"
                        )
                    }
                    outcome = .fails(.foundation(domain == .URLError ? .URLError : .CocoaError, code: number))
                case .engine, .usage:
                    if code != nil {
                        throw DecodingError.dataCorruptedError(
                            forKey: .code, in: failure, debugDescription: "a failure of domain '\(domain)' has no code")
                    }
                    outcome = .fails(domain == .engine ? .engine : .usage)
                }
                text = #"{"fails": …}"#
            }
        }
    }

    /// An answer as a file writes it.
    static func answerText(_ answer: String) -> String {
        switch answer {
        case "true", "false": answer
        case "nil": "null"
        default: "\"\(answer)\""
        }
    }
}

/// Keys of a step that carries an expectation: `expect`, and `exact` to make it hold on the
/// scripted engine only.
protocol ExpectationKeys: CodingKey {
    static var expect: Self { get }
    static var exact: Self { get }
}

/// Keys of a call step: an expectation, and `async` with a `ref` to start the call and move on.
protocol CallKeys: ExpectationKeys {
    static var async: Self { get }
    static var ref: Self { get }
}

/// Keys of a step that feeds generated audio.
protocol AudioKeys: CodingKey {
    static var seconds: Self { get }
    static var start: Self { get }
    static var sampleRate: Self { get }
}

extension KeyedDecodingContainer where Key: ExpectationKeys {
    /// `expect`, checked against what a step of `kind` can report, and `exact`.
    func expectation(of kind: String, _ kinds: OutcomeKinds) throws -> Expectation? {
        let exact = try decodeIfPresent(Bool.self, forKey: .exact) ?? false
        guard contains(.expect) else {
            if exact {
                throw DecodingError.dataCorruptedError(
                    forKey: .exact, in: self, debugDescription: "'exact' qualifies 'expect', which '\(kind)' lacks here"
                )
            }
            return nil
        }
        let written = try decode(OutcomeJSON.self, forKey: .expect)
        guard let outcome = written.outcome.flatMap(kinds.read), kinds.accepts(outcome) else {
            throw DecodingError.dataCorruptedError(
                forKey: .expect, in: self,
                debugDescription: "unknown outcome \(written.text) of '\(kind)' (expected one of: \(kinds.listing))")
        }
        return Expectation(outcome: outcome, exactOnly: exact)
    }
}

extension KeyedDecodingContainer where Key: CallKeys {
    func call(of kind: String) throws -> ScenarioStep.Call {
        let startedAs: String? =
            try decodeIfPresent(Bool.self, forKey: .async) == true
            ? (try decodeIfPresent(String.self, forKey: .ref) ?? "") : nil
        if startedAs == nil, try decodeIfPresent(String.self, forKey: .ref) != nil {
            throw DecodingError.dataCorruptedError(
                forKey: .ref, in: self, debugDescription: "a name is given to a call started with \"async\": true")
        }
        return ScenarioStep.Call(expect: try expectation(of: kind, .call), startedAs: startedAs)
    }
}

extension KeyedDecodingContainer where Key: AudioKeys {
    func audio() throws -> ScenarioStep.Audio {
        let seconds = try decodeIfPresent(Double.self, forKey: .seconds) ?? 0.1
        let rate = try decodeIfPresent(Double.self, forKey: .sampleRate) ?? 16_000
        guard seconds >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .seconds, in: self, debugDescription: "must be positive")
        }
        guard rate > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .sampleRate, in: self, debugDescription: "must be positive")
        }
        return ScenarioStep.Audio(
            seconds: seconds, start: try decodeIfPresent(Double.self, forKey: .start), sampleRate: rate)
    }
}

extension KeyedDecodingContainer {
    /// A whole number ≥ 0.
    func count(_ key: Key) throws -> Int {
        let number = try decode(Int.self, forKey: key)
        guard number >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\(number) is not a count")
        }
        return number
    }
}

/// A bound written `{"atLeast": 1.2}`.
struct AtLeast: Decodable {
    var atLeast: Double
}

/// The Foundation errors the device profiles throw (`AssetDownloads`), by domain and code,
/// as scenario files name them: `{"fails": {"domain": "URLError", "code": "notConnectedToInternet"}}`.
enum FoundationErrorNames {
    static let codes: [String: [Int: String]] = [
        "URLError": [
            URLError.Code.notConnectedToInternet.rawValue: "notConnectedToInternet",
            URLError.Code.networkConnectionLost.rawValue: "networkConnectionLost",
        ],
        "CocoaError": [CocoaError.Code.fileWriteOutOfSpace.rawValue: "fileWriteOutOfSpace"],
    ]
}
