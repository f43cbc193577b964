import Foundation
import SpeechCore

/// The Whisper worker engine: the package's Python worker in the bootstrap environment.
public enum WhisperWorker {
    /// What the worker decodes with; all of it is in the engine's name (`whisper[tiny.en,int8,beam1,t1]`).
    public struct Settings: Sendable, Hashable {
        /// The model: tiny.en, the one the bootstrap installs.
        public var model = "tiny.en"
        /// CTranslate2 compute type: int8 (default), int8_float32, float32.
        public var computeType = HarnessSettings.whisperComputeType.defaultValue
        /// Beam size; 1 is greedy decoding.
        public var beamSize = HarnessSettings.whisperBeamSize.defaultValue
        /// CPU threads per worker process.
        public var threads = HarnessSettings.whisperThreads.defaultValue
        /// Seed of the sampling Whisper falls back to on a doubtful greedy decode: fixed, so a run
        /// repeats; another seed gives other transcripts on those utterances (named when not 0).
        public var seed = HarnessSettings.whisperSeed.defaultValue

        public init() {}

        /// Settings a program chose for the Whisper engines made in this task (the command line's
        /// `--whisper-*` options): they take the place of the environment's.
        @TaskLocal public static var chosen: Settings?

        /// The settings for an engine made now: the chosen ones, else the environment's.
        public static func current() throws(EngineError) -> Settings {
            if let chosen { return chosen }
            return try fromEnvironment()
        }

        /// The settings the environment gives (`HarnessSettings.whisperComputeType`,
        /// `whisperBeamSize`, `whisperThreads`, `whisperSeed`; what `--whisper-compute-type`,
        /// `--whisper-beam`, `--whisper-threads` and `--whisper-seed` set). A bad value is an engine
        /// error naming the setting.
        public static func fromEnvironment(
            _ environment: [String: String] = HarnessEnvironment.current.variables
        ) throws(EngineError) -> Settings {
            var settings = Settings()
            do {
                settings.computeType = try HarnessSettings.whisperComputeType.value(in: environment)
                settings.beamSize = try HarnessSettings.whisperBeamSize.value(in: environment)
                settings.threads = try HarnessSettings.whisperThreads.value(in: environment)
                settings.seed = try HarnessSettings.whisperSeed.value(in: environment)
            } catch {
                throw .failed(engine: "whisper", reason: error.description)
            }
            return settings
        }

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
    /// The fault worker as the environment sets it (`HarnessSettings.faultMode`, `faultRate`,
    /// `faultSeed`, `faultTimeout`). A bad value is an engine error naming the setting.
    public static func fromEnvironment(
        _ environment: [String: String] = HarnessEnvironment.current.variables
    ) throws(EngineError) -> WorkerEngine {
        do {
            let timeout = try HarnessSettings.faultTimeout.value(in: environment)
            return FaultWorker.engine(
                mode: try HarnessSettings.faultMode.value(in: environment),
                callTimeout: .milliseconds(Int((timeout * 1000).rounded())),
                extra: [
                    "FAULT_RATE": String(try HarnessSettings.faultRate.value(in: environment)),
                    "FAULT_SEED": try HarnessSettings.faultSeed.value(in: environment),
                ])
        } catch {
            throw .failed(engine: "fault-worker", reason: error.description)
        }
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
