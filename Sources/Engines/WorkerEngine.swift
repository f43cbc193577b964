import Foundation
import SpeechCore

/// A reply from a worker (see WorkerProtocol.md); fields depend on `type`.
struct WorkerReply: Decodable, Sendable {
    struct Word: Decodable, Sendable { var text: String; var start: Double; var end: Double; var confidence: Double? }
    struct Segment: Decodable, Sendable { var start: Double; var end: Double; var words: [Word]; var alternatives: [[String]]? }

    var type: String
    var session: Int?
    var message: String?
    var finalized: [Segment]?
    var volatile: Segment?
    var finalizedThrough: Double?
    var computeSeconds: Double?
    var engine: String?
    var locales: [String]?
    var sampleRate: Double?
    var loadSeconds: Double?
}

/// An engine in another process speaking the worker protocol. One worker process serves all the
/// engine's sessions, one request at a time; a worker that fails is stopped and the next session
/// starts a new one.
public struct WorkerEngine: RecognitionEngine {
    public let id: String
    public let capabilities: EngineCapabilities
    let connection: WorkerConnection

    /// - Parameters:
    ///   - command: the program and its arguments.
    ///   - capabilities: what the worker declares (checked against its handshake).
    ///   - callTimeout: how long one request may take before the worker is considered hung.
    ///   - clock: measures the timeout (a virtual clock in tests).
    public init(id: String, command: [String], environment: [String: String] = [:], capabilities: EngineCapabilities,
                callTimeout: Duration = .seconds(30), clock: any Clock<Duration> = ContinuousClock()) {
        self.id = id
        self.capabilities = capabilities
        connection = WorkerConnection(id: id, command: command, environment: environment, timeout: callTimeout, clock: clock)
    }

    public func isInstalled(locale: String) -> Bool {
        supports(locale: locale) && connection.commandExists
    }

    public func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        guard supports(locale: configuration.locale) else { throw EngineError.unsupportedLocale(engine: id, locale: configuration.locale) }
        let session = try await connection.startSession(configuration)
        return WorkerSession(connection: connection, session: session)
    }

    /// Seconds the current worker took to load its model (from its handshake).
    public var loadSeconds: Double? { get async { await connection.loadSeconds } }

    /// Stops the worker process, if running.
    public func shutdown() async { await connection.shutdown() }
}

/// The harness side of one worker process: handshake, one request at a time, timeouts, failure.
actor WorkerConnection {
    let id: String
    let command: [String]
    let environment: [String: String]
    let timeout: Duration
    let clock: any Clock<Duration>
    private var process: WorkerProcess?
    private var nextSession = 0
    private var busy = false
    private var queue: [CheckedContinuation<Void, Never>] = []
    private(set) var loadSeconds: Double?

    init(id: String, command: [String], environment: [String: String], timeout: Duration, clock: any Clock<Duration>) {
        self.id = id
        self.command = command
        self.environment = environment
        self.timeout = timeout
        self.clock = clock
    }

    nonisolated var commandExists: Bool {
        guard let first = command.first else { return false }
        return FileManager.default.isExecutableFile(atPath: first)
            && command.dropFirst().allSatisfy { !$0.hasSuffix(".py") || FileManager.default.fileExists(atPath: $0) }
    }

    func startSession(_ configuration: EngineSessionConfiguration) async throws -> Int {
        nextSession += 1
        let session = nextSession
        let request: [String: Any] = ["type": "start", "session": session, "locale": configuration.locale,
                                      "partials": configuration.reportsPartialResults,
                                      "alternatives": configuration.maximumAlternatives,
                                      "contextualStrings": configuration.contextualStrings]
        _ = try await call(request, expecting: "started")
        return session
    }

    /// Sends one request and waits for its reply, restarting the worker first if needed.
    func call(_ request: [String: Any], expecting type: String) async throws -> WorkerReply {
        await acquire()
        defer { release() }
        let worker = try await running()
        return try await exchange(worker, request, expecting: type)
    }

    private func running() async throws -> WorkerProcess {
        if let process, process.isRunning { return process }
        let worker = try WorkerProcess(command: command, environment: environment)
        process = worker
        let ready = try await exchange(worker, ["type": "hello", "protocol": 1], expecting: "ready")
        loadSeconds = ready.loadSeconds
        return worker
    }

    private func exchange(_ worker: WorkerProcess, _ request: [String: Any], expecting type: String) async throws -> WorkerReply {
        let line = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        do {
            try worker.send(line)
        } catch {
            throw await fail(worker, "the worker is not reading (\(worker.exitDescription))")
        }
        let event = await nextEvent(worker)
        switch event {
        case nil:
            throw await fail(worker, "no reply within \(timeout)")
        case .closed?:
            // Give the reaper a moment to record the exit status for the message.
            throw await fail(worker, "the worker stopped (\(worker.exitDescription))")
        case .oversized(let bytes)?:
            throw await fail(worker, "a reply line over \(WorkerProcess.maximumLine) bytes (\(bytes)+)")
        case .line(let text)?:
            guard let reply = try? JSONDecoder().decode(WorkerReply.self, from: Data(text.utf8)) else {
                throw await fail(worker, "malformed reply: \(text.prefix(200))")
            }
            if reply.type == "error" {
                throw EngineError.failed(engine: id, reason: "worker error: \(reply.message ?? "no message")")
            }
            guard reply.type == type else {
                throw await fail(worker, "expected a '\(type)' reply, got '\(reply.type)'")
            }
            return reply
        }
    }

    /// The next event, or nil when the timeout passes first.
    private func nextEvent(_ worker: WorkerProcess) async -> WorkerProcess.Event? {
        let clock = self.clock, timeout = self.timeout
        return await withTaskGroup(of: WorkerProcess.Event?.self) { group in
            group.addTask { await worker.nextEvent() }
            group.addTask {
                try? await clock.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Stops a misbehaving worker and describes what happened, with its stderr tail.
    private func fail(_ worker: WorkerProcess, _ what: String) async -> EngineError {
        await worker.stop()
        if process === worker { process = nil }
        let tail = worker.stderrTail
        return EngineError.failed(engine: id, reason: what + (tail.isEmpty ? "" : "; worker stderr: …\(tail.suffix(600))"))
    }

    func shutdown() async {
        guard let process else { return }
        try? process.send(#"{"type":"shutdown"}"#)
        await process.stop()
        self.process = nil
    }

    private func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { queue.append($0) }
    }

    private func release() {
        if queue.isEmpty { busy = false } else { queue.removeFirst().resume() }
    }
}

/// One recognition session on a worker.
final class WorkerSession: RecognitionSession {
    let connection: WorkerConnection
    let session: Int

    init(connection: WorkerConnection, session: Int) {
        self.connection = connection
        self.session = session
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        let samples = audio.int16Channels.first ?? []
        let bytes = samples.withUnsafeBufferPointer { Data(buffer: $0) }
        let reply = try await connection.call(["type": "audio", "session": session, "start": start.seconds,
                                               "samples": bytes.base64EncodedString()], expecting: "hypothesis")
        return Self.update(reply)
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        Self.update(try await connection.call(["type": "finalize", "session": session, "through": time.seconds], expecting: "hypothesis"))
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        (try? await connection.call(["type": "cancel", "session": session, "before": time.seconds], expecting: "hypothesis"))
            .map(Self.update) ?? HypothesisUpdate()
    }

    func close() async {
        _ = try? await connection.call(["type": "end", "session": session], expecting: "ended")
    }

    static func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, preferredTimescale: 1_000_000) }

    static func update(_ reply: WorkerReply) -> HypothesisUpdate {
        func segment(_ s: WorkerReply.Segment) -> HypothesisSegment {
            HypothesisSegment(range: TimeRange(start: time(s.start), end: time(max(s.start, s.end))),
                              words: s.words.map { RecognizedWord(text: $0.text, range: TimeRange(start: time($0.start), end: time(max($0.start, $0.end))),
                                                                  confidence: $0.confidence) },
                              alternatives: s.alternatives ?? [])
        }
        return HypothesisUpdate(finalized: (reply.finalized ?? []).map(segment), volatile: reply.volatile.map(segment),
                                finalizedThrough: reply.finalizedThrough.map(time), computeSeconds: reply.computeSeconds)
    }
}
