import Foundation
import SpeechCore

#if canImport(Glibc)
    import Glibc
#endif

/// A worker child process: requests (JSON lines, and binary audio frames in protocol 2) in on
/// stdin, JSON lines out on stdout, a tail of its stderr kept. Reading and writing happen on
/// threads of their own, never on Swift's cooperative pool: a worker that stops reading fills the
/// pipe and blocks only its writer thread, and the caller's timeout still fires.
final class WorkerProcess: @unchecked Sendable {
    static let maximumLine = WorkerFailure.maximumLine
    static let stderrTailBytes = 4096

    enum Event: Sendable {
        case line(String)
        case oversized(Int)
        case closed
    }

    private let process = Process()
    private let stdinPipe = Pipe(), stdoutPipe = Pipe(), stderrPipe = Pipe()
    private let inbox = Locked<(events: [Event], waiter: CheckedContinuation<Event, Never>?)>(([], nil))
    private let tail = Locked<[UInt8]>([])
    /// Signalled when stderr reaches its end, so a failure message can quote all of it.
    private let stderrClosed = DispatchSemaphore(value: 0)
    private let stderrDrained = Locked(false)
    /// Bytes waiting for the writer thread, and whether a write has failed (the worker is gone).
    private let outbox = Locked<(pending: [Data], failed: Bool)>(([], false))
    private let outboxReady = DispatchSemaphore(value: 0)
    /// Called (on the reader thread) when the worker's output ends.
    private let closedHandler = Locked<(@Sendable () -> Void)?>(nil)
    let command: [String]

    init(command: [String], environment: [String: String]) throws {
        self.command = command
        WorkerProcess.ignoreBrokenPipes
        guard let executable = command.first else {
            throw EngineError.failed(engine: "worker", reason: "empty worker command")
        }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(command.dropFirst())
        process.environment = HarnessContext.current.environment.variables.merging(environment) { $1 }
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        do {
            try process.run()
        } catch {
            throw EngineError.failed(
                engine: "worker", reason: "cannot start \(command.joined(separator: " ")): \(error)")
        }
        startReaders()
        startWriter()
    }

    /// SIGPIPE would kill the harness when a worker dies; writes report EPIPE instead.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// The reader threads hold only the inbox, the stderr tail and its semaphore, never `self`:
    /// a worker nobody references any more is deinitialised (and stopped) instead of being kept
    /// alive by its own blocked readers.
    private func startReaders() {
        let out = stdoutPipe.fileHandleForReading.fileDescriptor
        let inbox = self.inbox, tail = self.tail, stderrClosed = self.stderrClosed, closedHandler = self.closedHandler
        @Sendable func deliver(_ event: Event) { WorkerProcess.deliver(event, to: inbox) }
        Thread.detachNewThread {
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            var skipping = false
            while true {
                let count = chunk.withUnsafeMutableBytes { read(out, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                for byte in chunk[0..<count] {
                    if byte == UInt8(ascii: "\n") {
                        if !skipping { deliver(.line(String(decoding: buffer, as: UTF8.self))) }
                        buffer.removeAll(keepingCapacity: true)
                        skipping = false
                    } else if !skipping {
                        buffer.append(byte)
                        if buffer.count > WorkerProcess.maximumLine {
                            deliver(.oversized(buffer.count))
                            buffer = []
                            skipping = true
                        }
                    }
                }
            }
            deliver(.closed)
            closedHandler.withLock { $0 }?()
        }
        let err = stderrPipe.fileHandleForReading.fileDescriptor
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(err, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                tail.withLock { tail in
                    tail.append(contentsOf: chunk[0..<count])
                    if tail.count > WorkerProcess.stderrTailBytes {
                        tail.removeFirst(tail.count - WorkerProcess.stderrTailBytes)
                    }
                }
            }
            stderrClosed.signal()
        }
    }

    private static func deliver(
        _ event: Event, to inbox: Locked<(events: [Event], waiter: CheckedContinuation<Event, Never>?)>
    ) {
        let waiter = inbox.withLock { state -> CheckedContinuation<Event, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.events.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// The next line (or the end of output); cancellation gives `.closed`.
    func nextEvent() async -> Event {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
                let ready = inbox.withLock { state -> Event? in
                    if !state.events.isEmpty { return state.events.removeFirst() }
                    if Task.isCancelled { return .closed }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = inbox.withLock { state -> CheckedContinuation<Event, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: .closed)
        }
    }

    /// Queues bytes for the worker; fails once an earlier write has failed (the worker is gone).
    func send(_ data: Data) throws {
        let failed = outbox.withLock { box -> Bool in
            if !box.failed { box.pending.append(data) }
            return box.failed
        }
        if failed { throw EngineError.failed(engine: "worker", reason: "cannot write to the worker") }
        outboxReady.signal()
    }

    /// Whether a write to the worker has failed.
    var writeFailed: Bool { outbox.withLock { $0.failed } }

    /// The writer thread holds the outbox, never `self` (see `startReaders`).
    private func startWriter() {
        let fd = stdinPipe.fileHandleForWriting.fileDescriptor
        let outbox = self.outbox, ready = outboxReady
        Thread.detachNewThread {
            while true {
                ready.wait()
                guard
                    let data = outbox.withLock({ box -> Data? in box.pending.isEmpty ? nil : box.pending.removeFirst() }
                    )
                else {
                    if outbox.withLock({ $0.failed }) { return }
                    continue
                }
                var written = 0
                let ok = data.withUnsafeBytes { raw -> Bool in
                    while written < raw.count {
                        let n = write(fd, raw.baseAddress! + written, raw.count - written)
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { return false }
                        written += n
                    }
                    return true
                }
                if !ok {
                    outbox.withLock { $0 = ([], true) }
                    return
                }
            }
        }
    }

    /// Calls `handler` once the worker's output ends (it exited or closed stdout).
    func onOutputClosed(_ handler: @escaping @Sendable () -> Void) {
        closedHandler.withLock { $0 = handler }
    }

    /// Events already received, without waiting.
    func receivedEvents() -> [Event] {
        inbox.withLock { state in
            defer { state.events.removeAll() }
            return state.events
        }
    }

    /// The worker's peak resident memory so far (VmHWM), bytes; nil once it has exited.
    var peakResidentBytes: Int? { status("VmHWM:") }

    /// The worker's resident memory now (VmRSS), bytes; nil once it has exited.
    var residentBytes: Int? { status("VmRSS:") }

    /// A size field of `/proc/PID/status` (kB there), in bytes.
    private func status(_ field: String) -> Int? {
        guard process.isRunning,
            let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({
                Int($0)
            })
        else { return nil }
        return kilobytes * 1024
    }

    var stderrTail: String {
        String(decoding: tail.withLock { $0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var isRunning: Bool { process.isRunning }

    /// How the process ended; nil while it runs.
    var exit: WorkerFailure.Exit? {
        guard !process.isRunning else { return nil }
        return process.terminationReason == .uncaughtSignal
            ? .signal(process.terminationStatus) : .status(process.terminationStatus)
    }

    /// Stops the worker (off the cooperative pool) and returns once it is gone.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.terminate()
                continuation.resume()
            }
        }
    }

    /// Stops the worker: SIGTERM, then SIGKILL if it is still there shortly after.
    func terminate() {
        Self.stop(process)
        closeWriter()
        waitForStderr()
    }

    /// Lets the writer thread end (it holds no reference to the process).
    private func closeWriter() {
        outbox.withLock { $0 = ([], true) }
        outboxReady.signal()
    }

    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        for _ in 0..<50 where process.isRunning { usleep(10_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits (briefly) until everything the worker wrote to stderr has been read.
    private func waitForStderr() {
        guard !stderrDrained.withLock({ $0 }) else { return }
        if stderrClosed.wait(timeout: .now() + 1) == .success { stderrDrained.withLock { $0 = true } }
    }

    /// A worker dropped without `stop()` is stopped off the caller's thread (deinit may run on the
    /// cooperative pool, which must not wait for a process).
    deinit {
        let process = self.process
        closeWriter()
        if process.isRunning { DispatchQueue.global().async { WorkerProcess.stop(process) } }
    }
}
