import Foundation
import SpeechCore

/// Names engines and picks the one Apple-style code gets when it does not choose: set
/// `SPEECH_HARNESS_ENGINE` (an engine id such as `scripted`) or write `{"engine": "…"}` to
/// `.speech-harness.json` in the working directory; otherwise the first registered engine that has
/// assets for the locale. Tests choose programmatically with ``EngineSelection/$override``.
public final class EngineRegistry: Sendable {
    public typealias Factory = @Sendable () throws -> any RecognitionEngine

    public struct Entry: Sendable {
        public var id: String
        public var summary: String
        /// Lower is preferred when no engine is named.
        public var preference: Int
        public var make: Factory

        public init(id: String, summary: String, preference: Int, make: @escaping Factory) {
            self.id = id
            self.summary = summary
            self.preference = preference
            self.make = make
        }
    }

    private let entries = Locked<[String: Entry]>([:])

    public static let shared: EngineRegistry = {
        let registry = EngineRegistry()
        registry.register(
            Entry(
                id: "scripted", summary: "says what a script says (SPEECH_HARNESS_SCRIPT=file.json)",
                preference: 100, make: { try ScriptedEngine.fromEnvironment() }))
        for (preference, (search, decoding)) in [
            (PocketSphinxEngine.Search.languageModel, PocketSphinxEngine.Decoding.streaming),
            (.languageModel, .wholeUtterance), (.digits, .streaming), (.digits, .wholeUtterance),
        ].enumerated() {
            let engine = PocketSphinxEngine(search: search, decoding: decoding)
            let what =
                (search == .digits ? "digits grammar" : "n-gram language model") + ", "
                + (decoding == .streaming ? "streaming with partials" : "whole-utterance decoding")
            registry.register(
                Entry(
                    id: engine.id, summary: "CMU PocketSphinx 0.8 (Debian), \(what)", preference: 20 + preference,
                    make: { engine }))
        }
        for (preference, task) in DSPEngine.Task.allCases.enumerated() {
            let what = task == .all ? "digits and commands" : task.rawValue
            registry.register(
                Entry(
                    id: DSPEngine(task: task).id,
                    summary: "DSP reference: MFCC and one-pass DTW over enrolled templates, \(what)",
                    preference: 40 + preference, make: { DSPEngine(task: task) }))
        }
        registry.register(
            Entry(
                id: "whisper",
                summary:
                    "Whisper tiny.en (faster-whisper; int8, beam 1, 1 thread unless SPEECH_HARNESS_WHISPER_* say otherwise) in a pool of worker processes",
                preference: 10,
                make: { WhisperWorker.engine(settings: try .fromEnvironment()) }))
        registry.register(
            Entry(
                id: "fault-worker",
                summary:
                    "a deliberately faulty worker for reliability checks (SPEECH_HARNESS_FAULT_MODE, _RATE, _SEED, _TIMEOUT)",
                preference: 1_000, make: { FaultWorker.fromEnvironment() }))
        return registry
    }()

    public init() {}

    public func register(_ entry: Entry) {
        entries.withLock { $0[entry.id] = entry }
    }

    public var ids: [String] {
        entries.withLock { $0.values.sorted { ($0.preference, $0.id) < ($1.preference, $1.id) }.map(\.id) }
    }

    public func entry(_ id: String) -> Entry? { entries.withLock { $0[id] } }

    /// A new instance of the engine called `id`.
    public func make(_ id: String) throws -> any RecognitionEngine {
        guard let entry = entry(id) else { throw EngineError.unknownEngine(id, known: ids) }
        return try entry.make()
    }

    /// The engine named by the environment or configuration file, if any. A configuration file
    /// that cannot be read as `{"engine": "<id>"}` is an error naming the file and the field.
    public static func configuredEngineID(
        environment: [String: String] = HarnessEnvironment.current.variables,
        directory: String = FileManager.default.currentDirectoryPath
    ) throws(EngineError) -> String? {
        if let id = environment["SPEECH_HARNESS_ENGINE"], !id.isEmpty { return id }
        struct Configuration: Decodable { var engine: String? }
        let file = directory + "/.speech-harness.json"
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        do {
            return try DecodingProblem.decode(Configuration.self, from: data).engine
        } catch {
            throw .invalidConfiguration(path: file, reason: error.description)
        }
    }

    /// The engine to use for `locale`: the override, else the configured one, else the preferred
    /// registered engine that has assets for the locale.
    public func defaultEngine(for locale: String) throws -> any RecognitionEngine {
        if let override = EngineSelection.override { return override }
        if let id = try Self.configuredEngineID() { return try make(id) }
        for id in ids {
            if let engine = try? make(id), engine.isInstalled(locale: locale) { return engine }
        }
        throw EngineError.unsupportedLocale(engine: "any", locale: locale)
    }
}

/// Programmatic engine choice for code that builds Apple-style modules (tests, the benchmark):
/// `try await EngineSelection.$override.withValue(engine) { … }`.
public enum EngineSelection {
    @TaskLocal public static var override: (any RecognitionEngine)?
}

extension ScriptedEngine {
    /// The scripted engine with the script named by `SPEECH_HARNESS_SCRIPT` (a script JSON file, or
    /// `manifest.jsonl#id` for a corpus utterance's word times); an empty script without it.
    public static func fromEnvironment(
        _ environment: [String: String] = HarnessEnvironment.current.variables
    ) throws -> ScriptedEngine {
        guard let path = environment["SPEECH_HARNESS_SCRIPT"], !path.isEmpty else {
            return ScriptedEngine(script: EngineScript(words: []))
        }
        return ScriptedEngine(script: try EngineScript.load(path: path))
    }
}

/// Where the package's own files are (worker scripts, the Python environment): `SPEECH_HARNESS_ROOT`,
/// else the working directory or a parent of the running executable that has `scripts/workers`.
public enum PackageRoot {
    public static var path: String {
        let environment = HarnessEnvironment.current.variables
        if let root = environment["SPEECH_HARNESS_ROOT"], !root.isEmpty { return root }
        let marker = "/scripts/workers/whisper_worker.py"
        let cwd = FileManager.default.currentDirectoryPath
        if FileManager.default.fileExists(atPath: cwd + marker) { return cwd }
        var url = URL(fileURLWithPath: CommandLine.arguments.first ?? cwd).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: url.path + marker) { return url.path }
            url.deleteLastPathComponent()
        }
        return cwd
    }
}

/// The Whisper worker engine: the package's Python worker in the bootstrap environment.
public enum WhisperWorker {
    /// What the worker decodes with; all of it is in the engine's name (`whisper[tiny.en,int8,beam1,t1]`).
    public struct Settings: Sendable, Hashable {
        /// The model: tiny.en, the one the bootstrap installs.
        public var model = "tiny.en"
        /// CTranslate2 compute type: int8 (default), int8_float32, float32.
        public var computeType = "int8"
        /// Beam size; 1 is greedy decoding.
        public var beamSize = 1
        /// CPU threads per worker process.
        public var threads = 1
        /// Seed of the sampling Whisper falls back to on a doubtful greedy decode: fixed, so a run
        /// repeats; another seed gives other transcripts on those utterances (named when not 0).
        public var seed = 0

        public init() {}

        /// The settings named by `SPEECH_HARNESS_WHISPER_COMPUTE_TYPE`, `…_BEAM_SIZE`, `…_THREADS` and
        /// `…_SEED` (what `--whisper-compute-type`, `--whisper-beam`, `--whisper-threads` and
        /// `--whisper-seed` set).
        public static func fromEnvironment(
            _ environment: [String: String] = HarnessEnvironment.current.variables
        ) throws -> Settings {
            var settings = Settings()
            if let value = environment["SPEECH_HARNESS_WHISPER_COMPUTE_TYPE"], !value.isEmpty {
                guard computeTypes.contains(value) else {
                    throw EngineError.failed(
                        engine: "whisper",
                        reason:
                            "SPEECH_HARNESS_WHISPER_COMPUTE_TYPE '\(value)': one of \(computeTypes.joined(separator: ", "))"
                    )
                }
                settings.computeType = value
            }
            for (key, range, path) in [
                ("SPEECH_HARNESS_WHISPER_BEAM_SIZE", 1...16, \Settings.beamSize),
                ("SPEECH_HARNESS_WHISPER_THREADS", 1...64, \Settings.threads),
                ("SPEECH_HARNESS_WHISPER_SEED", 0...Int(UInt32.max), \Settings.seed),
            ] {
                guard let value = environment[key], !value.isEmpty else { continue }
                guard let number = Int(value), range.contains(number) else {
                    throw EngineError.failed(
                        engine: "whisper",
                        reason: "\(key) '\(value)': a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                settings[keyPath: path] = number
            }
            return settings
        }

        public static let computeTypes = ["int8", "int8_float32", "float32"]

        var names: [String] {
            [model, computeType, "beam\(beamSize)", "t\(threads)"] + (seed == 0 ? [] : ["seed\(seed)"])
        }
    }

    public static func engine(
        root: String = PackageRoot.path, settings: Settings = Settings(), callTimeout: Duration = .seconds(120),
        protocolVersion: Int = WorkerProtocol.latest
    ) -> WorkerEngine {
        WorkerEngine(
            id: "whisper", settings: settings.names,
            command: [root + "/.venv/bin/python", root + "/scripts/workers/whisper_worker.py"],
            environment: [
                "WHISPER_THREADS": String(settings.threads), "WHISPER_COMPUTE_TYPE": settings.computeType,
                "WHISPER_BEAM_SIZE": String(settings.beamSize), "WHISPER_SEED": String(settings.seed),
                "HF_HUB_OFFLINE": "1",
                "PYTHONUNBUFFERED": "1",
            ],
            capabilities: EngineCapabilities(
                partialResults: false, wordTimes: true, alternatives: false, confidence: true,
                locales: ["en-US"],
                formats: [
                    AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .float32),
                    AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .int16),
                ]),
            callTimeout: callTimeout, protocolVersion: protocolVersion)
    }
}

extension FaultWorker {
    /// The fault worker as the environment sets it: `SPEECH_HARNESS_FAULT_MODE` (default `random`),
    /// `SPEECH_HARNESS_FAULT_RATE` (0.1), `SPEECH_HARNESS_FAULT_SEED` (0) and
    /// `SPEECH_HARNESS_FAULT_TIMEOUT` (seconds a call may take, default 5).
    public static func fromEnvironment(
        _ environment: [String: String] = HarnessEnvironment.current.variables
    ) -> WorkerEngine {
        let timeout = environment["SPEECH_HARNESS_FAULT_TIMEOUT"].flatMap(Double.init) ?? 5
        let engine = FaultWorker.engine(
            mode: environment["SPEECH_HARNESS_FAULT_MODE"] ?? "random", callTimeout: .milliseconds(Int(timeout * 1000)),
            extra: [
                "FAULT_RATE": environment["SPEECH_HARNESS_FAULT_RATE"] ?? "0.1",
                "FAULT_SEED": environment["SPEECH_HARNESS_FAULT_SEED"] ?? "0",
            ])
        return engine
    }
}

/// The deliberately faulty worker (`scripts/workers/fault_worker.py`): crashes, hangs, garbles or
/// fails after `after` audio requests, to check that a dying worker fails one session cleanly.
public enum FaultWorker {
    /// `mode`: exit-at-start, crash-mid, hang, garbage, oversized, error, ok or random (see the script).
    public static func engine(
        mode: String, after: Int = 2, root: String = PackageRoot.path, callTimeout: Duration = .seconds(30),
        clock: any Clock<Duration> = ContinuousClock(), extra: [String: String] = [:],
        protocolVersion: Int = WorkerProtocol.latest, maximumWorkers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> WorkerEngine {
        WorkerEngine(
            id: "fault-worker", command: ["/usr/bin/env", "python3", root + "/scripts/workers/fault_worker.py"],
            environment: ["FAULT_MODE": mode, "FAULT_AFTER": String(after), "PYTHONUNBUFFERED": "1"].merging(extra) {
                $1
            },
            capabilities: EngineCapabilities(
                partialResults: false, wordTimes: true, alternatives: false, confidence: false,
                locales: ["en-US"], formats: [AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .float32)]),
            callTimeout: callTimeout, clock: clock, maximumWorkers: maximumWorkers, protocolVersion: protocolVersion)
    }
}
