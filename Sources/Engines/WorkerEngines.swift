import Foundation
import SpeechCore

/// Where the package's own files are (worker scripts, the Python environment): `SPEECH_HARNESS_ROOT`,
/// else the working directory or a parent of the running executable that has `scripts/workers`,
/// else the checkout this module was compiled from (a team's package that depends on this one).
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
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        if FileManager.default.fileExists(atPath: source + marker) { return source }
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
