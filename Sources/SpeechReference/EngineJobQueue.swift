/// The analyzer executor's own small machine: engine work runs one job at a time, in the order it
/// arrived, so that engines never see overlapping calls. The state carries the queue only while a
/// job runs; when idle there is nothing queued. The actor owns the tasks; this decides.
struct EngineJobQueue<Job> {
    enum State {
        /// No engine work runs or waits.
        case idle
        /// A job runs; `waiting` run after it, first to last.
        case running(waiting: [Job])
    }

    /// What a job that arrives needs from the executor.
    enum Arrival: Equatable {
        /// Nothing ran: the executor starts a runner for it.
        case startRunner
        /// It waits behind the running job; the runner reaches it.
        case queued
    }

    private(set) var state: State = .idle

    /// Whether engine work runs or waits (watchers that wait for quiet engines ask).
    var isIdle: Bool {
        if case .idle = state { return true }
        return false
    }

    /// Work the caller can run in place, as the first job: true when the queue was idle (it now
    /// runs, and the caller then takes the next jobs); false when it must be queued.
    mutating func startInPlace() -> Bool {
        guard case .idle = state else { return false }
        state = .running(waiting: [])
        return true
    }

    /// Queues `job` behind whatever runs.
    mutating func enqueue(_ job: Job) -> Arrival {
        switch state {
        case .idle:
            state = .running(waiting: [job])
            return .startRunner
        case .running(var waiting):
            waiting.append(job)
            state = .running(waiting: waiting)
            return .queued
        }
    }

    /// The job that ran has ended: the next to run, or nil when the queue is idle again.
    mutating func next() -> Job? {
        guard case .running(var waiting) = state else { return nil }
        guard !waiting.isEmpty else {
            state = .idle
            return nil
        }
        let job = waiting.removeFirst()
        state = .running(waiting: waiting)
        return job
    }
}
