import CoreMedia
import SpeechCore

// What a harness may ask an analyzer, beyond Apple's API (`@_spi(Harness) import Speech`): how
// many calls wait, and when the session has reached a point, without sleeping to find out. The
// watching tasks wait in the state machine, beside the calls they watch.

extension SpeechAnalyzer {
    /// Callers waiting on the session now.
    @_spi(Harness) public var pendingWaiterCount: Int { machine.pendingWaiters }
    /// How many waiting calls have registered so far (monotonic).
    @_spi(Harness) public var waitersRegistered: Int { machine.registrations.count }
    /// The current input sequence's number (the first started is 1); a harness keeps it to ask
    /// ``settled(inputsEnded:)`` about that sequence once it has ended it.
    @_spi(Harness) public var inputGeneration: Int { machine.inputGeneration }

    /// Whether the `registration`-th waiting call (counting from 1) is still unanswered.
    @_spi(Harness) public func isWaiting(registration: Int) -> Bool {
        let registrations = machine.registrations
        return registrations.indices.contains(registration - 1) && machine.isWaiting(registrations[registration - 1])
    }

    /// Returns once more than `count` waiting calls have registered, or when the calling task is
    /// cancelled: how a harness knows that a call it started is waiting before its next step.
    @_spi(Harness) public func waiterRegistered(after count: Int) async {
        await watch(.registered(after: count))
    }

    /// Returns once audio through `time` has been consumed (its results published), once the
    /// session has finished, or when the calling task is cancelled.
    @_spi(Harness) public func consumed(through time: CMTime) async {
        await watch(.consumed(through: time))
    }

    /// Returns once the analyzer has nothing left to do on its own: no engine work queued or
    /// running, and the readers of the listed input sequences (ended by the caller) have reached
    /// their end. Also returns when the session has finished, or the calling task is cancelled.
    /// What a waiting call looks like then is what it will stay until the caller acts again.
    @_spi(Harness) public func settled(inputsEnded generations: [Int]) async {
        await watch(.settled(inputsEnded: generations))
    }
}
