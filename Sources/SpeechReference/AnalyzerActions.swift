import CoreMedia
import SpeechCore

/// What the state machine tells the actor to do: how a waiting call ends, and one action type an
/// event, each listing the resumes and reports to carry out in order.
extension AnalyzerStateMachine {

    /// How a waiting call ends.
    enum Outcome {
        case success
        /// The session finished before the waiter's condition was met.
        case cancelled
        /// The session failed with this error.
        case failed(SessionFailure)
    }

    /// Resume a waiting call.
    struct Resume {
        var waiter: Waiter
        var outcome: Outcome
    }

    /// Call the volatile range handlers.
    struct RangeReport {
        var range: TimeRange
        var changedStart: Bool
        var changedEnd: Bool
        var handlers: [Handler]
    }

    /// The session ends: end the result streams (with the failure, if any), stop reading input,
    /// close the engines and give back their resources; only then resume these waiters, so that
    /// what they waited for is done when they return.
    struct Ending {
        var failure: SessionFailure?
        var resumes: [Resume]
    }

    /// What becomes due after an event, in the order to carry it out: report volatile range
    /// changes, resume the waiters whose condition holds, finalise the modules through a time
    /// (whose completion is the event ``finalizeCompleted(through:)`` or ``finalizeFailed(_:)``),
    /// then end the session.
    struct DueWork {
        var reports: [RangeReport] = []
        var resumes: [Resume] = []
        var finalize: MediaTime?
        var ending: Ending?

        /// Whether any of it needs the engines (it then runs behind engine work already queued).
        var needsEngines: Bool { finalize != nil || ending != nil }
        var isEmpty: Bool { reports.isEmpty && resumes.isEmpty && !needsEngines }

        /// `first`, then `then`. When either ends the session, every resume goes after the end.
        static func + (first: DueWork, then: DueWork) -> DueWork {
            if then.isEmpty { return first }
            if first.isEmpty { return then }
            var sum = first
            sum.reports += then.reports
            sum.resumes += then.resumes
            if let time = then.finalize { sum.finalize = sum.finalize.map { MediaTime.maximum($0, time) } ?? time }
            if let ending = first.ending ?? then.ending {
                let endings = [first.ending, then.ending].compactMap { $0 }
                sum.ending = Ending(failure: ending.failure, resumes: sum.resumes + endings.flatMap(\.resumes))
                sum.resumes = []
            }
            return sum
        }
    }

    /// What to do with a buffer the input sequence yielded.
    enum AdmitAction {
        /// Have the modules analyse it; then report ``consumed(_:modulesFinalized:)``.
        case analyze(TimeRange)
        /// Stop reading this sequence: the session has finished, or another input replaced it.
        case stopReading
        /// The buffer fails the session (its format or time).
        case fail(Ending)
    }

    /// What the reader of an input sequence does once its buffer is analysed.
    enum ReadAction: Equatable {
        /// Read on; `lastEnd` is what `analyzeSequence` returns if the sequence ends here.
        case readOn(lastEnd: MediaTime)
        /// Stop reading: the session failed meanwhile.
        case stopReading
    }

    /// What a call waiting on the session (`finalize`, `finish`, ...) gets at once.
    enum RequestAction {
        /// The call is answered now.
        case resume(Resume)
        /// The call waits; carry this out (it may start a finalise or end the session).
        case wait(DueWork)
    }

    /// What `cancelAnalysis(before:)` does.
    enum CancelAction {
        case none
        /// Tell the modules to drop results before the time, then carry out the rest.
        case cancelModules(before: MediaTime, then: DueWork)
    }

    /// What cancelling a waiting call's task does.
    enum WaiterCancelledAction {
        /// The call was answered already.
        case none
        /// End that call with cancellation.
        case resume(Resume)
        /// End that call, then the session.
        case resumeAndEnd(Resume, Ending)
    }

    /// What a harness task asking to watch for a point of the session gets.
    enum WatchAction {
        /// The point has been reached: resume it now.
        case resume(Watcher)
        case wait
    }

    /// Whether a buffer's format is one every module accepts.
    enum FormatMatch: Equatable {
        case accepted
        case rejected(got: String, accepted: String)
    }

    /// A point of the session a harness task waits for.
    enum Watch {
        /// More than this many calls have registered as waiters.
        case registered(after: Int)
        /// Audio through the time has been consumed.
        case consumed(through: MediaTime)
        /// No engine work is queued or running and the readers of these input sequences have stopped.
        case settled(inputsEnded: [Int])
    }

    enum Phase: Equatable { case active, finished, failed }
}

extension AnalyzerStateMachine.Outcome: Equatable {}
extension AnalyzerStateMachine.Resume: Equatable where Waiter: Equatable {}
extension AnalyzerStateMachine.RangeReport: Equatable where Handler: Equatable {}
extension AnalyzerStateMachine.Ending: Equatable where Waiter: Equatable {}
extension AnalyzerStateMachine.DueWork: Equatable where Waiter: Equatable, Handler: Equatable {}
extension AnalyzerStateMachine.AdmitAction: Equatable where Waiter: Equatable {}
extension AnalyzerStateMachine.RequestAction: Equatable where Waiter: Equatable, Handler: Equatable {}
extension AnalyzerStateMachine.CancelAction: Equatable where Waiter: Equatable, Handler: Equatable {}
extension AnalyzerStateMachine.WaiterCancelledAction: Equatable where Waiter: Equatable {}
extension AnalyzerStateMachine.WatchAction: Equatable where Watcher: Equatable {}
