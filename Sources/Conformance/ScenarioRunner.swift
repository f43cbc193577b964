import AVFAudio
import CoreMedia
import EngineCore
import Foundation
import Records
import SpeechCore
@_spi(Harness) import SpeechReference
import VirtualDevice

/// Runs scenarios against the reference analyzer on an engine: `scripted` (exact expectations
/// included) or any registered engine (engine-independent expectations only).
public struct ScenarioRunner: Sendable {
    public var backend: String
    /// One engine for every scenario of a real backend (a worker process starts once); nil: a
    /// fresh engine per scenario.
    public var sharedEngine: (any RecognitionEngine)?
    /// What each scenario's own context starts from: its engines make the backends, and its
    /// environment is the one programs under test inherit.
    public var context: HarnessContext

    public init(backend: String, sharedEngine: (any RecognitionEngine)? = nil, context: HarnessContext = .current) {
        self.backend = backend
        self.sharedEngine = sharedEngine
        self.context = context
    }

    public var isScripted: Bool { backend == "scripted" }

    public func run(_ scenario: Scenario) async -> ScenarioOutcome {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = (scenario.device ?? ScenarioDevice()).settings
        let engine: any RecognitionEngine
        let faults = scenario.faults ?? []
        var spoken: SpokenDigits?
        if let speech = scenario.speech {
            do { spoken = try SpokenDigits(speech) } catch {
                return .skipped("needs Allison's digit recordings (Debian asterisk-core-sounds-en): \(error)")
            }
        }
        if isScripted {
            if let worker = faults.first(where: { $0.kind.workerMode != nil }), let mode = worker.kind.workerMode {
                do {
                    let after = worker.after.map { ",after\($0)" } ?? ""
                    engine = try context.engines.make("fault-worker[\(mode)\(after)]", in: context)
                } catch { return .error("\(error)") }
            } else {
                let words =
                    spoken?.words
                    ?? (scenario.words ?? []).map {
                        EngineScript.Word(
                            $0.text, start: $0.start, end: $0.end, confidence: $0.confidence, revisions: $0.revisions,
                            alternatives: $0.alternatives)
                    }
                var planted: [EngineScript.Fault] =
                    scenario.faultAt.map { [.throwAt($0, message: "planted fault")] } ?? []
                for fault in faults {
                    switch fault.kind {
                    case .throw: planted.append(.throwAt(fault.at ?? 0, message: "planted fault"))
                    case .stall: planted.append(.stallAt(fault.at ?? 0))
                    case .failFinalize: planted.append(.failFinalize(message: "planted finalize fault"))
                    case .slowFinalize: planted.append(.slowFinalize(yields: fault.after ?? 10_000))
                    case .workerCrash, .workerHang, .workerGarbage, .workerError, .workerExitAtStart: break
                    }
                }
                engine = ScriptedEngine(
                    script: EngineScript(
                        words: words, latency: scenario.latency ?? 0, revisionInterval: 0.1,
                        endpointSilence: scenario.endpointSilence, faults: planted),
                    requiresAssets: scenario.requiresAssets ?? false)
            }
        } else {
            if scenario.faultAt != nil || !faults.isEmpty || scenario.requiresAssets == true {
                return .skipped("needs a planted fault or planted assets, which only the scripted engine has")
            }
            if let sharedEngine {
                engine = sharedEngine
            } else {
                do { engine = try context.engines.make(backend, in: context) } catch { return .error("\(error)") }
            }
            // A rate the scenario calls wrong may be one this engine takes natively.
            if let (audio, _) = scenario.steps.compactMap(\.audio).first(where: {
                $0.1?.outcome == .fails(.speech(.unexpectedAudioFormat)) && $0.0.sampleRate != 16_000
            }),
                engine.capabilities.formats.contains(where: { $0.sampleRate == audio.sampleRate })
            {
                return .skipped(
                    "\(backend) takes \(Int(audio.sampleRate)) Hz audio natively, so it is not a wrong format here")
            }
            let addedLocales = scenario.steps.compactMap { $0.addedModule?.locale }
            // The first the scenario names, so that the reason is the same on every run.
            if let locale = (scenario.modules.compactMap(\.locale) + addedLocales).map({ Scenario.tag($0, on: device) })
                .first(where: { !engine.supports(locale: $0) })
            {
                return .skipped("\(backend) does not support \(locale)")
            }
            for need in scenario.requires ?? [] {
                if need == .recognisedWords {
                    return .skipped(
                        "\(backend) hears the scenario's generated noise, so there are no recognised words to check")
                }
                let c = engine.capabilities
                let has =
                    switch need {
                    case .recognisedWords: false
                    case .partialResults: c.partialResults
                    case .wordTimes: c.wordTimes
                    case .alternatives: c.alternatives
                    case .confidence: c.confidence
                    }
                if !has { return .skipped("\(backend) has no \(need.rawValue)") }
            }
        }
        let store = AssetStore(root: root, maximumReservedLocales: 2)
        if !isScripted {
            // A real engine's assets (templates, models) are installed first, as an app would
            // through AssetInventory; the scenarios about installation use the scripted engine.
            for locale in Set(
                (["en-US"] + scenario.modules.compactMap(\.locale) + scenario.steps.compactMap(\.locale)).map {
                    Scenario.tag($0, on: device)
                }.filter { engine.supports(locale: $0) })
            {
                guard let package = engine.assetPackage(for: locale) else { continue }
                do {
                    try await store.install(package, progress: Progress(totalUnitCount: Int64(package.totalBytes)))
                } catch {
                    return .error("installing \(package.id): \(error)")
                }
            }
        }
        // A replaying backend answers only for audio its cassettes hold: a scenario whose audio
        // they never heard is skipped with that reason rather than failed.
        let watch = RecordedAudioWatch()
        let watched = isScripted ? engine : watch.watching(engine)
        // The scenario's context: its own asset store, device and resource pool, and a clock that
        // skips its waits (a slow download's seconds still add up, but the scenario does not wait).
        var scenarioContext = context
        scenarioContext.assets = store
        scenarioContext.device = device
        scenarioContext.clock = SkippingClock()
        scenarioContext.resourcePool = ResourcePool(limit: scenario.resourceLimit ?? 64)
        scenarioContext.engine = watched
        let outcome: ScenarioOutcome = await HarnessContext.$current.withValue(scenarioContext) {
            if let spoken, let legacy = scenario.legacy {
                return await LegacyScenarioExecution(
                    scenario: scenario, run: legacy, engine: watched, speech: spoken, exact: isScripted
                ).execute()
            }
            if let spoken, let helper = scenario.helper {
                return await HelperScenarioExecution(
                    scenario: scenario, run: helper, speech: spoken, exact: isScripted
                ).execute()
            }
            if let spoken, let capture = scenario.capture {
                return await CaptureScenarioExecution(
                    scenario: scenario, run: capture, speech: spoken, exact: isScripted
                ).execute()
            }
            // A worker is a real process: waits for it are bounded by wall time, not by yields.
            let execution = ScenarioExecution(
                scenario: scenario, engine: watched, exact: isScripted,
                virtualTime: isScripted && engine.processes == nil)
            let result = await execution.run()
            if sharedEngine == nil || isScripted { await engine.shutdown() }
            return result
        }
        if outcome != .passed, let missing = watch.noRecording {
            return .skipped("\(missing) (record the scenario's audio into the cassettes to run it)")
        }
        return outcome
    }
}
