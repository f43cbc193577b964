import SpeechCore
import Testing

@testable import SpeechReference

/// The session rules as a table: events in, actions out, one documented clause per test. The
/// analyzer actor only carries these actions out, so its behaviour follows from them. Waiters and
/// watchers are plain numbers here, handlers names.
@Suite("Analyzer state machine")
struct AnalyzerStateMachineTests {
    typealias Machine = AnalyzerStateMachine<Int, Int, String>
    typealias DueWork = Machine.DueWork

    static func t(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, preferredTimescale: 16_000) }
    static func range(_ start: Double, _ end: Double) -> TimeRange { TimeRange(start: t(start), end: t(end)) }

    /// A machine with one documented rule broken, as the mutation check plants it.
    static func machine(breaking rule: WritableKeyPath<Machine.Rules, Bool>) -> Machine {
        var rules = Machine.Rules.documented
        rules[keyPath: rule] = false
        return Machine(rules: rules)
    }

    static func report(
        _ start: Double, _ end: Double, start changedStart: Bool, end changedEnd: Bool, to handlers: [String] = []
    ) -> Machine.RangeReport {
        Machine.RangeReport(
            range: range(start, end), changedStart: changedStart, changedEnd: changedEnd, handlers: handlers)
    }

    static func resume(_ id: Int, _ outcome: Machine.Outcome) -> Machine.Resume {
        Machine.Resume(waiter: id, outcome: outcome)
    }

    static let failure = SessionFailure(SFSpeechError(.moduleOutputFailed, "engine crashed"))

    /// A session that has consumed audio from 0 to `seconds`, in one piece, with nothing final.
    static func consuming(_ seconds: Double) -> Machine {
        var machine = Machine()
        let generation = machine.startInput()
        _ = machine.admit(generation: generation, start: .zero, duration: t(seconds))
        _ = machine.consumed(range(0, seconds), modulesFinalized: [])
        return machine
    }

    // MARK: input

    @Test func inputIsAdmittedInTimeOrderAndMayLeaveGaps() {
        var machine = Machine()
        let input = machine.startInput()
        #expect(machine.admit(generation: input, start: nil, duration: Self.t(1)) == .analyze(Self.range(0, 1)))
        // A later start skips audio.
        #expect(machine.admit(generation: input, start: Self.t(2), duration: Self.t(1)) == .analyze(Self.range(2, 3)))
        #expect(machine.admittedEnd == Self.t(3))
        // An earlier one is disordered, and fails the session.
        guard case .fail(let ending) = machine.admit(generation: input, start: Self.t(2.5), duration: Self.t(1)) else {
            Issue.record("overlapping input was admitted")
            return
        }
        #expect((ending.failure?.error as? SFSpeechError)?.code == .audioDisordered)
        #expect(machine.phase == .failed)
        // A finished session reads no more input, without another error.
        #expect(machine.admit(generation: input, start: nil, duration: Self.t(1)) == .stopReading)
    }

    @Test func aBufferWithNoValidTimeIsDisordered() {
        var machine = Machine()
        let input = machine.startInput()
        guard case .fail(let ending) = machine.admit(generation: input, start: Self.t(4), duration: Self.t(-1)) else {
            Issue.record("a negative duration was admitted")
            return
        }
        #expect((ending.failure?.error as? SFSpeechError)?.code == .audioDisordered)
    }

    @Test func aReplacedSequenceIsReadNoFurther() {
        var machine = Machine()
        let first = machine.startInput()
        _ = machine.startInput()
        #expect(machine.admit(generation: first, start: nil, duration: Self.t(1)) == .stopReading)
        #expect(machine.admittedEnd == nil)
    }

    // MARK: volatile range

    @Test func theVolatileRangeRunsFromTheFinalisedTimeToTheConsumedEndAndNeverMovesBack() {
        var machine = Machine()
        #expect(machine.volatileRange == nil)
        _ = machine.startInput()
        #expect(
            machine.consumed(Self.range(0, 1), modulesFinalized: [])
                == DueWork(reports: [Self.report(0, 1, start: true, end: true)]))
        #expect(
            machine.consumed(Self.range(1, 2), modulesFinalized: [])
                == DueWork(reports: [Self.report(0, 2, start: false, end: true)]))
        #expect(
            machine.finalizeCompleted(through: Self.t(1.5))
                == DueWork(reports: [Self.report(1.5, 2, start: true, end: false)]))
        // Cancelling before a time already final changes nothing but the modules' work.
        #expect(machine.cancel(before: Self.t(1)) == .cancelModules(before: Self.t(1), then: DueWork()))
        #expect(machine.volatileRange == Self.range(1.5, 2))
    }

    @Test func modulesFinalisingOnTheirOwnMoveTheStartWithTheEnd() {
        var machine = Machine()
        _ = machine.startInput()
        let module = ObjectIdentifier(Machine.self as Any.Type)
        machine.modulesJoined([module])
        #expect(
            machine.consumed(Self.range(0, 3), modulesFinalized: [(module, Self.t(2.5))])
                == DueWork(reports: [Self.report(2.5, 3, start: true, end: true)]))
    }

    @Test func aModuleAddedMidStreamCountsAsFinalUpToWhereItJoined() {
        var machine = Machine()
        let input = machine.startInput()
        let first = ObjectIdentifier(Int.self as Any.Type), late = ObjectIdentifier(String.self as Any.Type)
        machine.modulesJoined([first])
        _ = machine.admit(generation: input, start: nil, duration: Self.t(2))
        _ = machine.consumed(Self.range(0, 2), modulesFinalized: [(first, Self.t(2))])
        machine.modulesJoined([first, late])
        _ = machine.admit(generation: input, start: nil, duration: Self.t(1))
        // The late module has finalised nothing of its own, but joined at 2 s.
        #expect(
            machine.consumed(Self.range(2, 3), modulesFinalized: [(first, Self.t(3)), (late, .zero)])
                == DueWork(reports: [Self.report(2, 3, start: false, end: true)]))
    }

    @Test func aNewVolatileRangeHandlerReplacesTheOld() {
        var machine = Machine()
        machine.setVolatileHandler("first")
        machine.setVolatileHandler("second")
        _ = machine.startInput()
        #expect(
            machine.consumed(Self.range(0, 1), modulesFinalized: [])
                == DueWork(reports: [Self.report(0, 1, start: true, end: true, to: ["second"])]))
        machine.setVolatileHandler(nil)
        #expect(
            machine.consumed(Self.range(1, 2), modulesFinalized: [])
                == DueWork(reports: [Self.report(0, 2, start: false, end: true)]))
    }

    // MARK: finalize(through:)

    @Test func finalizeWaitsUntilItsTimeIsConsumed() {
        var machine = Machine()
        _ = machine.startInput()
        let id = machine.newID()
        #expect(machine.requestFinalize(through: Self.t(2), id: id, waiter: id) == .wait(DueWork()))
        #expect(
            machine.consumed(Self.range(0, 1), modulesFinalized: [])
                == DueWork(reports: [Self.report(0, 1, start: true, end: true)]))
        #expect(
            machine.consumed(Self.range(1, 2), modulesFinalized: [])
                == DueWork(reports: [Self.report(0, 2, start: false, end: true)], finalize: Self.t(2)))
        #expect(
            machine.finalizeCompleted(through: Self.t(2))
                == DueWork(reports: [Self.report(2, 2, start: true, end: false)], resumes: [Self.resume(id, .success)])
        )
        #expect(machine.pendingWaiters == 0)
    }

    @Test func finalizeOfATimeAlreadyFinalOrOfNothingReturnsAtOnce() {
        var machine = Self.consuming(2)
        _ = machine.finalizeCompleted(through: Self.t(1.5))
        #expect(machine.requestFinalize(through: Self.t(1), id: 1, waiter: 1) == .resume(Self.resume(1, .success)))
        // nil means what has been consumed.
        #expect(machine.requestFinalize(through: nil, id: 2, waiter: 2) == .wait(DueWork(finalize: Self.t(2))))
        var fresh = Machine()
        #expect(fresh.requestFinalize(through: nil, id: 3, waiter: 3) == .resume(Self.resume(3, .success)))
    }

    // MARK: end of input

    @Test func theEndOfAnInputSequenceDoesNotFinishTheSession() {
        var machine = Self.consuming(1)
        #expect(machine.inputEnded(generation: machine.inputGeneration).isEmpty)
        #expect(!machine.isFinished)
        // Another input sequence may follow.
        #expect(machine.startInput() == 2)
    }

    @Test func finalizeAndFinishThroughEndOfInputFinalisesThenFinishes() {
        var machine = Self.consuming(1)
        #expect(machine.requestFinishAtEndOfInput(id: 1, waiter: 1) == .wait(DueWork()))
        #expect(machine.inputEnded(generation: 1) == DueWork(finalize: Self.t(1)))
        // The call returns after the session has ended.
        #expect(
            machine.finalizeCompleted(through: Self.t(1))
                == DueWork(
                    reports: [Self.report(1, 1, start: true, end: false)],
                    ending: Machine.Ending(failure: nil, resumes: [Self.resume(1, .success)])))
        #expect(machine.phase == .finished)
    }

    @Test func onlyTheCurrentInputSequenceEndsTheInput() {
        var machine = Self.consuming(1)
        let first = machine.inputGeneration
        let second = machine.startInput()
        _ = machine.requestFinishAtEndOfInput(id: 1, waiter: 1)
        #expect(machine.inputEnded(generation: first).isEmpty)
        #expect(machine.inputEnded(generation: second) == DueWork(finalize: Self.t(1)))
    }

    @Test func anAnalysedBufferTellsTheReaderWhereTheSequenceEnds() {
        var machine = Self.consuming(2)
        #expect(machine.readOn(after: Self.range(1, 2)) == .readOn(lastEnd: Self.t(2)))
        _ = machine.fail(Self.failure.error)
        #expect(machine.readOn(after: Self.range(1, 2)) == .stopReading)
    }

    // MARK: finish(after:)

    @Test func finishAfterATimeFinishesOnceThatAudioIsConsumed() {
        var machine = Machine()
        _ = machine.startInput()
        #expect(machine.requestFinish(after: Self.t(1), id: 1, waiter: 1) == .wait(DueWork()))
        #expect(
            machine.consumed(Self.range(0, 1), modulesFinalized: [])
                == DueWork(
                    reports: [Self.report(0, 1, start: true, end: true)],
                    ending: Machine.Ending(failure: nil, resumes: [Self.resume(1, .success)])))
        // After finishing: a time that was consumed succeeds, a later one is cancelled.
        #expect(machine.requestFinish(after: Self.t(0.5), id: 2, waiter: 2) == .resume(Self.resume(2, .success)))
        #expect(machine.requestFinish(after: Self.t(5), id: 3, waiter: 3) == .resume(Self.resume(3, .cancelled)))
    }

    // MARK: finishing resumes every waiter once

    @Test func cancelAndFinishNowCancelsWhatIsPending() {
        var machine = Self.consuming(1)
        _ = machine.requestFinalize(through: Self.t(5), id: 1, waiter: 1)
        _ = machine.requestFinishAtEndOfInput(id: 2, waiter: 2)
        #expect(
            machine.cancelAndFinish()
                == Machine.Ending(failure: nil, resumes: [Self.resume(1, .cancelled), Self.resume(2, .cancelled)]))
        #expect(machine.phase == .finished)
        // Finishing happens once: later, nothing is left to resume, and an error changes nothing.
        #expect(machine.cancelAndFinish() == Machine.Ending(failure: nil, resumes: []))
        #expect(machine.fail(Self.failure.error) == nil)
        #expect(machine.failure == nil)
    }

    @Test func anErrorFailsEveryWaiterAndEveryLaterRequest() {
        var machine = Self.consuming(1)
        _ = machine.requestFinalize(through: Self.t(5), id: 1, waiter: 1)
        _ = machine.requestFinish(after: Self.t(9), id: 2, waiter: 2)
        let failed = Machine.Outcome.failed(Self.failure)
        #expect(
            machine.fail(Self.failure.error)
                == Machine.Ending(failure: Self.failure, resumes: [Self.resume(1, failed), Self.resume(2, failed)]))
        #expect(machine.phase == .failed)
        #expect(machine.requestFinalize(through: Self.t(0.5), id: 3, waiter: 3) == .resume(Self.resume(3, failed)))
        #expect(machine.requestFinishAtEndOfInput(id: 4, waiter: 4) == .resume(Self.resume(4, failed)))
        // A finalise that cannot be carried out while active is such an error.
        var other = Self.consuming(1)
        _ = other.requestFinalize(through: Self.t(1), id: 5, waiter: 5)
        #expect(
            other.finalizeFailed(Self.failure.error)
                == DueWork(ending: Machine.Ending(failure: Self.failure, resumes: [Self.resume(5, failed)])))
    }

    @Test func aFinaliseUnderWayCompletesBeforeANormalFinishAnswersIt() {
        var machine = Self.consuming(2)
        #expect(machine.requestFinalize(through: Self.t(2), id: 1, waiter: 1) == .wait(DueWork(finalize: Self.t(2))))
        // The finish resolves; the finalise stays pending until its work completes.
        #expect(
            machine.requestFinish(after: Self.t(1), id: 2, waiter: 2)
                == .wait(DueWork(ending: Machine.Ending(failure: nil, resumes: [Self.resume(2, .success)]))))
        #expect(machine.finalizeCompleted(through: Self.t(2)) == DueWork(resumes: [Self.resume(1, .success)]))
    }

    @Test func aFinaliseFailingAfterTheFinishCancelsItsWaiter() {
        var machine = Self.consuming(2)
        _ = machine.requestFinalize(through: Self.t(2), id: 1, waiter: 1)
        _ = machine.requestFinish(after: Self.t(1), id: 2, waiter: 2)
        #expect(machine.finalizeFailed(Self.failure.error) == DueWork(resumes: [Self.resume(1, .cancelled)]))
    }

    // MARK: cancelling a waiting call

    @Test func cancellingOneWaiterEndsOnlyThatCall() {
        var machine = Self.consuming(1)
        _ = machine.requestFinalize(through: Self.t(5), id: 1, waiter: 1)
        _ = machine.requestFinalize(through: Self.t(6), id: 2, waiter: 2)
        #expect(machine.waiterCancelled(1) == .resume(Self.resume(1, .cancelled)))
        #expect(machine.pendingWaiters == 1)
        #expect(!machine.isFinished)
        // A call answered already has nothing left to cancel.
        #expect(machine.waiterCancelled(1) == .none)
        // The other waiter is still answered by what it waits for.
        #expect(machine.cancelAndFinish() == Machine.Ending(failure: nil, resumes: [Self.resume(2, .cancelled)]))
    }

    // MARK: watchers

    @Test func aWatcherWaitsInTheTableUntilItsPointIsReached() {
        var machine = Machine()
        let input = machine.startInput()
        #expect(machine.watch(.consumed(through: Self.t(1)), id: 10, watcher: 10, engineIdle: true) == .wait)
        #expect(machine.watch(.registered(after: 0), id: 11, watcher: 11, engineIdle: true) == .wait)
        #expect(machine.watch(.settled(inputsEnded: [input]), id: 12, watcher: 12, engineIdle: true) == .wait)
        _ = machine.consumed(Self.range(0, 1), modulesFinalized: [])
        #expect(machine.dueWatchers(engineIdle: true) == [10])
        _ = machine.requestFinalize(through: Self.t(5), id: 1, waiter: 1)
        #expect(machine.dueWatchers(engineIdle: true) == [11])
        // Settled needs the reader stopped and the engines idle.
        machine.readerStopped(input)
        #expect(machine.dueWatchers(engineIdle: false) == [])
        #expect(machine.dueWatchers(engineIdle: true) == [12])
        #expect(machine.registrations == [1])
        #expect(machine.isWaiting(1))
        // A cancelled watcher leaves the table once.
        #expect(machine.watch(.consumed(through: Self.t(9)), id: 13, watcher: 13, engineIdle: true) == .wait)
        #expect(machine.watcherCancelled(13) == 13)
        #expect(machine.watcherCancelled(13) == nil)
        #expect(machine.watch(.consumed(through: Self.t(0.5)), id: 14, watcher: 14, engineIdle: true) == .resume(14))
    }

    // MARK: each rule, broken, changes what the machine does

    /// The mutation check breaks rules by giving the machine other rules: each broken rule must
    /// change the actions of the case that shows the documented one.
    @Test func eachBrokenRuleChangesTheOutcome() {
        var overlapping = Self.machine(breaking: \.rejectsOverlappingInput)
        _ = overlapping.startInput()
        _ = overlapping.admit(generation: 1, start: .zero, duration: Self.t(3))
        #expect(overlapping.admit(generation: 1, start: Self.t(2.5), duration: Self.t(1)) == .analyze(Self.range(3, 4)))

        var ending = Self.machine(breaking: \.inputEndKeepsSessionOpen)
        _ = ending.startInput()
        #expect(ending.inputEnded(generation: 1) == DueWork(ending: Machine.Ending(failure: nil, resumes: [])))
        #expect(ending.isFinished)

        var replaced = Self.machine(breaking: \.onlyCurrentInputEnds)
        _ = replaced.startInput()
        _ = replaced.consumed(Self.range(0, 1), modulesFinalized: [])
        _ = replaced.startInput()
        _ = replaced.requestFinishAtEndOfInput(id: 1, waiter: 1)
        #expect(replaced.inputEnded(generation: 1) == DueWork(finalize: Self.t(1)))

        var failing = Self.machine(breaking: \.errorReachesEveryWaiter)
        _ = failing.startInput()
        _ = failing.requestFinalize(through: Self.t(5), id: 1, waiter: 1)
        _ = failing.requestFinish(after: Self.t(5), id: 2, waiter: 2)
        #expect(
            failing.fail(Self.failure.error)
                == Machine.Ending(
                    failure: Self.failure, resumes: [Self.resume(1, .failed(Self.failure)), Self.resume(2, .success)]))

        var backwards = Self.machine(breaking: \.volatileStartOnlyMovesForward)
        _ = backwards.startInput()
        _ = backwards.consumed(Self.range(0, 2), modulesFinalized: [])
        #expect(
            backwards.finalizeCompleted(through: Self.t(1.5))
                == DueWork(reports: [
                    Self.report(0, 2, start: true, end: false), Self.report(1.5, 2, start: true, end: false),
                ]))

        var anyFormat = Self.machine(breaking: \.rejectsUnacceptedFormats)
        _ = anyFormat.startInput()
        let rejected = Machine.FormatMatch.rejected(got: "8 kHz", accepted: "16 kHz")
        #expect(
            anyFormat.admit(generation: 1, start: nil, duration: Self.t(1), format: rejected)
                == .analyze(Self.range(0, 1)))

        #expect(
            Self.machine(breaking: \.analyzeReturnsLastBufferEnd).readOn(after: Self.range(1, 2))
                == .readOn(lastEnd: Self.t(1)))

        #expect(!Self.machine(breaking: \.enforcesResourceLimit).checksResourceLimit(optionsIgnoreLimits: false))

        var twoHandlers = Self.machine(breaking: \.replacesVolatileHandler)
        twoHandlers.setVolatileHandler("old")
        twoHandlers.setVolatileHandler("new")
        _ = twoHandlers.startInput()
        #expect(
            twoHandlers.consumed(Self.range(0, 1), modulesFinalized: [])
                == DueWork(reports: [Self.report(0, 1, start: true, end: true, to: ["old", "new"])]))

        var cancelling = Self.machine(breaking: \.cancellingAWaiterCancelsOnlyIt)
        _ = cancelling.startInput()
        _ = cancelling.requestFinalize(through: Self.t(5), id: 1, waiter: 1)
        _ = cancelling.requestFinalize(through: Self.t(6), id: 2, waiter: 2)
        #expect(
            cancelling.waiterCancelled(1)
                == .resumeAndEnd(
                    Self.resume(1, .cancelled), Machine.Ending(failure: nil, resumes: [Self.resume(2, .cancelled)])))
    }

    // MARK: the rules the actor asks about

    @Test func aBufferNoModuleAcceptsIsUnexpectedAudioFormat() {
        var machine = Machine()
        let input = machine.startInput()
        let rejected = Machine.FormatMatch.rejected(got: "8 kHz mono", accepted: "16 kHz mono")
        guard
            case .fail(let ending) = machine.admit(generation: input, start: nil, duration: Self.t(1), format: rejected)
        else {
            Issue.record("a buffer in a rejected format was admitted")
            return
        }
        let error = ending.failure?.error as? SFSpeechError
        #expect(error?.code == .unexpectedAudioFormat)
        #expect(error?.message == "got 8 kHz mono, modules accept 16 kHz mono")
        #expect(machine.admittedEnd == nil)
    }

    @Test func theResourceLimitHoldsUnlessTheOptionsWaiveIt() {
        #expect(Machine().checksResourceLimit(optionsIgnoreLimits: false))
        #expect(!Machine().checksResourceLimit(optionsIgnoreLimits: true))
    }
}
