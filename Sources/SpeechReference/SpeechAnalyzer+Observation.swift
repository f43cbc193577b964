import CoreMedia
import SpeechCore

// What a harness may ask an analyzer, beyond Apple's API (`@_spi(Harness) import SpeechReference`):
// how many calls wait, and when the session has reached a point, without sleeping to find out.

/// The analyzer's record of what harness tasks watch for, and of the events they watch.
struct AnalyzerObservation {
    /// What a harness task waits for.
    enum Watch {
        case registered(after: Int)
        case consumed(through: MediaTime)
        case settled(inputsEnded: [Int])
    }

    /// Waiter ids in the order their calls registered.
    private(set) var registrations: [Int] = []
    /// Input sequences whose reader has stopped: at their end, replaced, or with the session.
    private(set) var readersStopped: Set<Int> = []
    fileprivate var watchers: [Int: (watch: Watch, continuation: CheckedContinuation<Void, Never>)] = [:]
    fileprivate var nextWatcher = 0

    mutating func registered(_ waiter: Int) { registrations.append(waiter) }
    mutating func readerStopped(_ generation: Int) { readersStopped.insert(generation) }
}

extension SpeechAnalyzer {
    /// Callers waiting on the session now.
    @_spi(Harness) public var pendingWaiterCount: Int { waiting.count }
    /// How many waiting calls have registered so far (monotonic).
    @_spi(Harness) public var waitersRegistered: Int { observation.registrations.count }
    /// The current input sequence's number (the first started is 1); a harness keeps it to ask
    /// ``settled(inputsEnded:)`` about that sequence once it has ended it.
    @_spi(Harness) public var inputGeneration: Int { machine.inputGeneration }

    /// Whether the `registration`-th waiting call (counting from 1) is still unanswered.
    @_spi(Harness) public func isWaiting(registration: Int) -> Bool {
        let registrations = observation.registrations
        return registrations.indices.contains(registration - 1) && waiting[registrations[registration - 1]] != nil
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

    /// Wakes the harness tasks whose condition now holds.
    func wakeWatchers() {
        for (id, entry) in observation.watchers where holds(entry.watch) {
            observation.watchers.removeValue(forKey: id)?.continuation.resume()
        }
    }

    private func holds(_ watch: AnalyzerObservation.Watch) -> Bool {
        switch watch {
        case .registered(let count): waitersRegistered > count
        case .consumed(let time): machine.isFinished || (machine.consumedEnd.map { $0 >= time } ?? false)
        case .settled(let generations):
            machine.isFinished || (!hasEngineWork && observation.readersStopped.isSuperset(of: generations))
        }
    }

    private func watch(_ watch: AnalyzerObservation.Watch) async {
        guard !holds(watch), !Task.isCancelled else { return }
        let id = observation.nextWatcher
        observation.nextWatcher += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in observation.watchers[id] = (watch, continuation) }
        } onCancel: {
            Task { await self.releaseWatcher(id) }
        }
    }

    private func releaseWatcher(_ id: Int) {
        observation.watchers.removeValue(forKey: id)?.continuation.resume()
    }
}
