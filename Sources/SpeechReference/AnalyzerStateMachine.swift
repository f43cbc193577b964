import CoreMedia
import SpeechCore

/// The rules of one analysis session, as a value type with no tasks, continuations or engines:
/// the ``SpeechAnalyzer`` actor feeds it events and carries out the actions it returns.
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
struct AnalyzerStateMachine {
    typealias WaiterID = Int

    #if SPEECH_HARNESS_MUTATIONS
        /// The rules the machine follows: Apple's documented ones, or one of them broken on purpose so
        /// the conformance suite can show that it notices (the mutation check; see ``Mutations``).
        struct Rules: Equatable, Sendable {
            /// A buffer starting before the end of earlier input is `audioDisordered`; broken, it is
            /// taken as continuing from that end.
            var rejectsOverlappingInput = true
            /// The end of an input sequence leaves the session running; broken, it finishes it.
            var inputEndKeepsSessionOpen = true
            /// Only the current input sequence's end counts; broken, a replaced sequence's end does too.
            var onlyCurrentInputEnds = true
            /// An error reaches every waiter; broken, only the first, and the others return normally.
            var errorReachesEveryWaiter = true
            /// The volatile range's start never moves back; broken, each start change is preceded by a
            /// report of a range from zero.
            var volatileStartOnlyMovesForward = true
            /// A buffer must be in a format every module accepts; broken, any PCM buffer is analysed.
            var rejectsUnacceptedFormats = true
            /// Past the limit on engine configurations, starting analysis fails; broken, the limit is
            /// not checked.
            var enforcesResourceLimit = true
            /// A new volatile range handler replaces the old one; broken, both are called.
            var replacesVolatileHandler = true
            /// `analyzeSequence` returns where its last buffer ends; broken, where that buffer starts.
            var analyzeReturnsLastBufferEnd = true
            /// Cancelling a waiting call's task cancels that call only; broken, it finishes the session.
            var cancellingAWaiterCancelsOnlyIt = true

            static let documented = Rules()
        }
    #else
        /// The documented rules as constants: a release build has no way to break them, and the
        /// checks on them fold away.
        struct Rules: Equatable, Sendable {
            var rejectsOverlappingInput: Bool { true }
            var inputEndKeepsSessionOpen: Bool { true }
            var onlyCurrentInputEnds: Bool { true }
            var errorReachesEveryWaiter: Bool { true }
            var volatileStartOnlyMovesForward: Bool { true }
            var rejectsUnacceptedFormats: Bool { true }
            var enforcesResourceLimit: Bool { true }
            var replacesVolatileHandler: Bool { true }
            var analyzeReturnsLastBufferEnd: Bool { true }
            var cancellingAWaiterCancelsOnlyIt: Bool { true }

            static let documented = Rules()
        }
    #endif

    let rules: Rules

    init(rules: Rules = .documented) {
        self.rules = rules
    }

    enum Outcome: Equatable {
        case success
        /// The session finished before the waiter's condition was met.
        case cancelled
        /// The session failed; the waiter gets the session's error.
        case failed
    }

    /// What a caller hears: carried out at once, with no engine work.
    enum Answer: Equatable {
        case resume(WaiterID, Outcome)
        case volatileRangeChanged(TimeRange, changedStart: Bool, changedEnd: Bool)
    }

    /// What an event of the running session asks the analyzer to do.
    enum Action: Equatable {
        case answer(Answer)
        /// Finalise every module through the time, then report ``finalizeCompleted(through:)``.
        case finalize(through: MediaTime, waiters: [WaiterID])
        /// Tell modules to drop results before the time.
        case cancelModules(before: MediaTime)
        /// End result streams (with the failure if any), stop taking input, close engines.
        case finishSession

        static func resume(_ id: WaiterID, _ outcome: Outcome) -> Action { .answer(.resume(id, outcome)) }
        static func volatileRangeChanged(_ range: TimeRange, changedStart: Bool, changedEnd: Bool) -> Action {
            .answer(.volatileRangeChanged(range, changedStart: changedStart, changedEnd: changedEnd))
        }
    }

    /// The session ends now, without waiting for queued engine work: answer these, then end the
    /// result streams and close the engines.
    struct Ending: Equatable {
        var answers: [Answer]
    }

    /// Whether a buffer's format is one every module accepts.
    enum FormatMatch: Equatable {
        case accepted
        case rejected(got: String, accepted: String)
    }

    /// What setting a volatile range handler does to the one already set.
    enum HandlerChange: Equatable {
        case replace
        #if SPEECH_HARNESS_MUTATIONS
            /// Keep the old handler beside the new one (the planted fault `handlerNotReplaced`).
            case callBoth
        #endif
    }

    /// What cancelling one waiting call's task does.
    enum WaiterCancellation: Equatable {
        /// End that call with cancellation (unless its answer has already been given).
        case answer(Answer)
        /// End that call, then the session.
        case end(Answer, Ending)
    }

    enum Phase: Equatable { case active, finished, failed }

    private enum Condition: Equatable {
        case finalize(MediaTime)
        case finish(MediaTime)
        case endOfInput
        /// A finalise the actor is carrying out.
        case finalizing(MediaTime)
    }

    private(set) var phase: Phase = .active
    /// End of audio admitted for analysis (reserved before the engines see it).
    private(set) var admittedEnd: MediaTime?
    /// End of audio the modules have analysed.
    private(set) var consumedEnd: MediaTime?
    /// Audio before this time has final (or cancelled) results.
    private(set) var finalizedThrough: MediaTime = .zero
    /// The input sequence currently feeding the analyzer (0: none yet).
    private(set) var inputGeneration = 0
    private(set) var currentInputEnded = false
    private var waiters: [(id: WaiterID, condition: Condition)] = []
    private var nextWaiterID = 0
    private var reportedRange: TimeRange?

    var isFinished: Bool { phase != .active }

    /// The volatile range: nil before any input.
    var volatileRange: TimeRange? {
        guard let end = consumedEnd else { return nil }
        let start = MediaTime.minimum(finalizedThrough, end)
        return TimeRange(start: start, end: end)
    }

    var pendingWaiters: Int { waiters.count }

    // MARK: Input

    /// A new input sequence replaces the current one.
    mutating func startInput() -> Int {
        inputGeneration += 1
        currentInputEnded = false
        return inputGeneration
    }

    /// Checks a buffer's format and place in time. Returns its range, or nil when the session no
    /// longer takes input.
    mutating func admit(
        start: MediaTime?, duration: MediaTime, format: FormatMatch = .accepted
    )
        throws(SFSpeechError) -> TimeRange?
    {
        guard phase == .active else { return nil }
        if case .rejected(let got, let accepted) = format, rules.rejectsUnacceptedFormats {
            throw SFSpeechError(.unexpectedAudioFormat, "got \(got), modules accept \(accepted)")
        }
        let previousEnd = admittedEnd ?? .zero
        let begin = start ?? previousEnd
        guard begin.isNumeric, duration.isNumeric, !(duration < .zero) else {
            throw SFSpeechError(.audioDisordered, "buffer start \(begin) or duration \(duration) is not a valid time")
        }
        var start = begin
        if let end = admittedEnd, begin < end {
            guard !rules.rejectsOverlappingInput else {
                throw SFSpeechError(
                    .audioDisordered,
                    "buffer starts at \(begin.seconds) s, before the end of earlier input at \(end.seconds) s")
            }
            start = end
        }
        let range = TimeRange(start: start, duration: duration)
        admittedEnd = range.end
        return range
    }

    /// The modules have analysed `range`; `modulesFinalized` is how far all of them are final.
    mutating func consumed(_ range: TimeRange, modulesFinalized: MediaTime?) -> [Action] {
        guard phase == .active else { return [] }
        consumedEnd = MediaTime.maximum(consumedEnd ?? range.end, range.end)
        if let modulesFinalized { finalizedThrough = MediaTime.maximum(finalizedThrough, modulesFinalized) }
        return rangeReport() + wake()
    }

    /// The input sequence of `generation` ended (all of it consumed).
    mutating func inputEnded(generation: Int) -> [Action] {
        guard phase == .active, generation == inputGeneration || !rules.onlyCurrentInputEnds else { return [] }
        currentInputEnded = true
        return rules.inputEndKeepsSessionOpen ? wake() : finishing(.cancel)
    }

    /// Where `analyzeSequence` says its input ended, given its last buffer.
    func reportedEnd(ofLastBuffer range: TimeRange) -> MediaTime {
        rules.analyzeReturnsLastBufferEnd ? range.end : range.start
    }

    /// Whether starting analysis checks the limit on engine configurations.
    func checksResourceLimit(optionsIgnoreLimits: Bool) -> Bool {
        !optionsIgnoreLimits && rules.enforcesResourceLimit
    }

    /// Setting a volatile range handler.
    func handlerChange() -> HandlerChange {
        #if SPEECH_HARNESS_MUTATIONS
            rules.replacesVolatileHandler ? .replace : .callBoth
        #else
            .replace
        #endif
    }

    // MARK: Requests

    /// `finalize(through:)`; the returned id is resumed by a later action unless the request is
    /// already answered in the returned actions.
    mutating func requestFinalize(through time: MediaTime?) -> (WaiterID, [Action]) {
        let id = newID()
        switch phase {
        case .failed: return (id, [.answer(failed(id))])
        case .finished:
            let satisfied = time.map { $0 <= finalizedThrough } ?? true
            return (id, [.resume(id, satisfied ? .success : .cancelled)])
        case .active: break
        }
        guard let target = time ?? consumedEnd else { return (id, [.resume(id, .success)]) }
        if target <= finalizedThrough && consumedEnd != nil { return (id, [.resume(id, .success)]) }
        waiters.append((id, .finalize(target)))
        return (id, wake())
    }

    /// `finish(after:)`.
    mutating func requestFinish(after time: MediaTime) -> (WaiterID, [Action]) {
        let id = newID()
        switch phase {
        case .failed: return (id, [.answer(failed(id))])
        case .finished: return (id, [.resume(id, (consumedEnd.map { time <= $0 } ?? false) ? .success : .cancelled)])
        case .active: break
        }
        waiters.append((id, .finish(time)))
        return (id, wake())
    }

    /// `finalizeAndFinishThroughEndOfInput()`.
    mutating func requestFinishAtEndOfInput() -> (WaiterID, [Action]) {
        let id = newID()
        switch phase {
        case .failed: return (id, [.answer(failed(id))])
        case .finished: return (id, [.resume(id, .cancelled)])
        case .active: break
        }
        waiters.append((id, .endOfInput))
        return (id, wake())
    }

    /// A finalise carried out for `through`: results before it are published.
    mutating func finalizeCompleted(through time: MediaTime) -> [Action] {
        guard phase != .failed else { return [] }
        finalizedThrough = MediaTime.maximum(finalizedThrough, time)
        var actions = phase == .active ? rangeReport() : []
        waiters.removeAll { waiter in
            guard case .finalizing(let target) = waiter.condition, target <= finalizedThrough else { return false }
            actions.append(.resume(waiter.id, .success))
            return true
        }
        guard phase == .active else { return actions }
        // The finalise that finalizeAndFinishThroughEndOfInput started ends the session.
        if endOfInputFinalized { return actions + finishing(.normal) }
        return actions + wake()
    }

    /// A finalise could not be carried out: an error fails the session; after finishing, its
    /// waiters are cancelled.
    mutating func finalizeFailed() -> [Action] {
        if phase == .active { return finishing(.failure) }
        let finalizing = waiters.filter { if case .finalizing = $0.condition { true } else { false } }
        waiters.removeAll { if case .finalizing = $0.condition { true } else { false } }
        return finalizing.map { phase == .failed ? .answer(failed($0.id)) : .resume($0.id, .cancelled) }
    }

    /// `cancelAnalysis(before:)`.
    mutating func cancel(before time: MediaTime) -> [Action] {
        guard phase == .active else { return [] }
        let limit = consumedEnd.map { MediaTime.minimum(time, $0) } ?? .zero
        var actions: [Action] = [.cancelModules(before: time)]
        if limit > finalizedThrough {
            finalizedThrough = limit
            actions += rangeReport()
        }
        return actions + wake()
    }

    /// `cancelAndFinishNow()`: pending waiters are cancelled, the session finishes. Nil when it
    /// has already finished.
    mutating func cancelAndFinish() -> Ending? {
        guard phase == .active else { return nil }
        return Ending(answers: finish(.cancel))
    }

    /// An error in the analyzer or a module: the session fails and every waiter gets the error.
    /// Nil when it has already finished.
    mutating func fail() -> Ending? {
        guard phase == .active else { return nil }
        return Ending(answers: finish(.failure))
    }

    /// The task of waiting call `id` was cancelled: that call ends with cancellation.
    mutating func waiterCancelled(_ id: WaiterID) -> WaiterCancellation {
        waiters.removeAll { $0.id == id }
        let answer = Answer.resume(id, .cancelled)
        guard !rules.cancellingAWaiterCancelsOnlyIt, let ending = cancelAndFinish() else { return .answer(answer) }
        return .end(answer, ending)
    }

    // MARK: Internals

    private var endOfInputFinalized = false
    private var failuresAnswered = 0

    /// A waiter's answer in a failed session: the failure (only the first one, when that rule is broken).
    private mutating func failed(_ id: WaiterID) -> Answer {
        failuresAnswered += 1
        return .resume(id, rules.errorReachesEveryWaiter || failuresAnswered == 1 ? .failed : .success)
    }

    private mutating func newID() -> WaiterID {
        nextWaiterID += 1
        return nextWaiterID
    }

    private mutating func rangeReport() -> [Action] {
        guard let range = volatileRange, range != reportedRange else { return [] }
        let changedStart = reportedRange.map { $0.start != range.start } ?? true
        let changedEnd = reportedRange.map { $0.end != range.end } ?? true
        reportedRange = range
        let report = Action.volatileRangeChanged(range, changedStart: changedStart, changedEnd: changedEnd)
        if !rules.volatileStartOnlyMovesForward && changedStart && range.start > .zero {
            return [
                .volatileRangeChanged(
                    TimeRange(start: .zero, end: range.end), changedStart: changedStart, changedEnd: changedEnd),
                report,
            ]
        }
        return [report]
    }

    /// Starts whatever pending requests the current state allows.
    private mutating func wake() -> [Action] {
        guard phase == .active else { return [] }
        var actions: [Action] = []
        var finalizeTargets: [(WaiterID, MediaTime)] = []
        var finishNow = false
        let endOfInputReached = currentInputEnded && inputGeneration > 0 && !endOfInputFinalized
        var convertedEndOfInput = false
        for index in waiters.indices {
            let waiter = waiters[index]
            switch waiter.condition {
            case .finalize(let target):
                if target <= finalizedThrough, consumedEnd != nil {
                    actions.append(.resume(waiter.id, .success))
                    waiters[index].condition = .finalizing(.zero)  // removed below
                } else if let consumed = consumedEnd, target <= consumed {
                    finalizeTargets.append((waiter.id, target))
                    waiters[index].condition = .finalizing(target)
                }
            case .finish(let target):
                if let consumed = consumedEnd, target <= consumed { finishNow = true }
            case .endOfInput:
                if endOfInputReached {
                    convertedEndOfInput = true
                    let through = consumedEnd ?? .zero
                    waiters[index].condition = .finalizing(through)
                    finalizeTargets.append((waiter.id, through))
                }
            case .finalizing:
                break
            }
        }
        // Waiters answered at once are dropped; those being finalised stay until it completes.
        let answered = Set(
            actions.compactMap { action -> WaiterID? in
                if case .answer(.resume(let id, _)) = action { return id }
                return nil
            })
        waiters.removeAll { answered.contains($0.id) }
        if convertedEndOfInput { endOfInputFinalized = true }
        if let through = finalizeTargets.map(\.1).max() {
            actions.append(.finalize(through: through, waiters: finalizeTargets.map(\.0)))
        }
        if finishNow {
            // Resolve finish waiters whose time is consumed; the rest are cancelled by finishing.
            actions += finishing(.normal)
        }
        return actions
    }

    private enum FinishKind { case normal, cancel, failure }

    /// Finishing while events are being handled: the answers, then the end of the session.
    private mutating func finishing(_ kind: FinishKind) -> [Action] {
        finish(kind).map(Action.answer) + [.finishSession]
    }

    /// Ends the session; returns the answers to the waiters it settles.
    private mutating func finish(_ kind: FinishKind) -> [Answer] {
        phase = kind == .failure ? .failed : .finished
        var answers: [Answer] = []
        var kept: [(id: WaiterID, condition: Condition)] = []
        for waiter in waiters {
            let outcome: Outcome
            switch (kind, waiter.condition) {
            case (.failure, _):
                answers.append(failed(waiter.id))
                continue
            case (.normal, .finalizing):
                // A finalise under way completes first; finalizeCompleted answers it.
                kept.append(waiter)
                continue
            case (_, .finish(let target)):
                outcome = (consumedEnd.map { target <= $0 } ?? false) ? .success : .cancelled
            case (_, .finalize(let target)), (_, .finalizing(let target)):
                outcome = target <= finalizedThrough && consumedEnd != nil ? .success : .cancelled
            case (_, .endOfInput):
                outcome = .cancelled
            }
            answers.append(.resume(waiter.id, outcome))
        }
        waiters = kept
        return answers
    }
}
