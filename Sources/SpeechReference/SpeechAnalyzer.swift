// One file: the actor's state (its jobs, channels, input task and state machine) is private to
// it, and the methods that carry out the machine's actions use that state; in other files they
// would need it internal to the whole module. Apple's surface comes first, the executor after.
import AVFAudio
import CoreMedia
import Foundation
import SpeechCore

/// Runs modules (transcribers, a detector) over audio and controls the analysis session.
///
/// The session's rules and everything that waits on it (callers, harness watchers, the volatile
/// range handler) live in a state machine (`AnalyzerStateMachine`); this actor carries out the
/// action each event gets, in order, and owns what a value cannot: the input tasks, the engines
/// and their work, which it runs one job at a time so that engines never see overlapping calls.
public final actor SpeechAnalyzer {
    /// How the analyzer runs.
    public struct Options: Sendable, Equatable {
        public let priority: TaskPriority
        public let modelRetention: ModelRetention
        /// Start even past the limit on concurrent engine configurations (harness: `ResourcePool`).
        public let ignoresResourceLimits: Bool

        /// How long models stay loaded after the analyzer stops using them.
        public enum ModelRetention: CaseIterable, Sendable, Equatable, Hashable {
            case whileInUse
            case lingering
            case processLifetime
        }

        public init(priority: TaskPriority, modelRetention: ModelRetention) {
            self.init(priority: priority, modelRetention: modelRetention, ignoresResourceLimits: false)
        }

        public init(priority: TaskPriority, modelRetention: ModelRetention, ignoresResourceLimits: Bool) {
            self.priority = priority
            self.modelRetention = modelRetention
            self.ignoresResourceLimits = ignoresResourceLimits
        }
    }

    /// The session's state machine, holding every waiting call and watcher and the volatile
    /// range handler.
    typealias Machine = AnalyzerStateMachine<
        CheckedContinuation<Void, any Error>, CheckedContinuation<Void, Never>, VolatileRangeHandler
    >
    typealias VolatileRangeHandler = (CMTimeRange, Bool, Bool) -> Void

    /// A unit of engine work, run in order by ``runJobs()`` so that engines never see overlapping calls.
    private enum Job {
        case process(AnalyzerInputPayload, TimeRange, [any ModuleChannel], CheckedContinuation<Void, Never>?)
        case cancelModules(before: MediaTime)
        case carryOut(Machine.DueWork)
    }

    private(set) var machine: Machine
    private var channels: [any ModuleChannel] = []
    private var moduleList: [any SpeechModule] = []
    private var opened: Set<ObjectIdentifier> = []
    private var analysisContext: AnalysisContext
    private var jobs = EngineJobQueue<Job>()
    private var inputTask: Task<Void, Never>?
    /// How far recognition has got with the input being read; stopped when the session ends.
    private var recognition: RecognitionHandoff?
    private var holdsResources = false
    private let options: Options
    private let pool: ResourcePool

    // MARK: Creating

    public init(modules: [any SpeechModule], options: Options? = nil) {
        self.init(modules: modules, options: options, context: AnalysisContext(), handler: nil, input: nil as NoInput?)
    }

    public init<InputSequence>(
        inputSequence: InputSequence, modules: [any SpeechModule], options: Options? = nil,
        analysisContext: AnalysisContext = .init(),
        volatileRangeChangedHandler:
            sending ((_ range: CMTimeRange, _ changedStart: Bool, _ changedEnd: Bool) -> Void)? = nil
    )
    where InputSequence: Sendable, InputSequence: AsyncSequence, InputSequence.Element == AnalyzerInput {
        self.init(
            modules: modules, options: options, context: analysisContext, handler: volatileRangeChangedHandler,
            input: inputSequence)
    }

    private init<InputSequence>(
        modules: [any SpeechModule], options: Options?, context: AnalysisContext,
        handler: sending ((CMTimeRange, Bool, Bool) -> Void)?, input: InputSequence?
    )
    where InputSequence: Sendable, InputSequence: AsyncSequence, InputSequence.Element == AnalyzerInput {
        self.options = options ?? Options(priority: .medium, modelRetention: .whileInUse)
        self.analysisContext = context
        self.pool = HarnessContext.current.resourcePool
        self.moduleList = modules
        self.channels = modules.compactMap { ($0 as? ModuleChannelOwner)?.moduleChannel }
        var machine = Machine(rules: FaultPlan.sessionRules)
        machine.setVolatileHandler(handler)
        machine.modulesJoined(channels.map(ObjectIdentifier.init))
        let generation = input == nil ? 0 : machine.startInput()
        self.machine = machine
        // A module belongs to the first analyzer that takes it.
        for channel in channels { _ = channel.claim(by: ObjectIdentifier(self)) }
        guard let input else { return }
        // Not kept in `inputTask`: it holds the analyzer weakly and ends with its sequence.
        Task(priority: self.options.priority) { [weak self] in
            await self?.beginAutonomous(input, generation: generation)
        }
    }

    public init(
        inputAudioFile: AVAudioFile, modules: [any SpeechModule], options: Options? = nil,
        analysisContext: AnalysisContext = .init(), finishAfterFile: Bool = false,
        volatileRangeChangedHandler:
            sending ((_ range: CMTimeRange, _ changedStart: Bool, _ changedEnd: Bool) -> Void)? = nil
    ) async throws {
        self.init(
            modules: modules, options: options, context: analysisContext, handler: volatileRangeChangedHandler,
            input: nil as NoInput?)
        try await start(inputAudioFile: inputAudioFile, finishAfterFile: finishAfterFile)
    }

    deinit {
        // Releasing the analyzer finishes the session: streams end, engines close.
        let channels = self.channels
        inputTask?.cancel()
        pool.release(owner: ObjectIdentifier(self))
        for channel in channels { channel.endResults(throwing: nil) }
        Task { for channel in channels { await channel.close() } }
    }

    // MARK: Modules and context

    public var modules: [any SpeechModule] { moduleList }

    /// Replaces the modules. New modules analyse only audio that arrives from now on; removed
    /// modules' result streams end. A module cannot move between analyzers.
    public func setModules(_ newModules: [any SpeechModule]) async throws {
        guard !machine.isFinished else { return }
        let newChannels = try newModules.map { module -> any ModuleChannel in
            guard let channel = (module as? ModuleChannelOwner)?.moduleChannel else {
                throw SFSpeechError(.moduleOutputFailed, "\(type(of: module)) is not a module of this framework")
            }
            guard channel.claim(by: ObjectIdentifier(self)) else {
                throw SpeechAnalyzerUsageError.moduleBelongsToAnotherAnalyzer(channel.moduleName)
            }
            return channel
        }
        if !newChannels.isEmpty && Self.commonFormats(newChannels).isEmpty {
            throw SFSpeechError(.incompatibleAudioFormats, "the modules share no audio format")
        }
        try acquire(for: newChannels)
        let kept = Set(newChannels.map { ObjectIdentifier($0) })
        let removed = channels.filter { !kept.contains(ObjectIdentifier($0)) }
        machine.modulesJoined(newChannels.map(ObjectIdentifier.init))
        channels = newChannels
        moduleList = newModules
        for channel in removed {
            channel.endResults(throwing: nil)
            await channel.close()
        }
    }

    public var context: AnalysisContext { analysisContext }

    public func setContext(_ newContext: AnalysisContext) async throws {
        guard !machine.isFinished else { return }
        analysisContext = newContext
    }

    // MARK: Preparing

    public func prepareToAnalyze(in audioFormat: AVAudioFormat?) async throws {
        try await prepareToAnalyze(in: audioFormat, withProgressReadyHandler: nil)
    }

    /// Loads engines and models now rather than at the first audio, reporting progress per module.
    public func prepareToAnalyze(
        in audioFormat: AVAudioFormat?,
        withProgressReadyHandler progressReadyHandler: sending ((Progress) -> Void)?
    ) async throws {
        if let failure = machine.failure { throw failure.error }
        guard !machine.isFinished else { return }
        try acquireResources()
        let progress = Progress(totalUnitCount: Int64(max(1, channels.count)))
        progressReadyHandler?(progress)
        for channel in channels {
            try await open(channel)
            progress.completedUnitCount += 1
        }
        progress.completedUnitCount = progress.totalUnitCount
    }

    // MARK: Input

    /// Starts autonomous analysis of `inputSequence` and returns at once. Replaces the current input:
    /// audio already taken from it is still analysed; the rest of it is not read.
    public func start<InputSequence>(inputSequence: InputSequence) async throws
    where InputSequence: Sendable, InputSequence: AsyncSequence, InputSequence.Element == AnalyzerInput {
        if let failure = machine.failure { throw failure.error }
        guard !machine.isFinished else { return }
        try acquireResources()
        let generation = machine.startInput()
        inputTask = Task(priority: options.priority) { [weak self] in
            await self?.consumeAutonomously(inputSequence, generation: generation)
        }
    }

    /// Starts autonomous analysis of an audio file (converted to the modules' best format) and
    /// returns at once; with `finishAfterFile` the session finishes after the file, as with
    /// ``finalizeAndFinishThroughEndOfInput()``.
    public func start(inputAudioFile audioFile: AVAudioFile, finishAfterFile: Bool = false) async throws {
        let sequence = try await fileSequence(audioFile)
        try await start(inputSequence: sequence)
        if finishAfterFile {
            Task { [weak self] in try? await self?.finalizeAndFinishThroughEndOfInput() }
        }
    }

    /// Analyses `inputSequence` in the caller's task and returns when it ends, with the end time of
    /// its last buffer (nil when it had none). The session is not finished.
    public func analyzeSequence<InputSequence>(_ inputSequence: InputSequence) async throws -> CMTime?
    where InputSequence: Sendable, InputSequence: AsyncSequence, InputSequence.Element == AnalyzerInput {
        if let failure = machine.failure { throw failure.error }
        guard !machine.isFinished else { return nil }
        try acquireResources()
        let generation = machine.startInput()
        inputTask = nil
        let last = try await consume(inputSequence, generation: generation)
        if let failure = machine.failure { throw failure.error }
        return last
    }

    /// Analyses an audio file (converted to the modules' best format) and returns when it is read.
    public func analyzeSequence(from audioFile: AVAudioFile) async throws -> CMTime? {
        try await analyzeSequence(try await fileSequence(audioFile))
    }

    // MARK: Finalising and finishing

    /// Waits until audio through `through` is consumed, then makes its results final. Nil: what has
    /// been consumed. Returns at once for times already final.
    public func finalize(through: CMTime?) async throws {
        try await wait { machine, id, waiter in machine.requestFinalize(through: through, id: id, waiter: waiter) }
    }

    /// Finishes the session once audio through `after` is consumed; results streams end.
    public func finish(after: CMTime) async throws {
        try await wait { machine, id, waiter in machine.requestFinish(after: after, id: id, waiter: waiter) }
    }

    public func finalizeAndFinish(through: CMTime) async throws {
        try await finalize(through: through)
        try await finish(after: through)
    }

    /// Waits for the input sequence (or its replacement) to end and be consumed, then finalises
    /// everything and finishes.
    public func finalizeAndFinishThroughEndOfInput() async throws {
        try await wait { machine, id, waiter in machine.requestFinishAtEndOfInput(id: id, waiter: waiter) }
    }

    /// Drops pending results for audio before `before`.
    public func cancelAnalysis(before: CMTime) {
        switch machine.cancel(before: before) {
        case .none: break
        case .cancelModules(let time, let then):
            report(then.reports)
            enqueue(.cancelModules(before: time))
            var rest = then
            rest.reports = []
            if !rest.isEmpty { enqueue(.carryOut(rest)) }
        }
    }

    /// Cancels pending work and finishes now, even before any input.
    public func cancelAndFinishNow() async {
        await end(machine.cancelAndFinish())
    }

    // MARK: Volatile range

    /// Audio being analysed whose results may still change; nil before any input.
    public var volatileRange: CMTimeRange? { machine.volatileRange }

    public func setVolatileRangeChangedHandler(
        _ handler: sending ((_ range: CMTimeRange, _ changedStart: Bool, _ changedEnd: Bool) -> Void)?
    ) {
        machine.setVolatileHandler(handler)
    }

    // MARK: Formats

    /// The best format all `modules` accept; nil when a module's assets are missing.
    public static func bestAvailableAudioFormat(compatibleWith modules: [any SpeechModule]) async -> AVAudioFormat? {
        await bestAvailableAudioFormat(compatibleWith: modules, considering: nil)
    }

    /// As above, preferring the natural format's sample rate and channel count when the modules accept them.
    public static func bestAvailableAudioFormat(
        compatibleWith modules: [any SpeechModule],
        considering naturalFormat: AVAudioFormat?
    ) async -> AVAudioFormat? {
        let channels = modules.compactMap { ($0 as? ModuleChannelOwner)?.moduleChannel }
        guard channels.count == modules.count, channels.allSatisfy({ $0.isReady }) else { return nil }
        let common = commonFormats(channels)
        if let natural = naturalFormat?.audioFormat,
            let match = common.first(where: {
                $0.sampleRate == natural.sampleRate && $0.channelCount == natural.channelCount
            })
        {
            return AVAudioFormat(match)
        }
        return common.first.flatMap(AVAudioFormat.init)
    }

    static func commonFormats(_ channels: [any ModuleChannel]) -> [AudioFormat] {
        guard let first = channels.first else { return [] }
        return first.compatibleFormats.filter { format in
            channels.dropFirst().allSatisfy { $0.compatibleFormats.contains { Self.same($0, format) } }
        }
    }

    static func same(_ a: AudioFormat, _ b: AudioFormat) -> Bool {
        a.sampleRate == b.sampleRate && a.channelCount == b.channelCount && a.sampleType == b.sampleType
    }

    // MARK: Internals: input

    private func beginAutonomous<S: AsyncSequence & Sendable>(_ sequence: S, generation: Int) async
    where S.Element == AnalyzerInput {
        do {
            try acquireResources()
        } catch {
            await failSession(error)
            return
        }
        await consumeAutonomously(sequence, generation: generation)
    }

    private func consumeAutonomously<S: AsyncSequence & Sendable>(_ sequence: S, generation: Int) async
    where S.Element == AnalyzerInput {
        _ = try? await consume(sequence, generation: generation)
    }

    /// Reads `sequence` until it ends, the session finishes, or another input replaces it.
    private func consume<S: AsyncSequence & Sendable>(_ sequence: S, generation: Int) async throws -> CMTime?
    where S.Element == AnalyzerInput {
        var lastEnd: CMTime?
        defer {
            machine.readerStopped(generation)
            wakeWatchers()
        }
        let progress = RecognitionHandoff()
        recognition = progress
        do {
            for try await input in RecognitionFeed(base: sequence, progress: progress) {
                guard let (range, samples) = await admit(input, generation: generation) else { return lastEnd }
                await analyze(samples, range: range)
                switch machine.readOn(after: range) {
                case .readOn(let end): lastEnd = end
                case .stopReading: return lastEnd
                }
            }
        } catch {
            // A failing input sequence fails the session like any analysis error.
            await failSession(error)
            throw error
        }
        carryOutNow(machine.inputEnded(generation: generation))
        return lastEnd
    }

    /// Asks the machine where a buffer goes, returning its range and samples; nil: read no further.
    private func admit(_ input: AnalyzerInput, generation: Int) async -> (TimeRange, PCMBuffer)? {
        if let unreadable = input.unreadable {
            await failSession(SFSpeechError(.unexpectedAudioFormat, unreadable))
            return nil
        }
        guard let pcm = input.storedBuffer.pcmBuffer else {
            let error = SFSpeechError(
                .unexpectedAudioFormat, "sample type \(input.storedBuffer.format.commonFormat) is not supported")
            await failSession(error)
            return nil
        }
        let duration = MediaTime(sampleIndex: Int64(pcm.frameCount), sampleRate: pcm.format.sampleRate)
        let action = machine.admit(
            generation: generation, start: input.bufferStartTime, duration: duration, format: match(pcm.format))
        switch action {
        case .analyze(let range): return (range, pcm)
        case .stopReading: return nil
        case .fail(let ending):
            await end(ending)
            return nil
        }
    }

    /// Has the modules analyse one buffer, returning once they have: at once when no engine work
    /// is queued, else in its turn.
    private func analyze(_ pcm: PCMBuffer, range: TimeRange) async {
        let targets = channels
        if jobs.startInPlace() {
            // Nothing queued: run the job here, then whatever arrived meanwhile.
            await process(pcm, range: range, targets: targets)
            await runJobs()
        } else {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                enqueue(.process(AnalyzerInputPayload(buffer: pcm), range, targets, done))
            }
        }
    }

    /// Whether every module accepts `format` as it is (true when there are no modules). A module
    /// with no engine (an unsupported locale, a transcriber the device lacks) accepts no format and
    /// does not count: opening it fails with `noModel`, the error that says why.
    private func match(_ format: AudioFormat) -> Machine.FormatMatch {
        let constraining = channels.filter { !$0.compatibleFormats.isEmpty }
        let accepted = Self.commonFormats(constraining)
        guard !constraining.isEmpty, !accepted.contains(where: { Self.same($0, format) }) else { return .accepted }
        return .rejected(got: "\(format)", accepted: accepted.map(\.description).joined(separator: " or "))
    }

    private func fileSequence(_ file: AVAudioFile) async throws -> AudioFileInputSequence {
        let target = await Self.bestAvailableAudioFormat(compatibleWith: moduleList, considering: file.processingFormat)
        return try AudioFileInputSequence(file: file, format: target)
    }

    // MARK: Internals: engine work

    /// Whether no engine work is queued or running.
    private var engineIdle: Bool { jobs.isIdle }

    private func enqueue(_ job: Job) {
        guard jobs.enqueue(job) == .startRunner else { return }
        // Where the caller's work prefers an engine thread, the queue's work runs there too.
        Task(executorPreference: EngineThread.current) { await self.runJobs() }
    }

    /// Runs queued jobs one at a time, in order, until the queue is idle.
    private func runJobs() async {
        defer { wakeWatchers() }
        while let job = jobs.next() {
            switch job {
            case .process(let payload, let range, let targets, let done):
                await process(payload.buffer, range: range, targets: targets)
                done?.resume()
            case .cancelModules(let before):
                let consumed = machine.consumedEnd ?? before
                for channel in channels { await channel.cancel(before: before, consumedEnd: consumed) }
            case .carryOut(let progress):
                await carryOut(progress)
            }
        }
    }

    private func process(_ buffer: PCMBuffer, range: TimeRange, targets: [any ModuleChannel]) async {
        guard !machine.isFinished else { return }
        do {
            for channel in targets where !machine.isFinished {
                try await open(channel)
                try await channel.process(buffer, at: range.start, end: range.end)
            }
        } catch {
            await failSession(error)
            return
        }
        let finalized = channels.map { (ObjectIdentifier($0), $0.finalizedThrough) }
        await carryOut(machine.consumed(range, modulesFinalized: finalized))
        wakeWatchers()
    }

    /// Carries out what an event in a caller's task made due: volatile range reports at once;
    /// the rest at once too, unless it needs the engines, when it waits behind their queued work.
    private func carryOutNow(_ progress: Machine.DueWork) {
        report(progress.reports)
        guard progress.needsEngines else { return resume(progress.resumes) }
        var rest = progress
        rest.reports = []
        enqueue(.carryOut(rest))
    }

    /// Carries out what became due, in the machine's order, from engine work.
    private func carryOut(_ progress: Machine.DueWork) async {
        report(progress.reports)
        resume(progress.resumes)
        if let through = progress.finalize {
            // The finalise's completion comes before what the event left to do (its ending).
            let completion = await finalizeModules(through: through)
            return await carryOut(completion + Machine.DueWork(ending: progress.ending))
        }
        if let ending = progress.ending { await end(ending) }
    }

    /// Finalises every module through `through`; returns what the machine makes of the outcome.
    private func finalizeModules(through: MediaTime) async -> Machine.DueWork {
        do {
            let consumed = machine.consumedEnd ?? through
            for channel in channels where machine.failure == nil {
                try await channel.finalize(through: through, consumedEnd: consumed)
            }
            return machine.finalizeCompleted(through: through)
        } catch {
            return machine.finalizeFailed(error)
        }
    }

    private func report(_ reports: [Machine.RangeReport]) {
        for report in reports {
            for handler in report.handlers { handler(report.range, report.changedStart, report.changedEnd) }
        }
    }

    private func resume(_ resumes: [Machine.Resume]) {
        for resume in resumes {
            switch resume.outcome {
            case .success: resume.waiter.resume()
            case .cancelled: resume.waiter.resume(throwing: CancellationError())
            case .failed(let failure): resume.waiter.resume(throwing: failure.error)
            }
        }
    }

    // MARK: Internals: waiting calls

    /// Registers the calling task as a waiter through `request` and carries out what it makes due.
    private func wait(
        _ request: (inout Machine, Machine.WaiterID, CheckedContinuation<Void, any Error>) -> Machine.RequestAction
    ) async throws {
        let id = machine.newID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                switch request(&machine, id, continuation) {
                case .resume(let resume): self.resume([resume])
                case .wait(let progress): carryOutNow(progress)
                }
                wakeWatchers()
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func cancelWaiter(_ id: Machine.WaiterID) async {
        switch machine.waiterCancelled(id) {
        case .none: break
        case .resume(let resume): self.resume([resume])
        case .resumeAndEnd(let resume, let ending):
            self.resume([resume])
            await end(ending)
        }
    }

    /// Wakes the harness tasks whose point of the session has been reached.
    func wakeWatchers() {
        for watcher in machine.dueWatchers(engineIdle: engineIdle) { watcher.resume() }
    }

    /// Returns once the session reaches `watch`, or when the calling task is cancelled.
    func watch(_ watch: Machine.Watch) async {
        guard !Task.isCancelled else { return }
        let id = machine.newID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if case .resume(let watcher) = machine.watch(
                    watch, id: id, watcher: continuation, engineIdle: engineIdle)
                {
                    watcher.resume()
                }
            }
        } onCancel: {
            Task { await self.cancelWatcher(id) }
        }
    }

    private func cancelWatcher(_ id: Int) {
        machine.watcherCancelled(id)?.resume()
    }

    // MARK: Internals: ending

    /// An error ends the session: every waiter and every result stream gets it.
    private func failSession(_ error: any Error) async {
        guard let ending = machine.fail(error) else { return }
        await end(ending)
    }

    /// Ends result streams, stops reading input, closes engines and gives back resources; then
    /// resumes the waiters the ending settles.
    private func end(_ ending: Machine.Ending) async {
        inputTask = nil
        // Input the program still yields will not be read: whatever produces it must not wait
        // for this analyzer any more.
        recognition?.stop()
        for channel in channels { channel.endResults(throwing: ending.failure?.error) }
        if holdsResources {
            await ModelRetentionCache.shared.used(
                Set(channels.compactMap(\.resourceKey)), retention: options.modelRetention)
            pool.release(owner: ObjectIdentifier(self))
            holdsResources = false
        }
        for channel in channels { await channel.close() }
        resume(ending.resumes)
        wakeWatchers()
    }

    private func acquireResources() throws {
        guard !holdsResources, !machine.isFinished else { return }
        // A setting the reference cannot use is reported here, at the first call that can throw.
        try SettingsCheck.validate()
        try acquire(for: channels)
    }

    /// Takes the engine configurations `channels` need from the pool (replacing what was held).
    private func acquire(for channels: [any ModuleChannel]) throws {
        let limited = machine.checksResourceLimit(optionsIgnoreLimits: options.ignoresResourceLimits)
        try pool.acquire(
            Set(channels.compactMap(\.resourceKey)), owner: ObjectIdentifier(self), ignoringLimits: !limited)
        holdsResources = true
    }

    private func open(_ channel: any ModuleChannel) async throws {
        let id = ObjectIdentifier(channel)
        guard !opened.contains(id) else { return }
        try await channel.open(context: analysisContext) { [weak self] error in
            Task { await self?.failSession(error) }
        }
        opened.insert(id)
    }
}

/// The input type of an analyzer created without an input sequence.
struct NoInput: AsyncSequence, Sendable {
    typealias Element = AnalyzerInput
    struct AsyncIterator: AsyncIteratorProtocol {
        mutating func next() async -> AnalyzerInput? { nil }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}

/// A buffer handed from the input task to the job queue.
struct AnalyzerInputPayload: @unchecked Sendable {
    let buffer: PCMBuffer
}
