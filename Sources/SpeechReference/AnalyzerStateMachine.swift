import CoreMedia
import SpeechCore

/// The rules of one analysis session, and everything that waits on it, as a value type with no
/// tasks or engines: the ``SpeechAnalyzer`` actor feeds it events and carries out, in order, the
/// action each event returns.
///
/// It is generic over what waits so that tests can use plain values: `Waiter` is a suspended
/// call (a continuation in the actor), `Watcher` a harness task waiting for a point of the
/// session, `Handler` the volatile range handler.
///
/// Rules it encodes (from Apple's documentation):
/// - Input is admitted in time order; a buffer starting before the end of the previous one is
///   `audioDisordered`; a later start skips audio.
/// - `finalize(through: t)` waits until audio through `t` is consumed, then finalises; a time already
///   final returns at once; `nil` means "what has been consumed" (nothing consumed: nothing to do).
/// - `finish(after: t)` finishes once audio through `t` is consumed; the end of an input sequence
///   does not finish the session, except for a pending `finalizeAndFinishThroughEndOfInput`.
/// - Finishing (normally, by `cancelAndFinishNow`, or by an error) resumes every waiter exactly
///   once: with success if its condition was met, else with the session's error or cancellation.
/// - The volatile range is nil before input, runs from the finalised time to the end of consumed
///   audio, and its start never moves backwards.
struct AnalyzerStateMachine<Waiter, Watcher, Handler> {
    typealias WaiterID = Int
    /// A module, as the actor names it (its channel's identity).
    typealias ModuleID = ObjectIdentifier

    typealias Rules = SessionRules

    let rules: Rules

    init(rules: Rules = .documented) {
        self.rules = rules
    }

    // MARK: State

    private enum Condition: Equatable {
        case finalize(MediaTime)
        case finish(MediaTime)
        case endOfInput
        /// A finalise the actor is carrying out.
        case finalizing(MediaTime)
    }

    private struct Pending {
        let id: WaiterID
        var condition: Condition
        let waiter: Waiter
    }

    private(set) var phase: Phase = .active
    /// Why the session failed (set with phase `.failed`).
    private(set) var failure: SessionFailure?
    /// End of audio admitted for analysis (reserved before the engines see it).
    private(set) var admittedEnd: MediaTime?
    /// End of audio the modules have analysed.
    private(set) var consumedEnd: MediaTime?
    /// Audio before this time has final (or cancelled) results.
    private(set) var finalizedThrough: MediaTime = .zero
    /// The input sequence currently feeding the analyzer (0: none yet).
    private(set) var inputGeneration = 0
    private(set) var currentInputEnded = false
    /// Waiter ids in the order their calls registered (answered at once or not).
    private(set) var registrations: [WaiterID] = []
    /// Input sequences whose reader has stopped: at their end, replaced, or with the session.
    private(set) var readersStopped: Set<Int> = []
    /// The one table of waiting calls.
    private var waiters: [Pending] = []
    private var watchers: [(id: Int, watch: Watch, watcher: Watcher)] = []
    private var handlers: [Handler] = []
    /// Where admitted audio ended when each module joined (modules added mid-stream).
    private var joinedAt: [ModuleID: MediaTime] = [:]
    private var nextID = 0
    private var reportedRange: TimeRange?
    private var endOfInputFinalized = false
    private var failuresAnswered = 0

    var isFinished: Bool { phase != .active }

    /// The volatile range: nil before any input.
    var volatileRange: TimeRange? {
        guard let end = consumedEnd else { return nil }
        let start = MediaTime.minimum(finalizedThrough, end)
        return TimeRange(start: start, end: end)
    }

    /// Calls waiting on the session.
    var pendingWaiters: Int { waiters.count }

    /// Whether the waiter `id` is still unanswered.
    func isWaiting(_ id: WaiterID) -> Bool { waiters.contains { $0.id == id } }

    /// A fresh id for a waiter or a watcher, taken before it registers so that its task's
    /// cancellation handler can name it.
    mutating func newID() -> Int {
        nextID += 1
        return nextID
    }

    // MARK: Modules and handlers

    /// The session's modules are now `modules`: those new to it count as joining where admitted
    /// audio ends (they analyse only what comes after).
    mutating func modulesJoined(_ modules: [ModuleID]) {
        for module in modules where joinedAt[module] == nil { joinedAt[module] = admittedEnd ?? .zero }
    }

    /// A new volatile range handler replaces the old one (nil: none).
    mutating func setVolatileHandler(_ handler: Handler?) {
        if !rules.replacesVolatileHandler, let handler, !handlers.isEmpty {
            handlers.append(handler)
        } else {
            handlers = handler.map { [$0] } ?? []
        }
    }

    // MARK: Input

    /// A new input sequence replaces the current one.
    mutating func startInput() -> Int {
        inputGeneration += 1
        currentInputEnded = false
        return inputGeneration
    }

    /// A buffer from the input sequence of `generation`: checks its format and place in time.
    mutating func admit(
        generation: Int, start: MediaTime?, duration: MediaTime, format: FormatMatch = .accepted
    ) -> AdmitAction {
        guard phase == .active, generation == inputGeneration else { return .stopReading }
        if case .rejected(let got, let accepted) = format, rules.rejectsUnacceptedFormats {
            return .fail(fail(SFSpeechError(.unexpectedAudioFormat, "got \(got), modules accept \(accepted)"))!)
        }
        let previousEnd = admittedEnd ?? .zero
        let begin = start ?? previousEnd
        guard begin.isNumeric, duration.isNumeric, !(duration < .zero) else {
            let error = SFSpeechError(
                .audioDisordered, "buffer start \(begin) or duration \(duration) is not a valid time")
            return .fail(fail(error)!)
        }
        var start = begin
        if let end = admittedEnd, begin < end {
            guard !rules.rejectsOverlappingInput else {
                let error = SFSpeechError(
                    .audioDisordered,
                    "buffer starts at \(begin.seconds) s, before the end of earlier input at \(end.seconds) s")
                return .fail(fail(error)!)
            }
            start = end
        }
        let range = TimeRange(start: start, duration: duration)
        admittedEnd = range.end
        return .analyze(range)
    }

    /// The modules have analysed `range`; `modulesFinalized` is how far each is final.
    mutating func consumed(_ range: TimeRange, modulesFinalized: [(ModuleID, MediaTime)]) -> DueWork {
        guard phase == .active else { return DueWork() }
        consumedEnd = MediaTime.maximum(consumedEnd ?? range.end, range.end)
        // A module added mid-stream counts as final up to where it joined.
        let final = modulesFinalized.map { MediaTime.maximum($0.1, joinedAt[$0.0] ?? .zero) }.min()
        if let final { finalizedThrough = MediaTime.maximum(finalizedThrough, final) }
        return rangeReport() + wake()
    }

    /// The buffer of `range` has been analysed (or the session ended meanwhile).
    func readOn(after range: TimeRange) -> ReadAction {
        guard phase != .failed else { return .stopReading }
        return .readOn(lastEnd: rules.analyzeReturnsLastBufferEnd ? range.end : range.start)
    }

    /// The input sequence of `generation` ended (all of it consumed).
    mutating func inputEnded(generation: Int) -> DueWork {
        guard phase == .active, generation == inputGeneration || !rules.onlyCurrentInputEnds else { return DueWork() }
        currentInputEnded = true
        return rules.inputEndKeepsSessionOpen ? wake() : finishing(.cancel)
    }

    /// The reader of the input sequence of `generation` stopped reading it.
    mutating func readerStopped(_ generation: Int) { readersStopped.insert(generation) }

    /// Whether starting analysis checks the limit on engine configurations.
    func checksResourceLimit(optionsIgnoreLimits: Bool) -> Bool {
        !optionsIgnoreLimits && rules.enforcesResourceLimit
    }

    // MARK: Requests

    /// `finalize(through:)`, by the call `id`.
    mutating func requestFinalize(through time: MediaTime?, id: WaiterID, waiter: Waiter) -> RequestAction {
        registrations.append(id)
        switch phase {
        case .failed: return .resume(failed(waiter))
        case .finished:
            let satisfied = time.map { $0 <= finalizedThrough } ?? true
            return .resume(Resume(waiter: waiter, outcome: satisfied ? .success : .cancelled))
        case .active: break
        }
        guard let target = time ?? consumedEnd else { return .resume(Resume(waiter: waiter, outcome: .success)) }
        if target <= finalizedThrough && consumedEnd != nil {
            return .resume(Resume(waiter: waiter, outcome: .success))
        }
        waiters.append(Pending(id: id, condition: .finalize(target), waiter: waiter))
        return .wait(wake())
    }

    /// `finish(after:)`, by the call `id`.
    mutating func requestFinish(after time: MediaTime, id: WaiterID, waiter: Waiter) -> RequestAction {
        registrations.append(id)
        switch phase {
        case .failed: return .resume(failed(waiter))
        case .finished:
            let consumed = consumedEnd.map { time <= $0 } ?? false
            return .resume(Resume(waiter: waiter, outcome: consumed ? .success : .cancelled))
        case .active: break
        }
        waiters.append(Pending(id: id, condition: .finish(time), waiter: waiter))
        return .wait(wake())
    }

    /// `finalizeAndFinishThroughEndOfInput()`, by the call `id`.
    mutating func requestFinishAtEndOfInput(id: WaiterID, waiter: Waiter) -> RequestAction {
        registrations.append(id)
        switch phase {
        case .failed: return .resume(failed(waiter))
        case .finished: return .resume(Resume(waiter: waiter, outcome: .cancelled))
        case .active: break
        }
        waiters.append(Pending(id: id, condition: .endOfInput, waiter: waiter))
        return .wait(wake())
    }

    /// A finalise carried out for `through`: results before it are published.
    mutating func finalizeCompleted(through time: MediaTime) -> DueWork {
        guard phase != .failed else { return DueWork() }
        finalizedThrough = MediaTime.maximum(finalizedThrough, time)
        var progress = phase == .active ? rangeReport() : DueWork()
        waiters.removeAll { pending in
            guard case .finalizing(let target) = pending.condition, target <= finalizedThrough else { return false }
            progress.resumes.append(Resume(waiter: pending.waiter, outcome: .success))
            return true
        }
        guard phase == .active else { return progress }
        // The finalise that finalizeAndFinishThroughEndOfInput started ends the session.
        if endOfInputFinalized { return progress + finishing(.normal) }
        return progress + wake()
    }

    /// A finalise could not be carried out: the error fails an active session; after finishing,
    /// the finalise's waiters are cancelled (or get the session's error).
    mutating func finalizeFailed(_ error: any Error) -> DueWork {
        if phase == .active { return DueWork(ending: fail(error)) }
        let finalizing = waiters.filter { if case .finalizing = $0.condition { true } else { false } }
        waiters.removeAll { if case .finalizing = $0.condition { true } else { false } }
        var progress = DueWork()
        for pending in finalizing {
            let cancelled = Resume(waiter: pending.waiter, outcome: .cancelled)
            progress.resumes.append(phase == .failed ? failed(pending.waiter) : cancelled)
        }
        return progress
    }

    /// `cancelAnalysis(before:)`.
    mutating func cancel(before time: MediaTime) -> CancelAction {
        guard phase == .active else { return .none }
        let limit = consumedEnd.map { MediaTime.minimum(time, $0) } ?? .zero
        var progress = DueWork()
        if limit > finalizedThrough {
            finalizedThrough = limit
            progress = rangeReport()
        }
        return .cancelModules(before: time, then: progress + wake())
    }

    /// `cancelAndFinishNow()`: pending waiters are cancelled and the session ends. After it has
    /// finished, an ending that resumes nothing (the streams and engines are ended again).
    mutating func cancelAndFinish() -> Ending {
        guard phase == .active else { return Ending(failure: failure, resumes: []) }
        return finish(.cancel)
    }

    /// An error in the analyzer, a module or the input: the session fails and every waiter gets
    /// the error. Nil when it has already finished.
    mutating func fail(_ error: any Error) -> Ending? {
        guard phase == .active else { return nil }
        failure = SessionFailure(error)
        return finish(.failure)
    }

    /// The task of waiting call `id` was cancelled: that call ends with cancellation.
    mutating func waiterCancelled(_ id: WaiterID) -> WaiterCancelledAction {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return .none }
        let resume = Resume(waiter: waiters.remove(at: index).waiter, outcome: .cancelled)
        guard !rules.cancellingAWaiterCancelsOnlyIt, phase == .active else { return .resume(resume) }
        return .resumeAndEnd(resume, finish(.cancel))
    }

    // MARK: Watchers

    /// A harness task watches for `watch`.
    mutating func watch(_ watch: Watch, id: Int, watcher: Watcher, engineIdle: Bool) -> WatchAction {
        guard !holds(watch, engineIdle: engineIdle) else { return .resume(watcher) }
        watchers.append((id, watch, watcher))
        return .wait
    }

    /// The watchers whose point has been reached, taken out of the table.
    mutating func dueWatchers(engineIdle: Bool) -> [Watcher] {
        guard !watchers.isEmpty else { return [] }
        let (due, waiting) = (
            watchers.filter { holds($0.watch, engineIdle: engineIdle) },
            watchers.filter { !holds($0.watch, engineIdle: engineIdle) }
        )
        watchers = waiting
        return due.map(\.watcher)
    }

    /// The task of watcher `id` was cancelled: it is resumed now (nil if it already was).
    mutating func watcherCancelled(_ id: Int) -> Watcher? {
        guard let index = watchers.firstIndex(where: { $0.id == id }) else { return nil }
        return watchers.remove(at: index).watcher
    }

    private func holds(_ watch: Watch, engineIdle: Bool) -> Bool {
        switch watch {
        case .registered(let count): registrations.count > count
        case .consumed(let time): isFinished || (consumedEnd.map { $0 >= time } ?? false)
        case .settled(let generations): isFinished || (engineIdle && readersStopped.isSuperset(of: generations))
        }
    }

    // MARK: Internals

    /// A waiter's answer in a failed session: the failure (only the first one, when that rule is broken).
    private mutating func failed(_ waiter: Waiter) -> Resume {
        failuresAnswered += 1
        let reaches = rules.errorReachesEveryWaiter || failuresAnswered == 1
        return Resume(
            waiter: waiter, outcome: reaches ? .failed(failure ?? SessionFailure(CancellationError())) : .success)
    }

    private mutating func rangeReport() -> DueWork {
        guard let range = volatileRange, range != reportedRange else { return DueWork() }
        let changedStart = reportedRange.map { $0.start != range.start } ?? true
        let changedEnd = reportedRange.map { $0.end != range.end } ?? true
        reportedRange = range
        var progress = DueWork()
        if !rules.volatileStartOnlyMovesForward && changedStart && range.start > .zero {
            progress.reports.append(
                RangeReport(
                    range: TimeRange(start: .zero, end: range.end), changedStart: changedStart, changedEnd: changedEnd,
                    handlers: handlers))
        }
        progress.reports.append(
            RangeReport(range: range, changedStart: changedStart, changedEnd: changedEnd, handlers: handlers))
        return progress
    }

    /// Starts whatever pending requests the current state allows.
    private mutating func wake() -> DueWork {
        guard phase == .active else { return DueWork() }
        var progress = DueWork()
        var answered: Set<WaiterID> = []
        var finishNow = false
        let endOfInputReached = currentInputEnded && inputGeneration > 0 && !endOfInputFinalized
        for index in waiters.indices {
            let pending = waiters[index]
            switch pending.condition {
            case .finalize(let target):
                if target <= finalizedThrough, consumedEnd != nil {
                    progress.resumes.append(Resume(waiter: pending.waiter, outcome: .success))
                    answered.insert(pending.id)
                } else if let consumed = consumedEnd, target <= consumed {
                    waiters[index].condition = .finalizing(target)
                    progress.finalize = MediaTime.maximum(progress.finalize ?? target, target)
                }
            case .finish(let target):
                if let consumed = consumedEnd, target <= consumed { finishNow = true }
            case .endOfInput:
                if endOfInputReached {
                    let through = consumedEnd ?? .zero
                    waiters[index].condition = .finalizing(through)
                    progress.finalize = MediaTime.maximum(progress.finalize ?? through, through)
                    endOfInputFinalized = true
                }
            case .finalizing:
                break
            }
        }
        // Waiters answered at once leave the table; those being finalised stay until it completes.
        waiters.removeAll { answered.contains($0.id) }
        // Finish waiters whose time is consumed succeed; the rest are cancelled by finishing.
        return finishNow ? progress + finishing(.normal) : progress
    }

    private enum FinishKind { case normal, cancel, failure }

    /// Finishing while an event is handled.
    private mutating func finishing(_ kind: FinishKind) -> DueWork {
        DueWork(ending: finish(kind))
    }

    /// Ends the session, settling the waiters it can (a finalise under way answers its own when
    /// a normal finish leaves it to complete).
    private mutating func finish(_ kind: FinishKind) -> Ending {
        phase = kind == .failure ? .failed : .finished
        var resumes: [Resume] = []
        var kept: [Pending] = []
        for pending in waiters {
            let outcome: Outcome
            switch (kind, pending.condition) {
            case (.failure, _):
                resumes.append(failed(pending.waiter))
                continue
            case (.normal, .finalizing):
                // A finalise under way completes first; finalizeCompleted answers it.
                kept.append(pending)
                continue
            case (_, .finish(let target)):
                outcome = (consumedEnd.map { target <= $0 } ?? false) ? .success : .cancelled
            case (_, .finalize(let target)), (_, .finalizing(let target)):
                outcome = target <= finalizedThrough && consumedEnd != nil ? .success : .cancelled
            case (_, .endOfInput):
                outcome = .cancelled
            }
            resumes.append(Resume(waiter: pending.waiter, outcome: outcome))
        }
        waiters = kept
        return Ending(failure: failure, resumes: resumes)
    }
}
