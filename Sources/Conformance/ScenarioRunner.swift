import AVFAudio
import CoreMedia
import Engines
import Foundation
import SpeechCore
import SpeechReference

/// How a scenario went on a backend.
public enum ScenarioOutcome: Sendable, Hashable {
    case passed
    case failed([String])
    case skipped(String)
    case error(String)
}

/// Runs scenarios against the reference analyzer on an engine: `scripted` (exact expectations
/// included) or any registered engine (engine-independent expectations only).
public struct ScenarioRunner: Sendable {
    public var backend: String
    /// One engine for every scenario of a real backend (a worker process starts once); nil: a
    /// fresh engine per scenario.
    public var sharedEngine: (any RecognitionEngine)?

    public init(backend: String, sharedEngine: (any RecognitionEngine)? = nil) {
        self.backend = backend
        self.sharedEngine = sharedEngine
    }

    public var isScripted: Bool { backend == "scripted" }

    public func run(_ scenario: Scenario) async -> ScenarioOutcome {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let engine: any RecognitionEngine
        let faults = scenario.faults ?? []
        var spoken: SpokenDigits?
        if let speech = scenario.speech {
            do { spoken = try SpokenDigits(speech) } catch {
                return .skipped("needs Allison's digit recordings (Debian asterisk-core-sounds-en): \(error)")
            }
        }
        if isScripted {
            if let worker = faults.first(where: { $0.kind.hasPrefix("worker") }) {
                let modes = [
                    "workerCrash": "crash-mid", "workerHang": "hang", "workerGarbage": "garbage",
                    "workerError": "error",
                    "workerExitAtStart": "exit-at-start",
                ]
                engine = FaultWorker.engine(mode: modes[worker.kind] ?? "ok", after: worker.after ?? 2)
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
                    case "throw": planted.append(.throwAt(fault.at ?? 0, message: "planted fault"))
                    case "stall": planted.append(.stallAt(fault.at ?? 0))
                    case "failFinalize": planted.append(.failFinalize(message: "planted finalize fault"))
                    case "slowFinalize": planted.append(.slowFinalize(yields: fault.after ?? 10_000))
                    default: break
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
                do { engine = try EngineRegistry.shared.make(backend) } catch { return .error("\(error)") }
            }
            // A rate the scenario calls wrong may be one this engine takes natively.
            if let step = scenario.steps.first(where: {
                $0.expect == "fails:unexpectedAudioFormat" && $0.sampleRate != nil
            }),
                let rate = step.sampleRate, engine.capabilities.formats.contains(where: { $0.sampleRate == rate })
            {
                return .skipped("\(backend) takes \(Int(rate)) Hz audio natively, so it is not a wrong format here")
            }
            for locale in Set(
                scenario.modules.compactMap(\.locale)
                    + scenario.steps.filter { $0.do == "addModule" }.compactMap(\.locale))
            where !engine.supports(locale: locale) {
                return .skipped("\(backend) does not support \(locale)")
            }
            for need in scenario.requires ?? [] {
                if need == "recognisedWords" {
                    return .skipped(
                        "\(backend) hears the scenario's generated noise, so there are no recognised words to check")
                }
                let c = engine.capabilities
                let has =
                    [
                        "partialResults": c.partialResults, "wordTimes": c.wordTimes, "alternatives": c.alternatives,
                        "confidence": c.confidence,
                    ][need] ?? false
                if !has { return .skipped("\(backend) has no \(need)") }
            }
        }
        let store = AssetStore(root: root, maximumReservedLocales: 2)
        if !isScripted {
            // A real engine's assets (templates, models) are installed first, as an app would
            // through AssetInventory; the scenarios about installation use the scripted engine.
            for locale in Set(
                (["en-US"] + scenario.modules.compactMap(\.locale) + scenario.steps.compactMap(\.locale)).filter {
                    engine.supports(locale: $0)
                })
            {
                guard let package = engine.assetPackage(for: locale) else { continue }
                do {
                    try await store.install(package, progress: Progress(totalUnitCount: Int64(package.totalBytes)))
                } catch {
                    return .error("installing \(package.id): \(error)")
                }
            }
        }
        return await AssetStore.$current.withValue(store) {
            await ResourcePool.$current.withValue(ResourcePool(limit: scenario.resourceLimit ?? 64)) {
                await EngineSelection.$override.withValue(engine) {
                    if let spoken, let legacy = scenario.legacy {
                        return await LegacyScenarioExecution(
                            scenario: scenario, run: legacy, engine: engine, speech: spoken, exact: isScripted
                        ).execute()
                    }
                    if let spoken, let capture = scenario.capture {
                        return await CaptureScenarioExecution(
                            scenario: scenario, run: capture, speech: spoken, exact: isScripted
                        ).execute()
                    }
                    // A worker is a real process: waits for it are bounded by wall time, not by yields.
                    let execution = ScenarioExecution(
                        scenario: scenario, engine: engine, exact: isScripted,
                        virtualTime: isScripted && !(engine is WorkerEngine))
                    let result = await execution.run()
                    if sharedEngine == nil || isScripted { await (engine as? WorkerEngine)?.shutdown() }
                    return result
                }
            }
        }
    }
}

/// One scenario's state while it runs.
final class ScenarioExecution: @unchecked Sendable {
    let scenario: Scenario
    let engine: any RecognitionEngine
    let exact: Bool
    var modules: [any SpeechModule] = []
    var transcribers: [SpeechTranscriber] = []
    var analyzer: SpeechAnalyzer!
    var problems: [String] = []
    var pending: [String: (task: Task<String, Never>, done: Locked<Bool>)] = [:]
    var input: AsyncStream<AnalyzerInput>.Continuation?
    /// The input a `startInput` replaced, so a scenario can end it later.
    var previousInput: AsyncStream<AnalyzerInput>.Continuation?
    var autonomousEnd = 0.0
    let ranges = RangeLog()
    var handlerGeneration = 0
    var handlerMark = 0
    var replacedAt = 0

    /// Everything runs on audio time (the scripted engine), so a bounded number of yields is a wait.
    let virtualTime: Bool

    init(scenario: Scenario, engine: any RecognitionEngine, exact: Bool, virtualTime: Bool) {
        self.scenario = scenario
        self.engine = engine
        self.exact = exact
        self.virtualTime = virtualTime
    }

    /// Every call of the volatile range handler, with the handler generation that received it.
    final class RangeLog: Sendable {
        struct Call {
            var range: CMTimeRange
            var changedStart: Bool
            var changedEnd: Bool
            var generation: Int
        }
        private let items = Locked<[Call]>([])
        func append(_ call: Call) { items.withLock { $0.append(call) } }
        var calls: [Call] { items.withLock { $0 } }
        var all: [CMTimeRange] { calls.map(\.range) }
    }

    func installHandler() async {
        let log = ranges, generation = handlerGeneration
        await analyzer.setVolatileRangeChangedHandler { range, changedStart, changedEnd in
            log.append(
                RangeLog.Call(range: range, changedStart: changedStart, changedEnd: changedEnd, generation: generation))
        }
    }

    func makeModule(_ spec: Scenario.ModuleSpec) -> any SpeechModule {
        let locale = Locale(identifier: spec.locale ?? "en-US")
        switch spec.kind {
        case "dictation":
            return DictationTranscriber(locale: locale, preset: .progressiveLongDictation, engine: engine)
        case "detector":
            return SpeechDetector(detectionOptions: .init(sensitivityLevel: .medium), reportResults: true)
        default:
            let presets: [String: SpeechTranscriber.Preset] = [
                "transcription": .transcription, "transcriptionWithAlternatives": .transcriptionWithAlternatives,
                "timeIndexedTranscriptionWithAlternatives": .timeIndexedTranscriptionWithAlternatives,
                "progressiveTranscription": .progressiveTranscription,
                "timeIndexedProgressiveTranscription": .timeIndexedProgressiveTranscription,
            ]
            var preset = presets[spec.preset ?? "progressiveTranscription"] ?? .progressiveTranscription
            if spec.reporting != nil || spec.attributes != nil {
                preset = SpeechTranscriber.Preset(
                    transcriptionOptions: [],
                    reportingOptions: Set(
                        (spec.reporting ?? []).compactMap {
                            [
                                "volatileResults": .volatileResults, "fastResults": .fastResults,
                                "alternativeTranscriptions": .alternativeTranscriptions,
                            ][$0]
                        }),
                    attributeOptions: Set(
                        (spec.attributes ?? []).compactMap {
                            [
                                "audioTimeRange": .audioTimeRange,
                                "transcriptionConfidence": .transcriptionConfidence,
                            ][$0]
                        }))
            }
            let transcriber = SpeechTranscriber(locale: locale, preset: preset, engine: engine)
            transcribers.append(transcriber)
            return transcriber
        }
    }

    func run() async -> ScenarioOutcome {
        modules = scenario.modules.map(makeModule)
        analyzer = SpeechAnalyzer(modules: modules)
        await installHandler()
        for (index, step) in scenario.steps.enumerated() {
            await perform(step, index: index + 1)
        }
        input?.finish()
        await analyzer.cancelAndFinishNow()
        for (_, entry) in pending.sorted(by: { $0.key < $1.key }) { _ = await entry.task.value }
        await checkFinal()
        return problems.isEmpty ? .passed : .failed(problems)
    }

    // MARK: Steps

    static let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!

    func buffers(seconds: Double, start: Double?, rate: Double) -> [AnalyzerInput] {
        let format = rate == 16_000 ? Self.format : AVAudioFormat(standardFormatWithSampleRate: rate, channels: 1)!
        let count = seconds <= 0 ? 0 : max(1, Int((seconds / 0.1).rounded()))
        var rng = SeededGenerator(seed: 11)
        return (0..<count).map { i in
            let frames = AVAudioFrameCount(rate / 10)
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
            buffer.frameLength = frames
            for k in 0..<Int(frames) { buffer.floatChannelData![0][k] = Float(rng.nextGaussian() * 0.01) }
            let time = i == 0 ? start.map { CMTime(seconds: $0, preferredTimescale: CMTimeScale(rate)) } : nil
            return AnalyzerInput(buffer: buffer, bufferStartTime: time)
        }
    }

    /// How a call ended, in the words `expect` uses.
    static func describe(_ body: () async throws -> Void) async -> String {
        do {
            try await body()
            return "returns"
        } catch is CancellationError {
            return "cancelled"
        } catch let error as SFSpeechError {
            return "fails:\(error.code)"
        } catch is EngineError {
            return "fails:engine"
        } catch is SpeechAnalyzerUsageError {
            return "fails:usage"
        } catch {
            return "fails:other(\(error))"
        }
    }

    func check(_ step: Scenario.Step, index: Int, outcome: String) {
        guard let expected = step.expect, !(expected.hasPrefix("exact:") && !exact) else { return }
        let wanted = expected.hasPrefix("exact:") ? String(expected.dropFirst(6)) : expected
        if outcome != wanted { problems.append("step \(index) (\(step.do)): expected \(wanted), got \(outcome)") }
    }

    func call(_ step: Scenario.Step, index: Int, _ body: @escaping @Sendable () async throws -> Void) async {
        if step.async == true {
            let analyzer = self.analyzer!
            let before = await analyzer.waitersRegistered
            let done = Locked(false)
            let task = Task { () -> String in
                let outcome = await Self.describe(body)
                done.withLock { $0 = true }
                return outcome
            }
            pending[step.ref ?? "step\(index)"] = (task, done)
            while !done.withLock({ $0 }), await analyzer.waitersRegistered <= before { await Task.yield() }
        } else {
            check(step, index: index, outcome: await Self.describe(body))
        }
    }

    func perform(_ step: Scenario.Step, index: Int) async {
        let analyzer = self.analyzer!
        let time = step.time.map { CMTime(seconds: $0, preferredTimescale: 16_000) }
        switch step.do {
        case "feed":
            let inputs = buffers(seconds: step.seconds ?? 0.1, start: step.start, rate: step.sampleRate ?? 16_000)
            let stream = AsyncStream<AnalyzerInput> { c in
                inputs.forEach { c.yield($0) }
                c.finish()
            }
            await call(step, index: index) { _ = try await analyzer.analyzeSequence(stream) }
        case "feedAsync":
            if input == nil {
                let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
                input = continuation
                check(
                    step, index: index, outcome: await Self.describe { try await analyzer.start(inputSequence: stream) }
                )
            }
            let inputs = buffers(seconds: step.seconds ?? 0.1, start: step.start, rate: step.sampleRate ?? 16_000)
            autonomousEnd = (step.start ?? autonomousEnd) + Double(inputs.count) * 0.1
            inputs.forEach { input?.yield($0) }
            // `nowait`: the engine is meant to be stuck, so the audio will not all be taken.
            if step.value == "nowait" { return }
            // Wait until the analyzer has taken this audio (or finished), without sleeping.
            let target = CMTime(seconds: autonomousEnd - 1e-6, preferredTimescale: 1_000_000)
            let transcribers = self.transcribers
            await waitUntil {
                await analyzer.volatileRange.map { $0.end >= target } ?? false
                    || transcribers.contains { $0.streamFinished }
            }
        case "analyze":
            let inputs = buffers(seconds: step.seconds ?? 0.1, start: step.start, rate: step.sampleRate ?? 16_000)
            let stream = AsyncStream<AnalyzerInput> { c in
                inputs.forEach { c.yield($0) }
                c.finish()
            }
            var returned: CMTime?
            let outcome = await Self.describe { returned = try await analyzer.analyzeSequence(stream) }
            check(
                step, index: index,
                outcome: outcome == "returns"
                    ? "time:" + (returned.map { String(format: "%.3f", $0.seconds) } ?? "nil") : outcome)
        case "startInput":
            previousInput = input
            let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
            input = continuation
            check(step, index: index, outcome: await Self.describe { try await analyzer.start(inputSequence: stream) })
        case "endPreviousInput":
            previousInput?.finish()
        case "endInput":
            input?.finish()
        case "finalize":
            await call(step, index: index) { try await analyzer.finalize(through: time) }
        case "finish":
            await call(step, index: index) { try await analyzer.finish(after: time ?? .zero) }
        case "finalizeAndFinish":
            await call(step, index: index) { try await analyzer.finalizeAndFinish(through: time ?? .zero) }
        case "finishAtEndOfInput":
            await call(step, index: index) { try await analyzer.finalizeAndFinishThroughEndOfInput() }
        case "cancelBefore":
            await analyzer.cancelAnalysis(before: time ?? .zero)
        case "cancelAndFinishNow":
            await analyzer.cancelAndFinishNow()
        case "addModule":
            let module = makeModule(
                Scenario.ModuleSpec(kind: step.value ?? "transcriber", preset: nil, locale: step.locale))
            let all = modules + [module]
            await call(step, index: index) { try await analyzer.setModules(all) }
            if await analyzer.modules.count == all.count {
                modules = all
            } else if let transcriber = module as? SpeechTranscriber {
                // Not taken (the session had finished): it is not one of the analyzer's modules.
                transcribers.removeAll { $0 === transcriber }
            }
        case "removeModule":
            var all = modules
            if let i = step.module, all.indices.contains(i) { all.remove(at: i) }
            let kept = all
            await call(step, index: index) { try await analyzer.setModules(kept) }
        case "await":
            guard let ref = step.ref, let entry = pending.removeValue(forKey: ref) else {
                problems.append("step \(index): nothing started as '\(step.ref ?? "")'")
                return
            }
            // On the scripted engine everything runs on audio time, so a bounded number of yields
            // tells "still waiting" from "slow"; real engines compute, so they get wall time.
            await waitUntil { entry.done.withLock { $0 } }
            guard entry.done.withLock({ $0 }) else {
                problems.append("step \(index): '\(ref)' is still waiting (expected \(step.expect ?? "it to end"))")
                pending[ref] = entry
                return
            }
            check(step, index: index, outcome: await entry.task.value)
        case "checkPending":
            guard let ref = step.ref, let entry = pending[ref] else {
                problems.append("step \(index): nothing pending as '\(step.ref ?? "")'")
                return
            }
            // Give the analyzer every chance to (wrongly) complete the call first.
            for _ in 0..<2_000 where !entry.done.withLock({ $0 }) { await Task.yield() }
            if entry.done.withLock({ $0 }) {
                problems.append(
                    "step \(index): '\(ref)' ended (\(await entry.task.value)); expected it to be still waiting")
            }
        case "cancelTask":
            guard let ref = step.ref, let entry = pending[ref] else {
                problems.append("step \(index): nothing pending as '\(step.ref ?? "")'")
                return
            }
            entry.task.cancel()
        case "markHandler":
            handlerMark = ranges.calls.count
        case "replaceHandler":
            handlerGeneration += 1
            replacedAt = ranges.calls.count
            await installHandler()
        case "checkHandler":
            checkHandler(step.value ?? "", index: index, property: await analyzer.volatileRange)
        case "checkAttributes":
            guard exact || !(step.expect ?? "").hasPrefix("exact") else { return }
            let module = step.module ?? 0
            guard transcribers.indices.contains(module) else { return }
            checkAttributes(step.value ?? "", of: transcribers[module], index: index)
        case "checkModuleCount":
            let count = await analyzer.modules.count
            if String(count) != step.value {
                problems.append("step \(index): \(count) modules, expected \(step.value ?? "?")")
            }
        case "checkReserved":
            let count = await AssetInventory.reservedLocales.count
            if String(count) != step.value {
                problems.append("step \(index): \(count) reserved locales, expected \(step.value ?? "?")")
            }
        case "checkVolatileRange":
            let range = await analyzer.volatileRange
            let value = step.value ?? "nil"
            let ok: Bool
            if value == "nil" {
                ok = range == nil
            } else if let range {
                let parts = value.components(separatedBy: ">=")
                let bound = Double(parts.last ?? "") ?? 0
                ok = parts.first == "start" ? range.start.seconds >= bound - 1e-6 : range.end.seconds >= bound - 1e-6
            } else {
                ok = false
            }
            if !ok {
                problems.append(
                    "step \(index): volatile range \(range.map { "\($0.start.seconds)–\($0.end.seconds)" } ?? "nil"), expected \(value)"
                )
            }
        case "checkStreams":
            let module = step.module ?? 0
            guard transcribers.indices.contains(module) else { return }
            let state = streamState(transcribers[module])
            if state != (step.value ?? "open") {
                problems.append(
                    "step \(index): stream of module \(module) is \(state), expected \(step.value ?? "open")")
            }
        case "checkResults":
            guard exact, let expected = step.value, let transcriber = transcribers.first else { return }
            let text = finalText(transcriber)
            if text != expected { problems.append("step \(index): final text \"\(text)\", expected \"\(expected)\"") }
        case "reserve":
            let locale = Locale(identifier: step.locale ?? "en-US")
            check(
                step, index: index,
                outcome: await Self.describeValue { try await AssetInventory.reserve(locale: locale) })
        case "release":
            let locale = Locale(identifier: step.locale ?? "en-US")
            let released = await AssetInventory.release(reservedLocale: locale)
            check(step, index: index, outcome: released ? "true" : "false")
        case "status":
            let status = await AssetInventory.status(forModules: modules)
            check(step, index: index, outcome: "\(status)")
        case "installRequest":
            let modules = self.modules
            check(
                step, index: index,
                outcome: await Self.describeValue {
                    guard let request = try await AssetInventory.assetInstallationRequest(supporting: modules) else {
                        return false
                    }
                    try await request.downloadAndInstall()
                    return true
                }.replacingOccurrences(of: "true", with: "installed").replacingOccurrences(of: "false", with: "nil"))
        case "setContext":
            let context = AnalysisContext()
            context.contextualStrings[.general] = ["harness"]
            await call(step, index: index) { try await analyzer.setContext(context) }
        case "prepare":
            await call(step, index: index) { try await analyzer.prepareToAnalyze(in: Self.format) }
        case "bestFormat":
            let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules)
            check(step, index: index, outcome: format == nil ? "nil" : "format")
        case "useModuleElsewhere":
            let module = modules[step.module ?? 0]
            let other = SpeechAnalyzer(modules: [])
            await call(step, index: index) { try await other.setModules([module]) }
            await other.cancelAndFinishNow()
        default:
            problems.append("step \(index): unknown step \(step.do)")
        }
    }

    func checkHandler(_ value: String, index: Int, property: CMTimeRange?) {
        let calls = ranges.calls
        let ok: Bool
        switch value {
        case "changedEnd": ok = calls.contains { $0.changedEnd }
        case "quietSinceMark": ok = calls.count == handlerMark
        case "oldQuiet": ok = !calls[replacedAt...].contains { $0.generation < handlerGeneration }
        case "newCalled": ok = calls[replacedAt...].contains { $0.generation == handlerGeneration }
        case "matchesProperty": ok = calls.last.map { $0.range == property } ?? (property == nil)
        case "none": ok = calls.isEmpty
        default:
            if value.hasPrefix("changedStart>=") {
                let bound = Double(value.dropFirst("changedStart>=".count)) ?? 0
                ok = calls.contains { $0.changedStart && $0.range.start.seconds >= bound - 1e-6 }
            } else {
                problems.append("step \(index): unknown handler check '\(value)'")
                return
            }
        }
        if !ok {
            let seen = calls.suffix(4).map {
                "\($0.range.start.seconds)–\($0.range.end.seconds) s\($0.changedStart ? "S" : "")\($0.changedEnd ? "E" : "")"
            }
            problems.append(
                "step \(index): handler check '\(value)' failed (\(calls.count) calls, last: \(seen.joined(separator: ", ")))"
            )
        }
    }

    /// Attribute rules of published results with text: `time`/`notime`, `confidence`/`noconfidence`,
    /// `alternatives>1` (some result has more than one) or `alternatives=1` (none has).
    func checkAttributes(_ value: String, of transcriber: SpeechTranscriber, index: Int) {
        let results = transcriber.publishedResults.filter { !$0.text.characters.isEmpty }
        guard !results.isEmpty else {
            problems.append("step \(index): no results with text to check attributes on")
            return
        }
        let runs = results.flatMap { result in
            result.text.runs.filter { !result.text[$0.range].characters.allSatisfy(\.isWhitespace) }
        }
        let ok: Bool
        switch value {
        case "time": ok = runs.allSatisfy { $0.audioTimeRange != nil }
        case "notime": ok = runs.allSatisfy { $0.audioTimeRange == nil }
        case "confidence": ok = runs.allSatisfy { $0.transcriptionConfidence != nil }
        case "noconfidence": ok = runs.allSatisfy { $0.transcriptionConfidence == nil }
        case "alternatives>1": ok = results.contains { $0.alternatives.count > 1 }
        case "alternatives=1": ok = results.allSatisfy { $0.alternatives.count == 1 }
        case "timesInRange":
            ok = results.allSatisfy { result in
                result.text.runs.allSatisfy { run in
                    guard let time = run.audioTimeRange else { return true }
                    return time.start >= result.range.start && time.end <= result.range.end
                }
            }
        default:
            problems.append("step \(index): unknown attribute check '\(value)'")
            return
        }
        if !ok { problems.append("step \(index): attribute check '\(value)' failed on \(results.count) results") }
    }

    /// Yields until `condition` holds: at most 100,000 times on the scripted engine (virtual
    /// time, no sleeping), at most 60 s of wall time on a real engine or worker process.
    func waitUntil(_ condition: () async -> Bool) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        var spins = 0
        while !(await condition()) {
            spins += 1
            if virtualTime ? spins > 100_000 : clock.now > deadline { return }
            await Task.yield()
        }
    }

    static func describeValue(_ body: () async throws -> Bool) async -> String {
        do { return try await body() ? "true" : "false" } catch let error as SFSpeechError {
            return "fails:\(error.code)"
        } catch {
            return "fails:other(\(error))"
        }
    }

    func streamState(_ transcriber: SpeechTranscriber) -> String {
        transcriber.streamFinished ? (transcriber.streamError == nil ? "ended" : "failed") : "open"
    }

    func finalText(_ transcriber: SpeechTranscriber) -> String {
        transcriber.publishedResults.filter(\.isFinal).map { String($0.text.characters) }.filter { !$0.isEmpty }.joined(
            separator: " ")
    }

    // MARK: Final checks

    func checkFinal() async {
        let expect = scenario.expect
        let exactOnly = Set(scenario.exact ?? ["finalText"])
        if let text = expect.finalText, exact || !exactOnly.contains("finalText"), let transcriber = transcribers.first
        {
            let got = finalText(transcriber)
            if got != text { problems.append("final text \"\(got)\", expected \"\(text)\"") }
        }
        if let wanted = expect.streams {
            for (i, transcriber) in transcribers.enumerated() where streamState(transcriber) != wanted {
                problems.append("stream of module \(i) \(streamState(transcriber)), expected \(wanted)")
            }
        }
        if expect.resultRules ?? true {
            for (i, transcriber) in transcribers.enumerated() {
                problems += ResultRules.problems(in: transcriber.publishedResults, module: i)
            }
        }
        if expect.volatileRangeMonotonic ?? true {
            for (a, b) in zip(ranges.all, ranges.all.dropFirst()) where b.start < a.start {
                problems.append("volatile range start moved back from \(a.start.seconds) to \(b.start.seconds)")
                break
            }
        }
        if expect.noWaiters ?? true, await analyzer.pendingWaiterCount != 0 {
            problems.append("\(await analyzer.pendingWaiterCount) callers still waiting after cancelAndFinishNow")
        }
        if expect.hadVolatileResults == true, exact, let transcriber = transcribers.first,
            !transcriber.publishedResults.contains(where: { !$0.isFinal })
        {
            problems.append("no volatile results")
        }
    }
}
