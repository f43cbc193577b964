import Foundation
import SpeechCore

/// The Whisper worker engine: the package's Python worker in the bootstrap environment.
public enum WhisperWorker {
    /// What the worker decodes with; all of it is in the engine's name (`whisper[tiny.en,int8,beam1,t1]`).
    public struct Settings: Sendable, Hashable {
        /// The model: tiny.en unless the engine's name chooses another (`whisper[base]`).
        public var model = WhisperModel.tinyEnglish
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

        /// The settings the running task's context chose (`HarnessContext.whisperSettings`).
        @available(*, deprecated, message: "set HarnessContext.whisperSettings and run under HarnessContext.$current")
        public static var chosen: Settings? { HarnessContext.current.whisperSettings }

        /// The settings for an engine made now: the ones the context chose, else its environment's.
        public static func current() throws(EngineError) -> Settings {
            let context = HarnessContext.current
            if let chosen = context.whisperSettings { return chosen }
            return try fromEnvironment(context.environment.variables)
        }

        /// The settings the environment gives (`HarnessSettings.whisperComputeType`,
        /// `whisperBeamSize`, `whisperThreads`, `whisperSeed`; what `--whisper-compute-type`,
        /// `--whisper-beam`, `--whisper-threads` and `--whisper-seed` set). A bad value is an engine
        /// error naming the setting.
        public static func fromEnvironment(
            _ environment: [String: String] = HarnessContext.current.environment.variables
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

        /// These settings with those an engine name lists in brackets (`base`, `float32`, `beam5`,
        /// `t2`, `seed7`: what ``names`` writes), or an error naming the first one not understood.
        public func applying(_ names: [String], engine: String = "whisper") throws(EngineError) -> Settings {
            var settings = self
            // A name's value, read and bounded by the setting it is written for (`beam5` → 5).
            func value(_ setting: Setting<Int>, after prefix: String, in name: String) -> Int? {
                let digits = name.dropFirst(prefix.count)
                guard name.hasPrefix(prefix), !digits.isEmpty else { return nil }
                return try? setting.value(in: [setting.variable: String(digits)])
            }
            for name in names {
                let types = HarnessSettings.whisperComputeType
                if let model = WhisperModel.named(name) {
                    settings.model = model
                } else if let type = try? types.value(in: [types.variable: name]) {
                    settings.computeType = type
                } else if let beam = value(HarnessSettings.whisperBeamSize, after: "beam", in: name) {
                    settings.beamSize = beam
                } else if let threads = value(HarnessSettings.whisperThreads, after: "t", in: name) {
                    settings.threads = threads
                } else if let seed = value(HarnessSettings.whisperSeed, after: "seed", in: name) {
                    settings.seed = seed
                } else {
                    let models = WhisperModel.all.map(\.name).joined(separator: ", ")
                    throw .invalidSetting(
                        engine: engine, setting: name,
                        reason:
                            "not a model (\(models)), compute type (\(types.allowed)), beamN (\(HarnessSettings.whisperBeamSize.allowed)), "
                            + "tN (\(HarnessSettings.whisperThreads.allowed)) or seedN (\(HarnessSettings.whisperSeed.allowed))"
                    )
                }
            }
            return settings
        }

        /// The settings as the engine name writes them (`tiny.en`, `int8`, `beam1`, `t1`).
        public var names: [String] {
            [model.name, computeType, "beam\(beamSize)", "t\(threads)"] + (seed == 0 ? [] : ["seed\(seed)"])
        }
    }

    /// The voice activity detector the worker runs: faster-whisper's bundled Silero VAD v6.
    public static let voiceActivityModel = "silero-vad-v6"

    public static func engine(
        root: String = PackageRoot.path, settings: Settings = Settings(), callTimeout: Duration = .seconds(120),
        protocolVersion: Int = WorkerProtocol.latest
    ) -> WorkerEngine {
        WorkerEngine(
            id: "whisper", settings: settings.names,
            command: [root + "/.venv/bin/python", root + "/scripts/workers/whisper_worker.py"],
            environment: [
                "WHISPER_MODEL": settings.model.name, "WHISPER_MODEL_DIR": settings.model.path(root: root) ?? "",
                "WHISPER_LOCALES": settings.model.locales.joined(separator: " "),
                "WHISPER_THREADS": String(settings.threads), "WHISPER_COMPUTE_TYPE": settings.computeType,
                "WHISPER_BEAM_SIZE": String(settings.beamSize), "WHISPER_SEED": String(settings.seed),
                "HF_HUB_OFFLINE": "1",
                "PYTHONUNBUFFERED": "1",
            ],
            capabilities: EngineCapabilities(
                partialResults: false, wordTimes: true, alternatives: false, confidence: true,
                locales: settings.model.locales,
                formats: [
                    AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .float32),
                    AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .int16),
                ]),
            callTimeout: callTimeout, protocolVersion: protocolVersion,
            absence: { settings.model.absence(root: root) })
    }
}

extension FaultWorker {
    /// The fault worker as the environment sets it (`HarnessSettings.faultMode`, `faultRate`,
    /// `faultSeed`, `faultTimeout`). A bad value is an engine error naming the setting.
    public static func fromEnvironment(
        _ environment: [String: String] = HarnessContext.current.environment.variables
    ) throws(EngineError) -> WorkerEngine {
        do {
            let timeout = try HarnessSettings.faultTimeout.value(in: environment)
            return FaultWorker.engine(
                mode: try HarnessSettings.faultMode.value(in: environment).rawValue,
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

extension FaultWorker {
    /// The fault worker named with settings, as conformance scenarios plant it:
    /// `fault-worker[crash-mid,after3]` fails in mode `crash-mid` after three audio requests (two
    /// when `afterN` is left out).
    public static func configured(_ settings: [String]) throws(EngineError) -> WorkerEngine {
        let modes = HarnessSettings.faultMode
        var mode: FaultMode?
        var after = 2
        for setting in settings {
            if setting.hasPrefix("after"), let count = Int(setting.dropFirst(5)), count >= 0 {
                after = count
            } else if mode == nil, let named = try? modes.parse(setting) {
                mode = named
            } else {
                throw .invalidSetting(
                    engine: "fault-worker", setting: setting, reason: "expected a mode, \(modes.allowed), and afterN")
            }
        }
        guard let mode else {
            throw .invalidSetting(
                engine: "fault-worker", setting: settings.joined(separator: ","),
                reason: "no mode named: expected \(modes.allowed)")
        }
        return engine(mode: mode.rawValue, after: after)
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

extension HarnessContext {
    private enum WhisperSettingsKey: HarnessContextKey {
        static let defaultValue: WhisperWorker.Settings? = nil
    }

    /// Settings a program chose for the Whisper engines made under this context (the command
    /// line's `--whisper-*` options), in place of the environment's.
    public var whisperSettings: WhisperWorker.Settings? {
        get { self[WhisperSettingsKey.self] }
        set { self[WhisperSettingsKey.self] = newValue }
    }
}
