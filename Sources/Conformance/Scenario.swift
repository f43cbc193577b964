import Foundation
import Records
import SpeechCore
import VirtualDevice

/// A declarative conformance scenario: modules, an engine script, a timeline of API calls and
/// the expectations, tied to the documented clause it checks (see `clauses.json`).
///
/// Steps (``ScenarioStep``) run in order. A call step with `"async": true` starts the call under
/// its `ref` and moves on; a later `{"do": "await", "ref": …}` checks how it ended. `expect` on a
/// call is `"returns"`, `"cancelled"` or `{"fails": {"domain": …, "code": …}}`; `"exact": true`
/// beside it makes it hold on the scripted engine only, as do the expectations listed under
/// `exact`. Everything else holds on every backend. docs/scenario.schema.json describes the format.
public struct Scenario: Decodable, Sendable, Hashable {
    public struct Expectations: Decodable, Sendable, Hashable {
        /// Final text of module 0 (normalised by spaces) when the scenario ends.
        public var finalText: String?
        /// How every results stream ended: `ended` or `failed`.
        public var streams: ScenarioStep.StreamState?
        /// Result rules hold: isFinal from the finalisation time, alternatives non-empty with the
        /// text first, final ranges ordered and disjoint.
        public var resultRules: Bool?
        /// The volatile range start never moved backwards.
        public var volatileRangeMonotonic: Bool?
        /// No caller is left waiting after the final cancelAndFinishNow.
        public var noWaiters: Bool?
        /// Some results of module 0 were volatile.
        public var hadVolatileResults: Bool?
    }

    public struct ModuleSpec: Decodable, Sendable, Hashable {
        public var kind: ScenarioStep.ModuleKind
        /// A transcriber preset (default progressiveTranscription).
        public var preset: PresetName?
        public var locale: String?
        /// Instead of a preset: the transcriber's options, each set given by name.
        public var transcription: [TranscriptionOptionName]?
        public var reporting: [ReportingOptionName]?
        public var attributes: [AttributeOptionName]?

        public init(
            kind: ScenarioStep.ModuleKind, preset: PresetName? = nil, locale: String? = nil,
            transcription: [TranscriptionOptionName]? = nil, reporting: [ReportingOptionName]? = nil,
            attributes: [AttributeOptionName]? = nil
        ) {
            self.kind = kind
            self.preset = preset
            self.locale = locale
            self.transcription = transcription
            self.reporting = reporting
            self.attributes = attributes
        }
    }

    /// A `SpeechTranscriber.Preset` by its name in Apple's API.
    public enum PresetName: String, ClosedSetValue, Hashable {
        case transcription, transcriptionWithAlternatives, timeIndexedTranscriptionWithAlternatives
        case progressiveTranscription, timeIndexedProgressiveTranscription
        public static let valueName = "preset"
    }

    public enum TranscriptionOptionName: String, ClosedSetValue, Hashable {
        case etiquetteReplacements
        public static let valueName = "transcription option"
    }

    public enum ReportingOptionName: String, ClosedSetValue, Hashable {
        case volatileResults, alternativeTranscriptions, fastResults
        public static let valueName = "reporting option"
    }

    public enum AttributeOptionName: String, ClosedSetValue, Hashable {
        case audioTimeRange, transcriptionConfidence
        public static let valueName = "attribute option"
    }

    /// What a scenario needs of a backend; one without it skips the scenario with the reason.
    public enum Requirement: String, ClosedSetValue, Hashable {
        case partialResults, wordTimes, alternatives, confidence
        /// Words heard in the generated audio, which only the scripted engine has.
        case recognisedWords
        public static let valueName = "requirement"
    }

    /// Closing expectations that can be limited to the scripted engine.
    public enum ExactOnlyExpectation: String, ClosedSetValue, Hashable {
        case finalText
        public static let valueName = "exact-only expectation"
    }

    public struct FaultSpec: Decodable, Sendable, Hashable {
        /// In the scripted engine: `throw` or `stall` at a time, `failFinalize`, `slowFinalize`
        /// yielding `after` times; or a worker process that misbehaves after `after` audio requests.
        public enum Kind: String, ClosedSetValue, Hashable {
            case `throw`, stall, failFinalize, slowFinalize
            case workerCrash, workerHang, workerGarbage, workerError, workerExitAtStart

            public static let valueName = "fault kind"

            /// The fault worker's mode for a worker fault; nil for the scripted engine's own.
            public var workerMode: String? {
                switch self {
                case .workerCrash: "crash-mid"
                case .workerHang: "hang"
                case .workerGarbage: "garbage"
                case .workerError: "error"
                case .workerExitAtStart: "exit-at-start"
                case .throw, .stall, .failFinalize, .slowFinalize: nil
                }
            }
        }
        public var kind: Kind
        public var at: Double?
        public var after: Int?
    }

    public struct ScriptWord: Decodable, Sendable, Hashable {
        public var text: String
        public var start: Double
        public var end: Double
        public var revisions: [String]?
        public var alternatives: [String]?
        public var confidence: Double?
    }

    public var id: String
    /// Clause id from `clauses.json`.
    public var clause: String
    public var title: String
    public var modules: [ModuleSpec]
    /// What the scripted engine says; other backends hear the words spoken by their audio.
    public var words: [ScriptWord]?
    public var latency: Double?
    public var endpointSilence: Double?
    /// Plant a fault in the scripted engine: throw when audio reaches this time.
    public var faultAt: Double?
    /// More faults: in the scripted engine (`throw`/`stall` at a time, `failFinalize`,
    /// `slowFinalize` yielding `after` times) or a worker
    /// process that misbehaves after `after` audio requests (`workerCrash`, `workerHang`,
    /// `workerGarbage`, `workerError`, `workerExitAtStart`). Scripted backend only.
    public var faults: [FaultSpec]?
    /// The scripted engine needs installed assets (for AssetInventory scenarios).
    public var requiresAssets: Bool?
    /// Distinct engine configurations the device can hold at once (default: plenty).
    public var resourceLimit: Int?
    /// What the scenario needs of a backend (engine capabilities, or recognised words); backends
    /// without it skip the scenario with the reason.
    public var requires: [Requirement]?
    /// Real speech for the scenario: digit names said by Allison (asterisk-core-sounds-en); the
    /// scripted engine is given the same words at their times.
    public var speech: [String]?
    /// The legacy `SFSpeechRecognizer` run this scenario makes instead of analyzer steps.
    public var legacy: LegacyRun?
    public var legacyExpect: LegacyExpectations?
    /// The live capture run (virtual microphone → tap → converter → analyzer) instead of steps.
    public var capture: CaptureRun?
    public var captureExpect: CaptureExpectations?
    /// An SDK 27 helper run (converter, asset or capture provider, AnalyzerInput) instead of steps.
    public var helper: HelperRun?
    public var helperExpect: HelperExpectations?
    /// The device profile the scenario runs under (its microphone, locale, SpeechTranscriber's
    /// availability, the locales offered, asset downloads); the default device when absent.
    public var device: ScenarioDevice?
    public var steps: [ScenarioStep]
    public var expect: Expectations
    /// Expectations that hold on the scripted engine only (default: `finalText`).
    public var exact: [ExactOnlyExpectation]?
}

extension Scenario {
    /// A locale as scenario files write it: an identifier, or `current` for `Locale.current`
    /// (which stands for the device's locale, `deviceLocale`).
    static func locale(_ written: String) -> Locale { written == "current" ? .current : Locale(identifier: written) }

    /// The tag an engine is asked about for a written locale on `device`.
    static func tag(_ written: String, on device: DeviceSettings) -> String {
        written == "current" ? device.locale : LocaleTag.normalized(written)
    }
}

/// Why a scenario file could not be used.
public enum ScenarioError: Error, CustomStringConvertible, Sendable {
    case unreadable(path: String)
    case invalid(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path): return "\(path): cannot read scenario file"
        case .invalid(let path, let reason): return "\(path): invalid scenario: \(reason)"
        }
    }
}

/// Loads scenarios and the clause list (the package's own, or a folder given by the user).
public enum ScenarioCatalog {
    public static var builtInDirectory: URL? {
        Bundle.module.url(forResource: "Scenarios", withExtension: nil)
    }

    public static func clauses() throws -> [Clause] {
        guard let url = Bundle.module.url(forResource: "clauses", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { throw ScenarioError.unreadable(path: "clauses.json") }
        do { return try JSONDecoder().decode([Clause].self, from: data) } catch {
            throw ScenarioError.invalid(path: "clauses.json", reason: "\(error)")
        }
    }

    /// Every `*.json` scenario under `directory`; bad files are returned as errors, not thrown.
    public static func load(directory: URL) -> (scenarios: [Scenario], errors: [ScenarioError]) {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.hasSuffix(".json")
        }.sorted()
        var scenarios: [Scenario] = []
        var errors: [ScenarioError] = []
        for file in files {
            let path = directory.appendingPathComponent(file).path
            do {
                scenarios += try load(path: path)
            } catch let error as ScenarioError {
                errors.append(error)
            } catch {
                errors.append(.invalid(path: path, reason: "\(error)"))
            }
        }
        return (scenarios, errors)
    }

    /// A file holds one scenario or an array of them. Problems name the file, the scenario (its
    /// id, or its place in the file) and the field: `f.json: scenario 'x', step 3, field 'value': …`.
    public static func load(path: String) throws -> [Scenario] {
        guard let data = FileContents.read(atPath: path) else { throw ScenarioError.unreadable(path: path) }
        guard let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            throw ScenarioError.invalid(path: path, reason: "not valid JSON")
        }
        let many = json is [Any]
        let ids = ((json as? [Any]) ?? [json]).map { ($0 as? [String: Any])?["id"] as? String }
        do {
            return many
                ? try JSONDecoder().decode(StrictlyDecoded<[Scenario]>.self, from: data).value
                : [try JSONDecoder().decode(StrictlyDecoded<Scenario>.self, from: data).value]
        } catch let error as DecodingError {
            throw ScenarioError.invalid(
                path: path, reason: describe(DecodingProblem(error, json: json), ids: ids, many: many))
        } catch {
            throw ScenarioError.invalid(path: path, reason: "\(error)")
        }
    }

    /// Where in the file a decoding problem is, in the file's own terms, and what is wrong there.
    static func describe(_ problem: DecodingProblem, ids: [String?], many: Bool) -> String {
        var keys = problem.path[...]
        var parts: [String] = []
        let scenario: Int? =
            if many, case .index(let index) = keys.first { index } else { many ? nil : 0 }
        if many { keys = keys.dropFirst() }
        if let scenario {
            let id = ids.indices.contains(scenario) ? ids[scenario] : nil
            parts.append(id.map { "scenario '\($0)'" } ?? "scenario \(scenario + 1) of the file")
        }
        if keys.first == .key("steps"), keys.count > 1, case .index(let step) = keys.dropFirst().first {
            parts.append("step \(step + 1)")
            keys = keys.dropFirst(2)
        }
        let field = DecodingProblem(path: Array(keys), problem: problem.problem)
        if !keys.isEmpty { parts.append("field '\(field.field)'") }
        return (parts + [problem.problem]).joined(separator: ": ")
    }
}

extension ConformanceRecord.Scenario {
    /// What a record keeps of a scenario.
    public init(_ scenario: Scenario) {
        self.init(id: scenario.id, clause: scenario.clause, title: scenario.title)
    }
}
