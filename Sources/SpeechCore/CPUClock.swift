#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CPU time, as opposed to wall time: what an engine spent computing, whatever else the machine
/// was doing. Benchmarks measure compute with it so that waiting for a core, a lock or another
/// session never counts as the engine's work.
public enum CPUClock {
    /// Seconds of CPU the calling thread has used. Valid only for differences taken on one
    /// thread (a synchronous stretch of code: a C call on a serial queue, a locked computation).
    public static var thread: Double { read(CLOCK_THREAD_CPUTIME_ID) }

    /// Seconds of CPU the whole process has used, all threads together.
    public static var process: Double { read(CLOCK_PROCESS_CPUTIME_ID) }

    /// CPU seconds `body` took on the calling thread, with its result.
    @inlinable
    public static func measure<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (T, seconds: Double) {
        let start = thread
        let value = try body()
        return (value, thread - start)
    }

    @usableFromInline
    static func read(_ clock: clockid_t) -> Double {
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
