import Foundation
import SpeechCore

/// One kind of step a scenario's timeline can hold: its name after `"do"`, its fields (its
/// `CodingKeys`), how it decodes, and what it does when the scenario runs. Each kind is one type
/// in `Steps/`; ``ScenarioStep/kinds`` is the one list of them, which decoding, the schema test and
/// the runner read.
protocol StepAction: Decodable, Hashable, Sendable {
    associatedtype CodingKeys: CodingKey & CaseIterable
    /// The name scenario files write after `"do"`.
    static var name: String { get }
    /// Runs the step as step `place.index` of `run`.
    func perform(in run: ScenarioExecution, at place: StepPlace) async
    /// The locale the step names (a module it adds, a reservation), for the backend's locale check.
    var locale: String? { get }
    /// The audio the step feeds, and what it expects of the feeding call.
    var audio: (ScenarioStep.Audio, Expectation?)? { get }
}

extension StepAction {
    /// The fields the step takes besides `do`.
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
    var locale: String? { nil }
    var audio: (ScenarioStep.Audio, Expectation?)? { nil }
}

/// Where a step is in its scenario, for the problems it reports.
struct StepPlace: Sendable {
    var index: Int
    var kind: String
}

/// One step of a scenario's timeline, decoded from `{"do": "<kind>", …}`: an unknown kind, a field
/// the kind does not take, or a malformed value fails when the file is read, not when it runs.
public struct ScenarioStep: Hashable, Sendable {
    let action: any StepAction

    /// Every kind of step, in the order docs/scenario.schema.json lists them.
    static let kinds: [any StepAction.Type] = [
        FeedStep.self, FeedAsyncStep.self, AnalyzeStep.self, StartInputStep.self, EndPreviousInputStep.self,
        EndInputStep.self, FinalizeStep.self, FinishStep.self, FinalizeAndFinishStep.self,
        FinishAtEndOfInputStep.self, CancelBeforeStep.self, CancelAndFinishNowStep.self, AddModuleStep.self,
        RemoveModuleStep.self, AwaitStep.self, CheckPendingStep.self, CancelTaskStep.self, MarkHandlerStep.self,
        ReplaceHandlerStep.self, CheckHandlerStep.self, CheckAttributesStep.self, CheckModuleCountStep.self,
        CheckReservedStep.self, CheckVolatileRangeStep.self, CheckStreamsStep.self, CheckResultsStep.self,
        ReserveStep.self, ReleaseStep.self, StatusStep.self, InstallRequestStep.self, SetContextStep.self,
        PrepareStep.self, BestFormatStep.self, UseModuleElsewhereStep.self, IsAvailableStep.self,
        SupportedLocalesStep.self, EquivalentLocaleStep.self, DownloadProgressStep.self,
    ]

    static let kindsByName: [String: any StepAction.Type] = Dictionary(
        uniqueKeysWithValues: kinds.map { ($0.name, $0) })

    /// Every step name with the fields it takes besides `do`.
    public static var fieldsByKind: [String: [String]] {
        kindsByName.mapValues { $0.fields }
    }

    /// The name as scenario files write it.
    public var kind: String { type(of: action).name }

    /// The locale a step names (a module it adds, a reservation), for the backend's locale check.
    public var locale: String? { action.locale }

    /// The audio a step feeds, and what it expects of the feeding call.
    public var audio: (Audio, Expectation?)? { action.audio }

    /// A module kind the step adds, when it adds one.
    var addedModule: (kind: ModuleKind, locale: String?)? {
        (action as? AddModuleStep).map { ($0.kind, $0.locale) }
    }

    public static func == (lhs: ScenarioStep, rhs: ScenarioStep) -> Bool {
        AnyHashable(lhs.action) == AnyHashable(rhs.action)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(action)) }
}

extension ScenarioStep: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldName.self)
        let doKey = FieldName("do")
        let kind = try container.decode(String.self, forKey: doKey)
        guard let type = Self.kindsByName[kind] else {
            throw DecodingError.dataCorruptedError(
                forKey: doKey, in: container,
                debugDescription:
                    "unknown step '\(kind)' (expected one of: \(Self.kinds.map { $0.name }.sorted().joined(separator: ", ")))"
            )
        }
        let allowed = Set(type.fields)
        for key in container.allKeys where key.stringValue != "do" && !allowed.contains(key.stringValue) {
            let takes = type.fields.isEmpty ? "it takes none" : "it takes: \(type.fields.joined(separator: ", "))"
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "'\(kind)' takes no field '\(key.stringValue)' (\(takes))"
            )
        }
        action = try Self.decode(type, from: decoder)
    }

    /// `T(from:)`, with the kind's type opened from the table's existential.
    private static func decode<T: StepAction>(_ type: T.Type, from decoder: any Decoder) throws -> any StepAction {
        try T(from: decoder)
    }
}

extension ScenarioStep {
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
        case time, notime, confidence, noconfidence, timesInRange, severalAlternatives, oneAlternative
        public static let valueName = "attribute check"
    }

    /// The analyzer's `volatileRange`: nil, or a bound on its start or end.
    public enum RangeCheck: Hashable, Sendable {
        case none
        case startAtLeast(Double)
        case endAtLeast(Double)
    }
}
