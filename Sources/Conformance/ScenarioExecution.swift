import AVFAudio
import CoreMedia
import EngineCore
import Foundation
import Records
import SpeechCore
@_spi(Harness) import SpeechReference

/// One scenario's state while it runs.
final class ScenarioExecution: @unchecked Sendable {
    let scenario: Scenario
    let engine: any RecognitionEngine
    let exact: Bool
    /// The analyzer's modules, as the scenario last set them.
    var modules: [any SpeechModule]
    var transcribers: [SpeechTranscriber] = []
    /// Made with the scenario's modules before the first step.
    let analyzer: SpeechAnalyzer
    var problems: [String] = []
    /// The last installation request an `installRequest` step made, for `downloadProgress`.
    var lastInstallRequest: AssetInstallationRequest?
    /// Calls started and not yet awaited, by name: the call, the moment it ended, and its place
    /// among the analyzer's waiting calls (nil: it ended without waiting).
    var pending: [String: (task: Task<CallOutcome, Never>, finished: OneShot, registration: Int?)] = [:]
    /// The autonomous input sequences the scenario feeds (``AutonomousInput``).
    var inputs = AutonomousInput()
    let ranges = RangeLog()
    /// Where the handler's calls stood at the last mark and the last replacement.
    var handler = HandlerMarks()

    /// Everything runs on audio time (the scripted engine): an awaited event comes at once unless a
    /// rule is broken, so its wait is bounded short.
    let virtualTime: Bool

    init(scenario: Scenario, engine: any RecognitionEngine, exact: Bool, virtualTime: Bool) {
        self.scenario = scenario
        self.engine = engine
        self.exact = exact
        self.virtualTime = virtualTime
        var transcribers: [SpeechTranscriber] = []
        modules = scenario.modules.map { Self.makeModule($0, engine: engine, transcribers: &transcribers) }
        self.transcribers = transcribers
        analyzer = SpeechAnalyzer(modules: modules)
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
        let log = ranges, generation = handler.generation
        await analyzer.setVolatileRangeChangedHandler { range, changedStart, changedEnd in
            log.append(
                RangeLog.Call(range: range, changedStart: changedStart, changedEnd: changedEnd, generation: generation))
        }
    }

    /// The module `spec` describes on `engine`; a transcriber is added to `transcribers`.
    static func makeModule(
        _ spec: Scenario.ModuleSpec, engine: any RecognitionEngine, transcribers: inout [SpeechTranscriber]
    ) -> any SpeechModule {
        // The kind was checked when the file was read (ModuleSpec from the file, ScenarioStep.ModuleKind).
        let locale = Scenario.locale(spec.locale ?? "en-US")
        switch spec.kind {
        case .dictation:
            return DictationTranscriber(locale: locale, preset: .progressiveLongDictation, engine: engine)
        case .detector:
            return SpeechDetector(detectionOptions: .init(sensitivityLevel: .medium), reportResults: true)
        case .transcriber:
            let transcriber = SpeechTranscriber(locale: locale, preset: Self.preset(spec), engine: engine)
            transcribers.append(transcriber)
            return transcriber
        }
    }

    /// The transcriber preset a module spec names: a preset, or options given one by one.
    static func preset(_ spec: Scenario.ModuleSpec) -> SpeechTranscriber.Preset {
        guard spec.transcription != nil || spec.reporting != nil || spec.attributes != nil else {
            switch spec.preset ?? .progressiveTranscription {
            case .transcription: return .transcription
            case .transcriptionWithAlternatives: return .transcriptionWithAlternatives
            case .timeIndexedTranscriptionWithAlternatives: return .timeIndexedTranscriptionWithAlternatives
            case .progressiveTranscription: return .progressiveTranscription
            case .timeIndexedProgressiveTranscription: return .timeIndexedProgressiveTranscription
            }
        }
        return SpeechTranscriber.Preset(
            transcriptionOptions: Set(
                (spec.transcription ?? []).map { option -> SpeechTranscriber.TranscriptionOption in
                    switch option {
                    case .etiquetteReplacements: .etiquetteReplacements
                    }
                }),
            reportingOptions: Set(
                (spec.reporting ?? []).map { option -> SpeechTranscriber.ReportingOption in
                    switch option {
                    case .volatileResults: .volatileResults
                    case .alternativeTranscriptions: .alternativeTranscriptions
                    case .fastResults: .fastResults
                    }
                }),
            attributeOptions: Set(
                (spec.attributes ?? []).map { option -> SpeechTranscriber.ResultAttributeOption in
                    switch option {
                    case .audioTimeRange: .audioTimeRange
                    case .transcriptionConfidence: .transcriptionConfidence
                    }
                }))
    }

    func run() async -> ScenarioOutcome {
        await installHandler()
        for (index, step) in scenario.steps.enumerated() {
            await step.action.perform(in: self, at: StepPlace(index: index + 1, kind: step.kind))
        }
        inputs.current?.continuation.finish()
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
        let frames = AVAudioFrameCount(rate / 10)
        let noise = Self.noise(frames: count * Int(frames))
        return (0..<count).map { i in
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
            buffer.frameLength = frames
            for k in 0..<Int(frames) { buffer.floatChannelData![0][k] = noise[i * Int(frames) + k] }
            let time = i == 0 ? start.map { CMTime(seconds: $0, preferredTimescale: CMTimeScale(rate)) } : nil
            return AnalyzerInput(buffer: buffer, bufferStartTime: time)
        }
    }

    /// The quiet noise every step's audio is (the same from its start each time: seeded).
    static func noise(frames: Int) -> [Float] {
        var rng = SeededGenerator(seed: 11)
        return (0..<frames).map { _ in Float(rng.nextGaussian() * 0.01) }
    }

    /// How a call ended.
    static func describe(_ body: () async throws -> Void) async -> CallOutcome {
        do {
            try await body()
            return .returns
        } catch {
            return failure(error)
        }
    }

    /// A query's answer, or how it failed.
    static func describeValue(_ body: () async throws -> String) async -> CallOutcome {
        do { return .answer(try await body()) } catch { return failure(error) }
    }

    static func failure(_ error: any Error) -> CallOutcome {
        error is CancellationError ? .cancelled : .fails(CallFailure(error))
    }

    /// Records a problem when an expectation that applies on this backend is not met.
    func check(_ expectation: Expectation?, _ outcome: CallOutcome, at place: StepPlace) {
        guard let expectation, exact || !expectation.exactOnly else { return }
        if !outcome.meets(expectation.outcome) {
            problems.append("step \(place.index) (\(place.kind)): expected \(expectation.outcome), got \(outcome)")
        }
    }

    /// Makes a call: in place, checked against its expectation, or started under its name and left
    /// running until the analyzer has registered it as a waiter (or it has ended).
    func call(
        _ call: ScenarioStep.Call, at place: StepPlace, _ body: @escaping @Sendable () async throws -> Void
    ) async {
        guard let name = call.startedAs else {
            check(call.expect, await Self.describe(body), at: place)
            return
        }
        let analyzer = self.analyzer
        let before = await analyzer.waitersRegistered
        let finished = OneShot()
        let task = Task { () -> CallOutcome in
            let outcome = await Self.describe(body)
            finished.fire()
            return outcome
        }
        // The next step comes once the call is waiting on the analyzer, or has already ended.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await finished.wait() }
            group.addTask { await analyzer.waiterRegistered(after: before) }
            await group.next()
            group.cancelAll()
        }
        let registration = await analyzer.waitersRegistered > before ? before + 1 : nil
        pending[name.isEmpty ? "step\(place.index)" : name] = (task, finished, registration)
    }

    /// A finite input sequence of generated audio, through `analyzeSequence`.
    func feed(_ audio: ScenarioStep.Audio, _ how: ScenarioStep.Call, at place: StepPlace) async {
        let analyzer = self.analyzer, stream = Self.sequence(buffers(audio))
        await call(how, at: place) { _ = try await analyzer.analyzeSequence(stream) }
    }

    /// Audio into the autonomous input (started on first use), then, unless told not to, a wait
    /// until the analyzer has taken it or its results have ended.
    func feedAsync(_ audio: ScenarioStep.Audio, waits: Bool, expect: Expectation?, at place: StepPlace) async {
        let analyzer = self.analyzer
        if inputs.current == nil {
            let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
            check(expect, await Self.describe { try await analyzer.start(inputSequence: stream) }, at: place)
            inputs.started(continuation, generation: await analyzer.inputGeneration)
        }
        let buffers = buffers(audio)
        let end = (audio.start ?? inputs.audioEnd) + Double(buffers.count) * 0.1
        inputs.audioEnd = end
        buffers.forEach { inputs.current?.continuation.yield($0) }
        // Not waiting: the engine is meant to be stuck, so the audio will not all be taken.
        guard waits else { return }
        let target = CMTime(seconds: end - 1e-6, preferredTimescale: 1_000_000)
        await bounded { await analyzer.consumed(through: target) }
    }

    /// `analyzeSequence`, checked on the time it returns.
    func analyze(_ audio: ScenarioStep.Audio, expect: Expectation?, at place: StepPlace) async {
        let analyzer = self.analyzer, stream = Self.sequence(buffers(audio))
        var returned: CMTime?
        let outcome = await Self.describe { returned = try await analyzer.analyzeSequence(stream) }
        check(expect, outcome == .returns ? .returnedTime(returned?.seconds) : outcome, at: place)
    }

    /// A new autonomous input; the one it replaces is kept so the scenario can end it later.
    func startInput(expect: Expectation?, at place: StepPlace) async {
        let analyzer = self.analyzer
        let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        check(expect, await Self.describe { try await analyzer.start(inputSequence: stream) }, at: place)
        inputs.started(continuation, generation: await analyzer.inputGeneration)
    }

    func addModule(
        _ kind: ScenarioStep.ModuleKind, locale: String?, _ how: ScenarioStep.Call, at place: StepPlace
    ) async {
        let module = Self.makeModule(
            Scenario.ModuleSpec(kind: kind, locale: locale), engine: engine, transcribers: &transcribers)
        let all = modules + [module], analyzer = analyzer
        await call(how, at: place) { try await analyzer.setModules(all) }
        if await analyzer.modules.count == all.count {
            modules = all
        } else if let transcriber = module as? SpeechTranscriber {
            // Not taken (the session had finished): it is not one of the analyzer's modules.
            transcribers.removeAll { $0 === transcriber }
        }
    }

    /// Waits for a started call to end and checks how.
    func awaitCall(_ name: String, expect: Expectation?, at place: StepPlace) async {
        guard let entry = pending.removeValue(forKey: name) else {
            return problems.append("step \(place.index): nothing started as '\(name)'")
        }
        guard await ended(entry.finished) else {
            problems.append(
                "step \(place.index): '\(name)' is still waiting (expected \(expect.map { "\($0.outcome)" } ?? "it to end"))"
            )
            pending[name] = entry
            return
        }
        check(expect, await entry.task.value, at: place)
    }

    /// A started call must still be waiting once the analyzer has done all it can on its own (or
    /// its engine is stuck by design): only then is "still waiting" an answer that will last.
    func checkPending(_ name: String, index: Int) async {
        guard let entry = pending[name] else { return problems.append("step \(index): nothing pending as '\(name)'") }
        await settle()
        if let registration = entry.registration, await analyzer.isWaiting(registration: registration) { return }
        // Answered: the call's task ends as soon as it runs.
        let outcome = await ended(entry.finished) ? "\(await entry.task.value)" : "answered"
        problems.append("step \(index): '\(name)' ended (\(outcome)); expected it to be still waiting")
    }

    /// Waits until the analyzer has settled (see ``SpeechAnalyzer/settled(inputsEnded:)``), or the
    /// scripted engine has reached a planted stall.
    func settle() async {
        let analyzer = self.analyzer, ended = inputs.ended, stalled = (engine as? ScriptedEngine)?.stalled
        await bounded {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await analyzer.settled(inputsEnded: ended) }
                if let stalled { group.addTask { await stalled.wait() } }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// A time argument in seconds (nil stays nil).
    static func time(_ seconds: Double?) -> CMTime? { seconds.map { CMTime(seconds: $0, preferredTimescale: 16_000) } }

    static func sequence(_ inputs: [AnalyzerInput]) -> AsyncStream<AnalyzerInput> {
        AsyncStream { continuation in
            inputs.forEach { continuation.yield($0) }
            continuation.finish()
        }
    }

    func buffers(_ audio: ScenarioStep.Audio) -> [AnalyzerInput] {
        buffers(seconds: audio.seconds, start: audio.start, rate: audio.sampleRate)
    }

    /// Whether a started call ends.
    func ended(_ finished: OneShot) async -> Bool {
        await bounded { await finished.wait() }
        return finished.hasFired
    }

    /// Waits for an event: on the scripted engine it comes at once unless a rule is broken (then
    /// 10 s of wall time bound the wait); a real engine or worker process gets 60 s.
    func bounded(_ event: @escaping @Sendable () async -> Void) async {
        let limit: Duration = virtualTime ? .seconds(10) : .seconds(60)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await event() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }
}

/// The autonomous input sequences of a scenario: none until the first `feedAsync` or `startInput`,
/// then the current one and the one it replaced (kept so that `endPreviousInput` can end it).
struct AutonomousInput {
    /// A started sequence, and the analyzer's number for it.
    struct Started {
        let continuation: AsyncStream<AnalyzerInput>.Continuation
        let generation: Int
    }

    enum Phase {
        case notStarted
        case started(current: Started, replaced: Started?)
    }

    private(set) var phase = Phase.notStarted
    /// The sequences the scenario has ended, by the analyzer's numbers.
    private(set) var ended: [Int] = []
    /// Where the audio fed so far ends, in seconds.
    var audioEnd = 0.0

    var current: Started? {
        if case .started(let current, _) = phase { return current }
        return nil
    }

    var replaced: Started? {
        if case .started(_, let replaced) = phase { return replaced }
        return nil
    }

    /// A new sequence replaces the current one.
    mutating func started(_ continuation: AsyncStream<AnalyzerInput>.Continuation, generation: Int) {
        phase = .started(current: Started(continuation: continuation, generation: generation), replaced: current)
    }

    /// Ends `sequence`; its end reaches the analyzer when its reader gets there.
    mutating func end(_ sequence: Started?) {
        guard let sequence else { return }
        sequence.continuation.finish()
        ended.append(sequence.generation)
    }
}

/// The volatile range handler's bookkeeping for the handler checks.
struct HandlerMarks {
    /// Which handler is installed: 0 for the first, one more for each replacement.
    var generation = 0
    /// How many calls there had been at the last `markHandler`.
    var mark = 0
    /// How many calls there had been when the handler was last replaced.
    var replacedAt = 0
}
