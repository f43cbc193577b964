/// Something that happens once (a call ended, a stream closed) that any number of tasks can wait
/// for; a waiting task that is cancelled stops waiting.
public final class OneShot: Sendable {
    private struct State {
        var fired = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var next = 0
    }
    private let state = Locked(State())

    public init() {}

    public var hasFired: Bool { state.withLock { $0.fired } }

    public func fire() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard !s.fired else { return [] }
            s.fired = true
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once fired, or once the calling task is cancelled.
    public func wait() async {
        let id = state.withLock { s -> Int in
            s.next += 1
            return s.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { s -> Bool in
                    if s.fired || Task.isCancelled { return true }
                    s.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
