#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An OS thread of its own, outside Swift's cooperative pool, that runs one task's work at a time.
///
/// A task that prefers it (`Task(executorPreference:)`) runs its nonisolated code and its default
/// actors here, and an engine session may make its blocking C calls in place here (``mayBlock``)
/// rather than hand them to its queue and wait to be woken: on a 2-core machine such a hand-off
/// and the wake-up after it cost about 0.1 ms, a measurable share of a short clip's decode. The
/// benchmark drives each utterance from one (``take()``); code that does not ask never sees one.
public final class EngineThread: TaskExecutor, @unchecked Sendable {
    /// The engine thread the current task's work prefers, bound by whoever set the preference, so
    /// that unstructured tasks the work starts (an analyzer's job queue) can prefer it too.
    /// Where work runs, not configuration, so it is not part of `HarnessContext`.
    @TaskLocal public static var current: EngineThread?

    /// Whether the calling thread is an engine thread, where a blocking call holds up no one else.
    public static var mayBlock: Bool { pthread_getspecific(marker) != nil }

    /// An idle engine thread, started if none is.
    public static func take() -> EngineThread {
        idle.withLock { $0.popLast() } ?? EngineThread()
    }

    /// Makes the thread available to ``take()`` again. Only for a thread whose work has ended: one
    /// left blocked in a call (an utterance that timed out) is never given back.
    public func giveBack() {
        Self.idle.withLock { $0.append(self) }
    }

    private static let idle = Locked<[EngineThread]>([])

    private static let marker: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var jobs: [UnownedJob] = []

    private init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        var thread = pthread_t()
        // The thread keeps its executor for as long as it runs, which is as long as the process.
        let created = pthread_create(
            &thread, nil,
            { argument in
                let executor = Unmanaged<EngineThread>.fromOpaque(argument!).takeRetainedValue()
                pthread_setspecific(EngineThread.marker, argument)
                executor.run()
            }, Unmanaged.passRetained(self).toOpaque())
        precondition(created == 0, "cannot start an engine thread (error \(created))")
        pthread_detach(thread)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    private func run() -> Never {
        let unowned = asUnownedTaskExecutor()
        var batch: [UnownedJob] = []
        while true {
            pthread_mutex_lock(mutex)
            while jobs.isEmpty { pthread_cond_wait(condition, mutex) }
            swap(&batch, &jobs)
            pthread_mutex_unlock(mutex)
            for job in batch { job.runSynchronously(on: unowned) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
