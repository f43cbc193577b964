import SpeechCore
import Testing

@testable import SpeechReference

/// The session rules as a table: events in, actions out, one documented clause per test. The
/// analyzer actor only carries these actions out, so its behaviour follows from them.
@Suite("Analyzer state machine")
struct AnalyzerStateMachineTests {
    typealias Machine = AnalyzerStateMachine

    static func t(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, preferredTimescale: 16_000) }
    static func range(_ start: Double, _ end: Double) -> TimeRange { TimeRange(start: t(start), end: t(end)) }

    /// A session that has consumed audio from 0 to `seconds`, in one piece, with nothing final.
    static func consuming(_ seconds: Double) -> Machine {
        var machine = Machine()
        _ = machine.startInput()
        _ = try! machine.admit(start: .zero, duration: t(seconds))
        _ = machine.consumed(range(0, seconds), modulesFinalized: nil)
        return machine
    }

    // MARK: input

    @Test func inputIsAdmittedInTimeOrderAndMayLeaveGaps() throws {
        var machine = Machine()
        #expect(try machine.admit(start: nil, duration: Self.t(1)) == Self.range(0, 1))
        // A later start skips audio; an earlier one is disordered.
        #expect(try machine.admit(start: Self.t(2), duration: Self.t(1)) == Self.range(2, 3))
        #expect(throws: SFSpeechError.self) { try machine.admit(start: Self.t(2.5), duration: Self.t(1)) }
        #expect(throws: SFSpeechError.self) { try machine.admit(start: Self.t(4), duration: Self.t(-1)) }
        #expect(machine.admittedEnd == Self.t(3))
        // A finished session takes no more input, without an error.
        _ = machine.cancelAndFinish()
        #expect(try machine.admit(start: nil, duration: Self.t(1)) == nil)
    }

    // MARK: volatile range

    @Test func theVolatileRangeRunsFromTheFinalisedTimeToTheConsumedEndAndNeverMovesBack() {
        var machine = Machine()
        #expect(machine.volatileRange == nil)
        _ = machine.startInput()
        #expect(
            machine.consumed(Self.range(0, 1), modulesFinalized: nil)
                == [.volatileRangeChanged(Self.range(0, 1), changedStart: true, changedEnd: true)])
        #expect(
            machine.consumed(Self.range(1, 2), modulesFinalized: nil)
                == [.volatileRangeChanged(Self.range(0, 2), changedStart: false, changedEnd: true)])
        #expect(
            machine.finalizeCompleted(through: Self.t(1.5))
                == [.volatileRangeChanged(Self.range(1.5, 2), changedStart: true, changedEnd: false)])
        // Cancelling before a time already final changes nothing but the modules' work.
        #expect(machine.cancel(before: Self.t(1)) == [.cancelModules(before: Self.t(1))])
        #expect(machine.volatileRange == Self.range(1.5, 2))
        // Modules that finalise on their own move the start with the end.
        #expect(
            machine.consumed(Self.range(2, 3), modulesFinalized: Self.t(2.5))
                == [.volatileRangeChanged(Self.range(2.5, 3), changedStart: true, changedEnd: true)])
    }

    // MARK: finalize(through:)

    @Test func finalizeWaitsUntilItsTimeIsConsumed() {
        var machine = Machine()
        _ = machine.startInput()
        let (id, now) = machine.requestFinalize(through: Self.t(2))
        #expect(now.isEmpty)
        #expect(
            machine.consumed(Self.range(0, 1), modulesFinalized: nil) == [
                .volatileRangeChanged(Self.range(0, 1), changedStart: true, changedEnd: true)
            ])
        #expect(
            machine.consumed(Self.range(1, 2), modulesFinalized: nil)
                == [
                    .volatileRangeChanged(Self.range(0, 2), changedStart: false, changedEnd: true),
                    .finalize(through: Self.t(2), waiters: [id]),
                ])
        #expect(
            machine.finalizeCompleted(through: Self.t(2))
                == [
                    .volatileRangeChanged(Self.range(2, 2), changedStart: true, changedEnd: false),
                    .resume(id, .success),
                ])
        #expect(machine.pendingWaiters == 0)
    }

    @Test func finalizeOfATimeAlreadyFinalOrOfNothingReturnsAtOnce() {
        var machine = Self.consuming(2)
        _ = machine.finalizeCompleted(through: Self.t(1.5))
        let (early, earlyActions) = machine.requestFinalize(through: Self.t(1))
        #expect(earlyActions == [.resume(early, .success)])
        // nil means what has been consumed.
        let (consumed, consumedActions) = machine.requestFinalize(through: nil)
        #expect(consumedActions == [.finalize(through: Self.t(2), waiters: [consumed])])
        var fresh = Machine()
        let (nothing, nothingActions) = fresh.requestFinalize(through: nil)
        #expect(nothingActions == [.resume(nothing, .success)])
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
        let (id, now) = machine.requestFinishAtEndOfInput()
        #expect(now.isEmpty)
        #expect(machine.inputEnded(generation: 1) == [.finalize(through: Self.t(1), waiters: [id])])
        #expect(
            machine.finalizeCompleted(through: Self.t(1))
                == [
                    .volatileRangeChanged(Self.range(1, 1), changedStart: true, changedEnd: false),
                    .resume(id, .success), .finishSession,
                ])
        #expect(machine.phase == .finished)
    }

    @Test func onlyTheCurrentInputSequenceEndsTheInput() {
        var machine = Self.consuming(1)
        let first = machine.inputGeneration
        let second = machine.startInput()
        let (id, _) = machine.requestFinishAtEndOfInput()
        #expect(machine.inputEnded(generation: first).isEmpty)
        #expect(machine.inputEnded(generation: second) == [.finalize(through: Self.t(1), waiters: [id])])
    }

    // MARK: finish(after:)

    @Test func finishAfterATimeFinishesOnceThatAudioIsConsumed() {
        var machine = Machine()
        _ = machine.startInput()
        let (id, now) = machine.requestFinish(after: Self.t(1))
        #expect(now.isEmpty)
        #expect(
            machine.consumed(Self.range(0, 1), modulesFinalized: nil)
                == [
                    .volatileRangeChanged(Self.range(0, 1), changedStart: true, changedEnd: true),
                    .resume(id, .success), .finishSession,
                ])
        // After finishing: a time that was consumed succeeds, a later one is cancelled.
        let (consumed, consumedActions) = machine.requestFinish(after: Self.t(0.5))
        #expect(consumedActions == [.resume(consumed, .success)])
        let (late, lateActions) = machine.requestFinish(after: Self.t(5))
        #expect(lateActions == [.resume(late, .cancelled)])
    }

    // MARK: finishing resumes every waiter once

    @Test func cancelAndFinishNowCancelsWhatIsPending() {
        var machine = Self.consuming(1)
        let (pending, _) = machine.requestFinalize(through: Self.t(5))
        let (end, _) = machine.requestFinishAtEndOfInput()
        #expect(
            machine.cancelAndFinish()
                == Machine.Ending(answers: [.resume(pending, .cancelled), .resume(end, .cancelled)]))
        #expect(machine.phase == .finished)
        // Finishing happens once.
        #expect(machine.cancelAndFinish() == nil)
        #expect(machine.fail() == nil)
    }

    @Test func anErrorFailsEveryWaiterAndEveryLaterRequest() {
        var machine = Self.consuming(1)
        let (a, _) = machine.requestFinalize(through: Self.t(5))
        let (b, _) = machine.requestFinish(after: Self.t(9))
        #expect(machine.fail() == Machine.Ending(answers: [.resume(a, .failed), .resume(b, .failed)]))
        #expect(machine.phase == .failed)
        let (c, actions) = machine.requestFinalize(through: Self.t(0.5))
        #expect(actions == [.resume(c, .failed)])
        let (e, endActions) = machine.requestFinishAtEndOfInput()
        #expect(endActions == [.resume(e, .failed)])
        // A finalise that cannot be carried out while active is such an error.
        var other = Self.consuming(1)
        let (d, _) = other.requestFinalize(through: Self.t(1))
        #expect(other.finalizeFailed() == [.resume(d, .failed), .finishSession])
    }

    @Test func aFinaliseUnderWayCompletesBeforeANormalFinishAnswersIt() {
        var machine = Self.consuming(2)
        let (finalize, started) = machine.requestFinalize(through: Self.t(2))
        #expect(started == [.finalize(through: Self.t(2), waiters: [finalize])])
        let (finish, finishing) = machine.requestFinish(after: Self.t(1))
        // The finish resolves; the finalise stays pending until its work completes.
        #expect(finishing == [.resume(finish, .success), .finishSession])
        #expect(machine.finalizeCompleted(through: Self.t(2)) == [.resume(finalize, .success)])
    }

    // MARK: each rule, broken, changes what the machine does

    /// The mutation check breaks rules by giving the machine other rules: each broken rule must
    /// change the actions of the case that shows the documented one.
    @Test func eachBrokenRuleChangesTheOutcome() throws {
        var rules = Machine.Rules.documented
        rules.rejectsOverlappingInput = false
        var overlapping = Machine(rules: rules)
        _ = try overlapping.admit(start: .zero, duration: Self.t(3))
        #expect(try overlapping.admit(start: Self.t(2.5), duration: Self.t(1)) == Self.range(3, 4))

        rules = .documented
        rules.inputEndKeepsSessionOpen = false
        var ending = Machine(rules: rules)
        _ = ending.startInput()
        #expect(ending.inputEnded(generation: 1) == [.finishSession])
        #expect(ending.isFinished)

        rules = .documented
        rules.onlyCurrentInputEnds = false
        var replaced = Machine(rules: rules)
        _ = replaced.startInput()
        _ = replaced.consumed(Self.range(0, 1), modulesFinalized: nil)
        _ = replaced.startInput()
        let (id, _) = replaced.requestFinishAtEndOfInput()
        #expect(replaced.inputEnded(generation: 1) == [.finalize(through: Self.t(1), waiters: [id])])

        rules = .documented
        rules.errorReachesEveryWaiter = false
        var failing = Machine(rules: rules)
        _ = failing.startInput()
        let (a, _) = failing.requestFinalize(through: Self.t(5))
        let (b, _) = failing.requestFinish(after: Self.t(5))
        #expect(failing.fail() == Machine.Ending(answers: [.resume(a, .failed), .resume(b, .success)]))

        rules = .documented
        rules.volatileStartOnlyMovesForward = false
        var backwards = Machine(rules: rules)
        _ = backwards.startInput()
        _ = backwards.consumed(Self.range(0, 2), modulesFinalized: nil)
        #expect(
            backwards.finalizeCompleted(through: Self.t(1.5))
                == [
                    .volatileRangeChanged(Self.range(0, 2), changedStart: true, changedEnd: false),
                    .volatileRangeChanged(Self.range(1.5, 2), changedStart: true, changedEnd: false),
                ])

        rules = .documented
        rules.rejectsUnacceptedFormats = false
        var anyFormat = Machine(rules: rules)
        let rejected = Machine.FormatMatch.rejected(got: "8 kHz", accepted: "16 kHz")
        #expect(try anyFormat.admit(start: nil, duration: Self.t(1), format: rejected) == Self.range(0, 1))

        rules = .documented
        rules.analyzeReturnsLastBufferEnd = false
        #expect(Machine(rules: rules).reportedEnd(ofLastBuffer: Self.range(1, 2)) == Self.t(1))

        rules = .documented
        rules.enforcesResourceLimit = false
        #expect(!Machine(rules: rules).checksResourceLimit(optionsIgnoreLimits: false))

        rules = .documented
        rules.replacesVolatileHandler = false
        #expect(Machine(rules: rules).handlerChange() == .callBoth)

        rules = .documented
        rules.cancellingAWaiterCancelsOnlyIt = false
        var cancelling = Machine(rules: rules)
        _ = cancelling.startInput()
        let (first, _) = cancelling.requestFinalize(through: Self.t(5))
        let (second, _) = cancelling.requestFinalize(through: Self.t(6))
        #expect(
            cancelling.waiterCancelled(first)
                == .end(.resume(first, .cancelled), Machine.Ending(answers: [.resume(second, .cancelled)])))
    }

    // MARK: the rules the actor asks about

    @Test func aBufferNoModuleAcceptsIsUnexpectedAudioFormat() throws {
        var machine = Machine()
        let rejected = Machine.FormatMatch.rejected(got: "8 kHz mono", accepted: "16 kHz mono")
        #expect {
            try machine.admit(start: nil, duration: Self.t(1), format: rejected)
        } throws: { error in
            let speechError = error as? SFSpeechError
            return speechError?.code == .unexpectedAudioFormat
                && speechError?.message == "got 8 kHz mono, modules accept 16 kHz mono"
        }
        #expect(machine.admittedEnd == nil)
        #expect(try machine.admit(start: nil, duration: Self.t(1), format: .accepted) == Self.range(0, 1))
    }

    @Test func analyzeSequenceReportsTheEndOfItsLastBuffer() {
        #expect(Machine().reportedEnd(ofLastBuffer: Self.range(1, 2)) == Self.t(2))
    }

    @Test func theResourceLimitHoldsUnlessTheOptionsWaiveIt() {
        #expect(Machine().checksResourceLimit(optionsIgnoreLimits: false))
        #expect(!Machine().checksResourceLimit(optionsIgnoreLimits: true))
    }

    @Test func aNewVolatileRangeHandlerReplacesTheOld() {
        #expect(Machine().handlerChange() == .replace)
    }

    @Test func cancellingOneWaiterEndsOnlyThatCall() {
        var machine = Self.consuming(1)
        let (first, _) = machine.requestFinalize(through: Self.t(5))
        let (second, _) = machine.requestFinalize(through: Self.t(6))
        #expect(machine.waiterCancelled(first) == .answer(.resume(first, .cancelled)))
        #expect(machine.pendingWaiters == 1)
        #expect(!machine.isFinished)
        // The other waiter is still answered by what it waits for.
        #expect(machine.cancelAndFinish() == Machine.Ending(answers: [.resume(second, .cancelled)]))
    }
}
