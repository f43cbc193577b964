import Foundation
import SpeechCore

/// The versions of the worker protocol (WorkerProtocol.md) the harness speaks.
public enum WorkerProtocol {
    /// Version 2: audio as binary frames, pipelined, with replies only for news and requests.
    public static let latest = 2
}

/// An engine in another process speaking the worker protocol. A session leases a worker process
/// for its whole life; the engine keeps a pool that grows to as many processes as sessions run at
/// once (at most `maximumWorkers`, beyond which sessions share), so parallel sessions do not queue
/// behind one process. A worker that fails is stopped and replaced by the next session that needs one.
public struct WorkerEngine: RecognitionEngine {
    public let id: String
    public let name: String
    public let capabilities: EngineCapabilities
    let pool: WorkerPool
    /// Why the worker's assets are missing (a model the bootstrap joins), or nil when present.
    let absence: @Sendable () -> String?

    /// - Parameters:
    ///   - id: the engine id the registry lists it under.
    ///   - settings: what the worker is run with, for the engine's name (`whisper[int8,beam1]`).
    ///   - command: the program and its arguments.
    ///   - environment: variables added to the worker's environment.
    ///   - capabilities: what the worker declares (checked against its handshake).
    ///   - callTimeout: how long the worker may stay silent when a reply is due before it is
    ///     considered hung.
    ///   - clock: measures the timeout (a virtual clock in tests).
    ///   - maximumWorkers: the most processes started; more sessions than that share them.
    ///   - protocolVersion: the highest protocol version offered in the handshake.
    ///   - absence: why the worker cannot run yet (its model is not installed), naming what to
    ///     run; nil when it can.
    public init(
        id: String, settings: [String] = [], command: [String], environment: [String: String] = [:],
        capabilities: EngineCapabilities, callTimeout: Duration = .seconds(30),
        clock: any Clock<Duration> = ContinuousClock(),
        maximumWorkers: Int = ProcessInfo.processInfo.activeProcessorCount,
        protocolVersion: Int = WorkerProtocol.latest,
        absence: @escaping @Sendable () -> String? = { nil }
    ) {
        self.id = id
        self.absence = absence
        name = EngineName.make(id: id, settings: settings)
        self.capabilities = capabilities
        pool = WorkerPool(
            channel: WorkerChannel.Configuration(
                id: id, command: command, environment: environment, timeout: callTimeout,
                clock: clock, protocolVersion: protocolVersion),
            maximum: max(1, maximumWorkers))
    }

    public func isInstalled(locale: String) -> Bool {
        supports(locale: locale) && pool.commandExists && absence() == nil
    }

    public func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        guard supports(locale: configuration.locale) else {
            throw EngineError.unsupportedLocale(engine: id, locale: configuration.locale)
        }
        if let absence = absence() { throw EngineError.failed(engine: name, reason: absence) }
        let channel = try await pool.lease()
        do {
            let session = try await channel.start(configuration)
            return WorkerSession(pool: pool, channel: channel, session: session)
        } catch {
            await pool.giveBack(channel)
            throw error
        }
    }

    /// Seconds the most recently started worker took to load its model (from its handshake).
    public var loadSeconds: Double? { get async { await pool.loadSeconds } }

    /// The protocol version the most recently started worker agreed to.
    public var negotiatedProtocol: Int? { get async { await pool.negotiatedProtocol } }

    /// The worker processes, shared by copies of this value and by adapters over it.
    public var processes: (any EngineProcesses)? { pool }
}

/// The harness side of one worker process: handshake, requests, audio, timeouts, failure. Calls
/// are taken one at a time.
actor WorkerChannel {
    struct Configuration: Sendable {
        var id: String
        var command: [String]
        var environment: [String: String]
        var timeout: Duration
        var clock: any Clock<Duration>
        var protocolVersion: Int
    }

    let configuration: Configuration
    private let process: WorkerProcess
    private(set) var version = 1
    private(set) var loadSeconds: Double?
    /// Whether the worker reports its CPU time (protocol 2's `cpuTime` in the handshake).
    private var reportsCPU = false
    /// The worker's voice activity detector (protocol 2's `voiceActivity` in the handshake).
    private(set) var voiceActivity: WorkerReply.VoiceActivity?
    /// What the channel knows of each open session.
    private struct SessionState {
        /// The tentative text as last reported.
        var volatile: HypothesisSegment?
        /// News read while another session's call was waiting.
        var news: HypothesisUpdate?
        /// Hears of the worker dying while no call waits for it.
        var failureHandler: (@Sendable (any Error) -> Void)?
    }
    private var sessions: [Int: SessionState] = [:]
    private var failed = false
    /// The first failure, named in the errors of the calls that come after it.
    private var failure: WorkerFailure?
    private var nextSession = 0
    private var nextRequest = 0
    private var busy = false
    private var queue: [CheckedContinuation<Void, Never>] = []

    private var id: String { configuration.id }

    private init(configuration: Configuration, process: WorkerProcess) {
        self.configuration = configuration
        self.process = process
    }

    /// Starts the worker and shakes hands: the worker answers with the highest version it speaks
    /// up to the one offered (a version 1 worker always says 1).
    static func open(_ configuration: Configuration) async throws -> WorkerChannel {
        let process: WorkerProcess
        do {
            process = try WorkerProcess(command: configuration.command, environment: configuration.environment)
        } catch let error as EngineError {
            if case .failed(_, let reason) = error {
                throw EngineError.failed(engine: configuration.id, reason: reason)
            }
            throw error
        }
        let channel = WorkerChannel(configuration: configuration, process: process)
        process.onOutputClosed { [weak channel] in
            guard let channel else { return }
            Task { await channel.outputClosed() }
        }
        try await channel.handshake()
        return channel
    }

    private func handshake() async throws {
        try await write(WorkerRequestLine(.hello(protocolVersion: configuration.protocolVersion)), session: nil)
        let ready = try await reply(expecting: .ready, id: nil, session: nil, call: "hello").message
        version = min(configuration.protocolVersion, max(1, ready.protocolVersion ?? 1))
        loadSeconds = ready.loadSeconds
        reportsCPU = version >= 2 && ready.cpuTime == true
        voiceActivity = version >= 2 ? ready.voiceActivity : nil
    }

    var isHealthy: Bool { !failed && process.isRunning && !process.writeFailed }

    /// The worker's resident memory now, when it runs.
    var residentBytes: Int? { process.residentBytes }

    /// Asks the worker to exit and stops it; returns its peak resident memory, when known.
    func shutdown() async -> Int? {
        let peak = process.peakResidentBytes
        if let line = try? WorkerRequestLine(.shutdown).encoded() { try? process.send(line + Data("\n".utf8)) }
        await process.stop()
        failed = true
        return peak
    }

    func start(_ configuration: EngineSessionConfiguration) async throws -> Int {
        nextSession += 1
        let session = nextSession
        sessions[session] = SessionState()
        _ = try await request(
            session: session,
            .start(
                session: session, locale: configuration.locale, partials: configuration.reportsPartialResults,
                alternatives: configuration.maximumAlternatives, contextualStrings: configuration.contextualStrings,
                wordTimes: configuration.wordTimes),
            expecting: .started)
        return session
    }

    /// Opens a session that gives its audio to the worker's voice activity detector.
    func listen() async throws -> Int {
        nextSession += 1
        let session = nextSession
        sessions[session] = SessionState()
        _ = try await request(session: session, .listen(session: session), expecting: .listening)
        return session
    }

    /// The speech probabilities of the windows a listening session's audio completed since the last call.
    func voice(session: Int) async throws -> VoiceProbabilities {
        let answer = try await request(session: session, .voice(session: session), expecting: .speech)
        return VoiceProbabilities(
            probabilities: answer.message.probabilities ?? [],
            computeSeconds: reportsCPU ? answer.update.computeSeconds : nil)
    }

    /// Gives the worker audio. Protocol 1 waits for the reply; protocol 2 sends a frame and
    /// returns the news that has arrived meanwhile, without waiting.
    func audio(session: Int, samples: [Int16], start: MediaTime) async throws -> HypothesisUpdate {
        let bytes = samples.withUnsafeBufferPointer { Data(buffer: $0) }
        if version == 1 {
            return try await request(
                session: session,
                .audioInline(session: session, start: start.seconds, samples: bytes.base64EncodedString()),
                expecting: .hypothesis
            ).update
        }
        await acquire()
        defer { release() }
        try checkUsable(session: session)
        let header = try WorkerRequestLine(.audio(session: session, start: start.seconds, bytes: bytes.count)).encoded()
        do {
            try process.send(header + Data("\n".utf8) + bytes)
        } catch {
            throw await fail(.notReading, call: "audio", session: session)
        }
        // Without news the tentative text stands: protocol 2 repeats nothing.
        var update = HypothesisUpdate(volatile: sessions[session]?.volatile, computeSeconds: reportsCPU ? 0 : nil)
        update = WorkerSession.merge(update, takeNews(session))
        for event in process.receivedEvents() {
            let message = try await decode(event, call: "audio", session: session)
            guard message.type == .hypothesis, message.id == nil else {
                throw await fail(
                    .unexpectedReply("expected news between requests, got '\(message.type)'"), call: "audio",
                    session: session)
            }
            if let other = message.session, other != session {
                keepNews(message.update, for: other)
            } else {
                update = WorkerSession.merge(update, message.update)
            }
        }
        if process.writeFailed || !process.isRunning {
            throw await fail(.stopped, call: "audio", session: session)
        }
        sessions[session]?.volatile = update.volatile
        return update
    }

    func finalize(session: Int, through time: MediaTime) async throws -> HypothesisUpdate {
        try await request(
            session: session, .finalize(session: session, through: time.seconds), expecting: .hypothesis
        ).update
    }

    func cancel(session: Int, before time: MediaTime) async throws -> HypothesisUpdate {
        try await request(
            session: session, .cancel(session: session, before: time.seconds), expecting: .hypothesis
        ).update
    }

    func end(session: Int) async throws {
        sessions[session]?.failureHandler = nil
        defer { sessions[session] = nil }
        _ = try await request(session: session, .end(session: session), expecting: .ended)
    }

    func setFailureHandler(_ handler: @escaping @Sendable (any Error) -> Void, session: Int) {
        sessions[session]?.failureHandler = handler
    }

    /// The worker's output ended. A call in progress sees it itself; otherwise the sessions hear
    /// of it now, instead of at their next call (which, with audio not awaited, may never come).
    func outputClosed() async {
        let handlers = sessions.values.compactMap(\.failureHandler)
        guard !busy, !failed, !handlers.isEmpty else { return }
        for key in sessions.keys { sessions[key]?.failureHandler = nil }
        let error = await fail(.stopped, call: nil, session: nil)
        for handler in handlers { handler(error) }
    }

    private func takeNews(_ session: Int) -> HypothesisUpdate {
        defer { sessions[session]?.news = nil }
        return sessions[session]?.news ?? HypothesisUpdate()
    }

    private func keepNews(_ update: HypothesisUpdate, for session: Int) {
        guard sessions[session] != nil else { return }
        sessions[session]?.news = WorkerSession.merge(sessions[session]?.news ?? HypothesisUpdate(), update)
        sessions[session]?.volatile = update.volatile
    }

    /// What a request got: its reply, with any news that arrived before it folded in.
    struct Answer {
        var message: WorkerReply
        var update: HypothesisUpdate
    }

    /// Sends one request for `session` and waits for its reply (and, in protocol 2, the news
    /// before it).
    private func request(session: Int, _ body: WorkerRequest, expecting type: WorkerReply.Kind) async throws -> Answer {
        await acquire()
        defer { release() }
        try checkUsable(session: session)
        var id: Int?
        if version >= 2 {
            nextRequest += 1
            id = nextRequest
        }
        try await write(WorkerRequestLine(body, id: id), session: session)
        var answer = try await reply(expecting: type, id: id, session: session, call: body.type)
        answer.update = WorkerSession.merge(takeNews(session), answer.update)
        if type == .hypothesis { sessions[session]?.volatile = answer.update.volatile }
        return answer
    }

    private func write(_ line: WorkerRequestLine, session: Int?) async throws {
        let data = try line.encoded() + Data("\n".utf8)
        do {
            try process.send(data)
        } catch {
            throw await fail(.notReading, call: line.request.type, session: session)
        }
    }

    /// A call after a failure names it: which call the worker failed in, and how.
    private func checkUsable(session: Int) throws {
        if let failure {
            throw EngineError.workerFailedEarlier(
                engine: id, failure: failure, sameSession: failure.session == nil || failure.session == session)
        }
        if failed { throw EngineError.failed(engine: id, reason: "the worker was shut down") }
    }

    /// Waits for the reply of `type` (to request `id` in protocol 2), folding news for `session`
    /// into it and keeping other sessions' news for them.
    private func reply(
        expecting type: WorkerReply.Kind, id: Int?, session: Int?, call: String?
    ) async throws -> Answer {
        var news = HypothesisUpdate()
        while true {
            guard let event = await nextEvent() else {
                let seconds =
                    Double(configuration.timeout.components.seconds)
                    + Double(configuration.timeout.components.attoseconds) / 1e18
                throw await fail(.noReply(seconds: seconds), call: call, session: session)
            }
            let message = try await decode(event, call: call, session: session)
            if version >= 2, message.id == nil, message.type == .hypothesis, type != .ready {
                if let other = message.session, other != session {
                    keepNews(message.update, for: other)
                } else {
                    news = WorkerSession.merge(news, message.update)
                }
                continue
            }
            guard message.type == type else {
                throw await fail(
                    .unexpectedReply("expected a '\(type)' reply, got '\(message.type)'"), call: call, session: session)
            }
            if let id, message.id != id {
                throw await fail(
                    .unexpectedReply("a reply to request \(message.id.map(String.init) ?? "none") where \(id) was due"),
                    call: call, session: session)
            }
            return Answer(message: message, update: WorkerSession.merge(news, message.update))
        }
    }

    /// A message from an event: errors and protocol violations become engine errors.
    /// `call` and `session`: the request being answered, named in a failure.
    private func decode(_ event: WorkerProcess.Event, call: String?, session: Int?) async throws -> WorkerReply {
        switch event {
        case .closed:
            throw await fail(.stopped, call: call, session: session)
        case .oversized(let bytes):
            throw await fail(.oversizedReply(bytes: bytes), call: call, session: session)
        case .line(let text):
            let message: WorkerReply
            do {
                message = try DecodingProblem.decode(WorkerReply.self, from: Data(text.utf8))
            } catch {
                throw await fail(
                    .malformedReply(detail: "\(error)", text: String(text.prefix(200))), call: call, session: session)
            }
            if message.type == .error {
                throw EngineError.failed(engine: id, reason: "worker error: \(message.message ?? "no message")")
            }
            return message
        }
    }

    /// The next event, or nil when the timeout passes first.
    private func nextEvent() async -> WorkerProcess.Event? {
        let clock = configuration.clock, timeout = configuration.timeout, process = self.process
        return await withTaskGroup(of: WorkerProcess.Event?.self) { group in
            group.addTask { await process.nextEvent() }
            group.addTask {
                try? await clock.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Stops a misbehaving worker (reaped, so its exit status or signal can be read) and keeps
    /// what happened, for this call's error and for every later call's.
    private func fail(_ kind: WorkerFailure.Kind, call: String?, session: Int?) async -> EngineError {
        failed = true
        await process.stop()
        let failure = WorkerFailure(
            kind: kind, call: call, session: session, exit: process.exit, stderrTail: process.stderrTail)
        self.failure = failure
        return EngineError.workerFailed(engine: id, failure: failure)
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

/// A worker's reply line as the worker channel reads it. The SPI is for the fuzz targets
/// (Fuzz/FuzzChecks).
@_spi(Fuzzing) public enum WorkerReplyReading {
    /// The hypothesis a reply line carries; throws what the channel would call a malformed reply.
    public static func hypothesis(line: Data) throws -> HypothesisUpdate {
        try DecodingProblem.decode(WorkerReply.self, from: line).update
    }
}
