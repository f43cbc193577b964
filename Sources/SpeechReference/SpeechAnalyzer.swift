@_spi(Harness) import AVFAudio
import CoreMedia
import Foundation
import SpeechCore

/// Runs modules (transcribers, a detector) over audio and controls the analysis session.
///
/// The rules live in ``AnalyzerStateMachine``; this actor owns what the rules cannot: the input
/// tasks, the continuations of waiting callers, and the engine work, which it runs one job at a
/// time in order (``Job``) so that engines never see overlapping calls.
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

    /// A unit of engine work, run in order by ``drain()``.
    private enum Job {
        case process(AnalyzerInputPayload, TimeRange, [any ModuleChannel], CheckedContinuation<Void, Never>?)
        case actions([AnalyzerStateMachine.Action])
    }

    private(set) var machine: AnalyzerStateMachine
    private var channels: [any ModuleChannel] = []
    private var moduleList: [any SpeechModule] = []
    /// Where consumed audio ended when each channel joined (modules added mid-stream).
    private var joinedAt: [ObjectIdentifier: MediaTime] = [:]
    private var opened: Set<ObjectIdentifier> = []
    private var analysisContext: AnalysisContext
    private var volatileHandler: ((CMTimeRange, Bool, Bool) -> Void)?
    private(set) var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var failure: (any Error)?
    private var jobs: [Job] = []
    private var draining = false
    private var inputTask: Task<Void, Never>?
    /// The last buffer read from the input: whose virtual microphone, if any, is told when the session ends.
    private var lastInputBuffer: AVAudioPCMBuffer?
    private var holdsResources = false
    /// What harness tasks watch for (see SpeechAnalyzer+Observation.swift).
    var observation = AnalyzerObservation()
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
        self.volatileHandler = handler
        self.pool = ResourcePool.current
        self.moduleList = modules
        self.channels = modules.compactMap { ($0 as? ModuleChannelOwner)?.moduleChannel }
        self.machine = AnalyzerStateMachine(rules: FaultPlan.sessionRules)
        let generation = input == nil ? 0 : machine.startInput()
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
        let now = machine.admittedEnd ?? .zero
        for channel in newChannels
        where joinedAt[ObjectIdentifier(channel)] == nil && !channels.contains(where: { $0 === channel }) {
            joinedAt[ObjectIdentifier(channel)] = now
        }
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
        if let failure { throw failure }
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
        if let failure { throw failure }
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
        if let failure { throw failure }
        guard !machine.isFinished else { return nil }
        try acquireResources()
        let generation = machine.startInput()
        inputTask = nil
        let last = try await consume(inputSequence, generation: generation)
        if let failure { throw failure }
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
        let (id, actions) = machine.requestFinalize(through: through)
        try await wait(id, actions)
    }

    /// Finishes the session once audio through `after` is consumed; results streams end.
    public func finish(after: CMTime) async throws {
        let (id, actions) = machine.requestFinish(after: after)
        try await wait(id, actions)
    }

    public func finalizeAndFinish(through: CMTime) async throws {
        try await finalize(through: through)
        try await finish(after: through)
    }

    /// Waits for the input sequence (or its replacement) to end and be consumed, then finalises
    /// everything and finishes.
    public func finalizeAndFinishThroughEndOfInput() async throws {
        let (id, actions) = machine.requestFinishAtEndOfInput()
        try await wait(id, actions)
    }

    /// Drops pending results for audio before `before`.
    public func cancelAnalysis(before: CMTime) {
        perform(machine.cancel(before: before))
    }

    /// Cancels pending work and finishes now, even before any input.
    public func cancelAndFinishNow() async {
        let actions = machine.cancelAndFinish()
        await finishImmediately(actions)
    }

    // MARK: Volatile range

    /// Audio being analysed whose results may still change; nil before any input.
    public var volatileRange: CMTimeRange? { machine.volatileRange }

    public func setVolatileRangeChangedHandler(
        _ handler: sending ((_ range: CMTimeRange, _ changedStart: Bool, _ changedEnd: Bool) -> Void)?
    ) {
        switch machine.handlerChange() {
        case .replace:
            volatileHandler = handler
        #if SPEECH_HARNESS_MUTATIONS
            case .callBoth:
                guard let old = volatileHandler, let new = handler else {
                    volatileHandler = handler
                    return
                }
                volatileHandler = {
                    old($0, $1, $2)
                    new($0, $1, $2)
                }
        #endif
        }
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
            observation.readerStopped(generation)
            wakeWatchers()
        }
        do {
            for try await input in sequence {
                // However it ends, the virtual microphone behind the buffer may go on; if the
                // session ended with it, no more of its audio will be read.
                defer {
                    input.buffer.consumedByRecognition()
                    if machine.isFinished { input.buffer.recognitionStopped() }
                }
                lastInputBuffer = input.buffer
                guard !machine.isFinished, generation == machine.inputGeneration else { return lastEnd }
                guard let range = await feed(input) else { return lastEnd }
                lastEnd = machine.reportedEnd(ofLastBuffer: range)
            }
        } catch {
            // A failing input sequence fails the session like any analysis error.
            if !machine.isFinished { await failSession(error) }
            throw error
        }
        perform(machine.inputEnded(generation: generation))
        return lastEnd
    }

    /// Checks and queues one buffer, returning once the modules have analysed it.
    private func feed(_ input: AnalyzerInput) async -> TimeRange? {
        guard let pcm = input.buffer.pcmBuffer else {
            await failSession(
                SFSpeechError(
                    .unexpectedAudioFormat, "sample type \(input.buffer.format.commonFormat) is not supported"))
            return nil
        }
        let duration = MediaTime(sampleIndex: Int64(pcm.frameCount), sampleRate: pcm.format.sampleRate)
        let admitted: TimeRange?
        do {
            admitted = try machine.admit(start: input.bufferStartTime, duration: duration, format: match(pcm.format))
        } catch {
            await failSession(error)
            return nil
        }
        guard let range = admitted else { return nil }
        let payload = AnalyzerInputPayload(buffer: pcm)
        let targets = channels
        if !draining && jobs.isEmpty {
            // Nothing queued: run the job here, then whatever arrived meanwhile.
            draining = true
            await process(pcm, range: range, targets: targets)
            await runJobs()
        } else {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                enqueue(.process(payload, range, targets, done))
            }
        }
        return machine.isFinished && failure != nil ? nil : range
    }

    /// Whether every module accepts `format` as it is (true when there are no modules).
    private func match(_ format: AudioFormat) -> AnalyzerStateMachine.FormatMatch {
        let accepted = Self.commonFormats(channels)
        guard !channels.isEmpty, !accepted.contains(where: { Self.same($0, format) }) else { return .accepted }
        return .rejected(got: "\(format)", accepted: accepted.map(\.description).joined(separator: " or "))
    }

    private func fileSequence(_ file: AVAudioFile) async throws -> AudioFileInputSequence {
        let target = await Self.bestAvailableAudioFormat(compatibleWith: moduleList, considering: file.processingFormat)
        return try AudioFileInputSequence(file: file, format: target)
    }

    // MARK: Internals: jobs and actions

    /// Whether engine work is queued or running.
    var hasEngineWork: Bool { draining || !jobs.isEmpty }

    private func enqueue(_ job: Job) {
        jobs.append(job)
        guard !draining else { return }
        draining = true
        // Where the caller's work prefers an engine thread, the queue's work runs there too.
        Task(executorPreference: EngineThread.current) { await self.drain() }
    }

    /// Runs queued jobs one at a time, in order.
    private func drain() async {
        await runJobs()
    }

    private func runJobs() async {
        defer {
            draining = false
            wakeWatchers()
        }
        while !jobs.isEmpty {
            let job = jobs.removeFirst()
            switch job {
            case .process(let payload, let range, let targets, let done):
                await process(payload.buffer, range: range, targets: targets)
                done?.resume()
            case .actions(let actions):
                await execute(actions)
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
            if !machine.isFinished { await failSession(error) }
            return
        }
        await execute(machine.consumed(range, modulesFinalized: modulesFinalized()))
        wakeWatchers()
    }

    /// How far every current module is final (a module added mid-stream counts from when it joined).
    private func modulesFinalized() -> MediaTime? {
        guard !channels.isEmpty else { return nil }
        return channels.map { MediaTime.maximum($0.finalizedThrough, joinedAt[ObjectIdentifier($0)] ?? .zero) }.min()
    }

    /// Actions from a caller's task. Volatile-range reports go out at once, in the order the
    /// machine made them; engine work goes through the job queue (answers to waiters after it);
    /// answers needing no engine work are given at once.
    private func perform(_ actions: [AnalyzerStateMachine.Action]) {
        var rest: [AnalyzerStateMachine.Action] = []
        var needsQueue = false
        for action in actions {
            switch action {
            case .answer(.volatileRangeChanged(let range, let changedStart, let changedEnd)):
                give(.volatileRangeChanged(range, changedStart: changedStart, changedEnd: changedEnd))
            case .answer(.resume):
                rest.append(action)
            case .finalize, .cancelModules, .finishSession:
                needsQueue = true
                rest.append(action)
            }
        }
        if needsQueue {
            enqueue(.actions(rest))
        } else {
            for case .answer(let answer) in rest { give(answer) }
        }
    }

    /// Carries out actions in order; the end of the session and then the answers to waiters come
    /// last, so that what the waiters waited for (published results, ended streams, engines closed
    /// and resources given back) is done when they resume, however fast the engines close.
    private func execute(_ actions: [AnalyzerStateMachine.Action]) async {
        var work = actions
        var last: [AnalyzerStateMachine.Action] = []
        var next = 0
        while next < work.count {
            let action = work[next]
            next += 1
            switch action {
            case .answer(.volatileRangeChanged(let range, let changedStart, let changedEnd)):
                give(.volatileRangeChanged(range, changedStart: changedStart, changedEnd: changedEnd))
            case .answer(.resume), .finishSession:
                last.append(action)
            case .finalize(let through, _):
                for followUp in await finalizeModules(through: through) {
                    switch followUp {
                    case .answer, .finishSession: last.append(followUp)
                    case .finalize, .cancelModules: work.append(followUp)
                    }
                }
            case .cancelModules(let before):
                let consumed = machine.consumedEnd ?? before
                for channel in channels { await channel.cancel(before: before, consumedEnd: consumed) }
            }
        }
        if last.contains(where: { if case .finishSession = $0 { true } else { false } }) { await endSession() }
        for action in last {
            switch action {
            case .answer(let answer): give(answer)
            case .finishSession: break
            case .finalize, .cancelModules: await execute([action])
            }
        }
    }

    /// Finalises every module through `through`; returns what the machine makes of the outcome.
    private func finalizeModules(through: MediaTime) async -> [AnalyzerStateMachine.Action] {
        do {
            let consumed = machine.consumedEnd ?? through
            for channel in channels where !machine.isFinished || failure == nil {
                try await channel.finalize(through: through, consumedEnd: consumed)
            }
            return machine.finalizeCompleted(through: through)
        } catch {
            if machine.isFinished { return machine.finalizeFailed() }
            failure = error
            let answers = machine.fail()?.answers ?? []
            await endSession()
            return answers.map(AnalyzerStateMachine.Action.answer)
        }
    }

    /// Resumes a waiting call, or reports a volatile range change.
    private func give(_ answer: AnalyzerStateMachine.Answer) {
        switch answer {
        case .resume(let id, let outcome):
            guard let continuation = waiting.removeValue(forKey: id) else { return }
            switch outcome {
            case .success: continuation.resume()
            case .cancelled: continuation.resume(throwing: CancellationError())
            case .failed: continuation.resume(throwing: failure ?? CancellationError())
            }
        case .volatileRangeChanged(let range, let changedStart, let changedEnd):
            volatileHandler?(range, changedStart, changedEnd)
        }
    }

    /// Registers a waiter and carries out the machine's actions for it.
    private func wait(_ id: Int, _ actions: [AnalyzerStateMachine.Action]) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                waiting[id] = continuation
                observation.registered(id)
                wakeWatchers()
                perform(actions)
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func cancelWaiter(_ id: Int) async {
        switch machine.waiterCancelled(id) {
        case .answer(let answer):
            give(answer)
        case .end(let answer, let ending):
            give(answer)
            await finishImmediately(ending)
        }
    }

    // MARK: Internals: ending

    /// An error ends the session: every waiter and every result stream gets it.
    private func failSession(_ error: any Error) async {
        guard !machine.isFinished else { return }
        failure = error
        await finishImmediately(machine.fail())
    }

    /// Finishes without waiting for queued engine work (cancellation and errors); nil: the
    /// session had already finished, and only its streams and engines are ended again.
    private func finishImmediately(_ ending: AnalyzerStateMachine.Ending?) async {
        for channel in channels { channel.endResults(throwing: failure) }
        await endSession()
        ending?.answers.forEach(give)
    }

    /// Ends result streams, stops reading input, closes engines and gives back resources.
    private func endSession() async {
        inputTask = nil
        // Input the program still yields will not be read: a virtual microphone feeding it must
        // not wait for this analyzer any more.
        lastInputBuffer?.recognitionStopped()
        lastInputBuffer = nil
        for channel in channels { channel.endResults(throwing: failure) }
        if holdsResources {
            await ModelRetentionCache.shared.used(
                Set(channels.compactMap(\.resourceKey)), retention: options.modelRetention)
            pool.release(owner: ObjectIdentifier(self))
            holdsResources = false
        }
        for channel in channels { await channel.close() }
        wakeWatchers()
    }

    private func acquireResources() throws {
        guard !holdsResources, !machine.isFinished else { return }
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
            Task { await self?.engineFailed(error) }
        }
        opened.insert(id)
    }

    /// An engine failed between calls: the same as a call failing.
    private func engineFailed(_ error: any Error) async {
        if !machine.isFinished { await failSession(error) }
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
