import Foundation

/// A declarative conformance scenario: modules, an engine script, a timeline of API calls and
/// the expectations, tied to the documented clause it checks (see `clauses.json`).
///
/// Steps run in order. A step with `"async": true` starts the call and moves on; a later
/// `{"do": "await", "ref": …}` checks how it ended. `expect` on a call is `returns`, `cancelled`
/// (CancellationError), `fails:<code>` (an SFSpeechError code or `engine`), or `nothing` (the call
/// had no effect). Expectations under `exact` hold only on the scripted engine; the rest hold on
/// every backend.
public struct Scenario: Codable, Sendable, Hashable {
    public struct Step: Codable, Sendable, Hashable {
        /// One of ``ScenarioCatalog/stepKinds``: feeding (feed, analyze, feedAsync, startInput,
        /// endInput, endPreviousInput), finishing (finalize, finish, finalizeAndFinish,
        /// finishAtEndOfInput, cancelBefore, cancelAndFinishNow), waiting (await, checkPending,
        /// cancelTask), modules and context, checks (checkVolatileRange, checkHandler,
        /// checkStreams, checkResults, checkAttributes, checkModuleCount), and AssetInventory.
        public var `do`: String
        /// Seconds of audio to feed; the start time (omit: right after the previous buffer).
        public var seconds: Double?
        public var start: Double?
        /// Buffer sample rate (default 16000).
        public var sampleRate: Double?
        /// A time argument (through, after, before) in seconds; omit for nil.
        public var time: Double?
        public var async: Bool?
        public var ref: String?
        public var expect: String?
        /// For checks: `nil`, `open`, `ended`, `failed`, a text, a locale…
        public var value: String?
        public var locale: String?
        public var module: Int?
    }

    public struct Expectations: Codable, Sendable, Hashable {
        /// Final text of module 0 (normalised by spaces) when the scenario ends.
        public var finalText: String?
        /// How every results stream ended: `ended` or `failed`.
        public var streams: String?
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

    public struct ModuleSpec: Codable, Sendable, Hashable {
        /// transcriber, dictation or detector.
        public var kind: String
        /// Preset name (transcription, progressiveTranscription, …).
        public var preset: String?
        public var locale: String?
        /// Instead of a preset: reporting options (volatileResults, alternativeTranscriptions,
        /// fastResults) and attribute options (audioTimeRange, transcriptionConfidence).
        public var reporting: [String]?
        public var attributes: [String]?
    }

    public struct FaultSpec: Codable, Sendable, Hashable {
        public var kind: String
        public var at: Double?
        public var after: Int?
    }

    public struct ScriptWord: Codable, Sendable, Hashable {
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
    /// Engine capabilities the scenario needs (partialResults, wordTimes, alternatives, confidence, or
    /// recognisedWords: words heard in the generated audio, which only the scripted engine has);
    /// backends without them skip it with the reason.
    public var requires: [String]?
    /// Real speech for the scenario: digit names said by Allison (asterisk-core-sounds-en); the
    /// scripted engine is given the same words at their times.
    public var speech: [String]?
    /// The legacy `SFSpeechRecognizer` run this scenario makes instead of analyzer steps.
    public var legacy: LegacyRun?
    public var legacyExpect: LegacyExpectations?
    /// The live capture run (virtual microphone → tap → converter → analyzer) instead of steps.
    public var capture: CaptureRun?
    public var captureExpect: CaptureExpectations?
    public var steps: [Step]
    public var expect: Expectations
    /// Expectations that hold on the scripted engine only (e.g. `finalText`).
    public var exact: [String]?
}

/// A documented rule a scenario checks.
public struct Clause: Codable, Sendable, Hashable {
    public var id: String
    /// Where the rule is documented (seed file and section, or the interface file).
    public var source: String
    /// The rule in our words.
    public var rule: String
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
    static let stepKinds: Set<String> = [
        "feed", "feedAsync", "endInput", "finalize", "finish", "finalizeAndFinish", "finishAtEndOfInput",
        "cancelBefore", "cancelAndFinishNow", "addModule", "removeModule", "await", "checkVolatileRange",
        "checkStreams", "checkResults", "reserve", "release", "status", "installRequest", "setContext", "prepare",
        "bestFormat", "useModuleElsewhere", "analyze", "startInput", "endPreviousInput", "checkPending",
        "cancelTask", "checkHandler", "markHandler", "replaceHandler", "checkAttributes", "checkModuleCount",
        "checkReserved",
    ]
    static let faultKinds: Set<String> = [
        "throw", "stall", "failFinalize", "slowFinalize", "workerCrash", "workerHang", "workerGarbage", "workerError",
        "workerExitAtStart",
    ]

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

    /// A file holds one scenario or an array of them.
    public static func load(path: String) throws -> [Scenario] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ScenarioError.unreadable(path: path) }
        let decoder = JSONDecoder()
        let scenarios: [Scenario]
        do {
            if let many = try? decoder.decode([Scenario].self, from: data) {
                scenarios = many
            } else {
                scenarios = [try decoder.decode(Scenario.self, from: data)]
            }
        } catch let DecodingError.keyNotFound(key, context) {
            throw ScenarioError.invalid(
                path: path,
                reason:
                    "missing '\(key.stringValue)' at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch DecodingError.dataCorrupted {
            throw ScenarioError.invalid(path: path, reason: "not valid JSON")
        } catch let DecodingError.typeMismatch(_, context) {
            throw ScenarioError.invalid(
                path: path, reason: "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch {
            throw ScenarioError.invalid(path: path, reason: "\(error)")
        }
        for scenario in scenarios {
            for (index, step) in scenario.steps.enumerated() where !stepKinds.contains(step.do) {
                throw ScenarioError.invalid(
                    path: path, reason: "\(scenario.id): step \(index + 1): unknown step '\(step.do)'")
            }
            for fault in scenario.faults ?? [] where !faultKinds.contains(fault.kind) {
                throw ScenarioError.invalid(path: path, reason: "\(scenario.id): unknown fault '\(fault.kind)'")
            }
        }
        return scenarios
    }
}
