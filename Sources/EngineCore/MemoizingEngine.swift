import SpeechCore

/// An engine whose sessions answer from memory when they are given a sequence of calls (the same
/// configuration, the same audio at the same times, the same finalise and cancel times) that an
/// earlier session of this engine was given. The first call that departs from every sequence seen
/// makes a real session of the base engine, replays the calls before it, and goes on live.
///
/// For runs that check behaviour: the conformance suite feeds the same generated audio in scenario
/// after scenario, and a Whisper decode costs the same each time. An answer from memory carries the
/// compute the engine reported when it was made, so compute figures are those of a live run; wall
/// time is not. Benchmarks use it only when asked to share decodes between adapters
/// (``sharingInnermost(_:)``). A deterministic base gives the answers it would have given; a
/// sampling one (Whisper's temperature fallback) gives one of its own earlier answers. Failures are
/// not remembered: a call that threw is made again next time.
public struct MemoizingEngine: EngineAdapter {
    public let base: any RecognitionEngine
    let memory = Memory()

    public init(base: any RecognitionEngine) { self.base = base }

    /// Another base engine, remembered apart.
    public func replacingBase(_ base: any RecognitionEngine) -> MemoizingEngine { MemoizingEngine(base: base) }

    /// `engine` with the engine under its adapters memoized: a streaming policy over it still runs
    /// live, on answers from memory.
    public static func memoizingInnermost(_ engine: any RecognitionEngine) -> any RecognitionEngine {
        replacingInnermost(of: engine, with: MemoizingEngine(base: engine.innermost))
    }

    /// `engines` with the engine under their adapters memoized together wherever it is the same
    /// engine (the same name, settings included): adapters that make the same calls on it, such as
    /// two streaming policies over one Whisper while they agree, pay for those calls once. Bare
    /// engines, and adapters whose engine no other adapter uses, are left as they are.
    public static func sharingInnermost(_ engines: [any RecognitionEngine]) -> [any RecognitionEngine] {
        var users: [String: Int] = [:]
        for engine in engines where engine is any EngineAdapter { users[engine.innermost.name, default: 0] += 1 }
        var memos: [String: MemoizingEngine] = [:]
        return engines.map { engine in
            let name = engine.innermost.name
            guard engine is any EngineAdapter, users[name, default: 0] > 1 else { return engine }
            let memo = memos[name] ?? MemoizingEngine(base: engine.innermost)
            memos[name] = memo
            return replacingInnermost(of: engine, with: memo)
        }
    }

    /// `engine` with `replacement` in place of the engine under its adapters.
    static func replacingInnermost(
        of engine: any RecognitionEngine, with replacement: any RecognitionEngine
    ) -> any RecognitionEngine {
        guard let adapter = engine as? any EngineAdapter else { return replacement }
        return adapter.replacingBase(replacingInnermost(of: adapter.base, with: replacement))
    }

    public var id: String { base.id }
    public var name: String { base.name }
    public var capabilities: EngineCapabilities { base.capabilities }
    public func isInstalled(locale: String) -> Bool { base.isInstalled(locale: locale) }
    public func enrolledSpeakers(locale: String) -> Set<String>? { base.enrolledSpeakers(locale: locale) }
    public func assetPackage(for locale: String) -> AssetPackage? { base.assetPackage(for: locale) }

    public func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        MemoizingSession(base: base, configuration: configuration, memory: memory)
    }

    /// Calls answered from memory and calls made on the base engine, so far.
    public var statistics: (answeredFromMemory: Int, madeOnBase: Int) {
        memory.entries.withLock { ($0.hits, $0.misses) }
    }

    /// The statistics of the memo under `engine`'s adapters, if there is one.
    public static func statistics(of engine: any RecognitionEngine) -> (answeredFromMemory: Int, madeOnBase: Int)? {
        if let memo = engine as? MemoizingEngine { return memo.statistics }
        return (engine as? any EngineAdapter).flatMap { statistics(of: $0.base) }
    }

    /// One session call, as far as it decides the engine's answer.
    enum Call: Hashable, Sendable {
        case accept(PCMBuffer, at: MediaTime)
        case finalize(through: MediaTime)
        case cancel(before: MediaTime)
    }

    /// The calls seen, as a tree: a node is a call sequence from a session's start, numbered;
    /// a node's child for a call holds the answer the call got.
    final class Memory: Sendable {
        struct Entries {
            var roots: [EngineSessionConfiguration: Int] = [:]
            var children: [Edge: (node: Int, update: HypothesisUpdate)] = [:]
            var nodes = 0
            var hits = 0
            var misses = 0
        }
        struct Edge: Hashable {
            let parent: Int
            let call: Call
        }
        let entries = Locked(Entries())

        func root(_ configuration: EngineSessionConfiguration) -> Int {
            entries.withLock { entries in
                if let node = entries.roots[configuration] { return node }
                entries.nodes += 1
                entries.roots[configuration] = entries.nodes
                return entries.nodes
            }
        }

        /// The answer `call` got after the sequence `parent`, and the node it leads to.
        func recall(_ call: Call, after parent: Int) -> (node: Int, update: HypothesisUpdate)? {
            entries.withLock { entries in
                let found = entries.children[Edge(parent: parent, call: call)]
                if found != nil { entries.hits += 1 }
                return found
            }
        }

        func remember(_ call: Call, after parent: Int, answer: HypothesisUpdate) -> Int {
            entries.withLock { entries in
                entries.misses += 1
                let edge = Edge(parent: parent, call: call)
                if let known = entries.children[edge] { return known.node }
                entries.nodes += 1
                entries.children[edge] = (entries.nodes, answer)
                return entries.nodes
            }
        }
    }
}

/// A session that answers from memory until its calls leave what has been seen, then runs live.
final class MemoizingSession: FailureReportingSession {
    private let base: any RecognitionEngine
    private let configuration: EngineSessionConfiguration
    private let memory: MemoizingEngine.Memory
    // Calls on one session come one at a time (the analyzer's job order); the lock makes the
    // session safe to share, not concurrent calls meaningful.
    private struct State {
        var node: Int
        var replay: [MemoizingEngine.Call] = []
        var live: (any RecognitionSession)?
        var failureHandler: (@Sendable (any Error) -> Void)?
    }
    private let state: Locked<State>

    init(base: any RecognitionEngine, configuration: EngineSessionConfiguration, memory: MemoizingEngine.Memory) {
        self.base = base
        self.configuration = configuration
        self.memory = memory
        state = Locked(State(node: memory.root(configuration)))
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        try await answer(.accept(audio, at: start))
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await answer(.finalize(through: time))
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        // Cannot throw: a base session that cannot be made answers nothing.
        (try? await answer(.cancel(before: time))) ?? HypothesisUpdate()
    }

    func close() async {
        await state.withLock { $0.live }?.close()
    }

    func onFailure(_ handler: @escaping @Sendable (any Error) -> Void) async {
        let live = state.withLock { state in
            state.failureHandler = handler
            return state.live
        }
        await (live as? any FailureReportingSession)?.onFailure(handler)
    }

    private func answer(_ call: MemoizingEngine.Call) async throws -> HypothesisUpdate {
        let (node, live) = state.withLock { ($0.node, $0.live) }
        if live == nil, let known = memory.recall(call, after: node) {
            state.withLock {
                $0.node = known.node
                $0.replay.append(call)
            }
            return known.update
        }
        let session = try await liveSession(live)
        let update = try await Self.make(call, on: session)
        let next = memory.remember(call, after: node, answer: update)
        state.withLock { $0.node = next }
        return update
    }

    /// The live base session; made on the first call memory cannot answer, with the calls before
    /// it replayed (their answers were given from memory already).
    private func liveSession(_ live: (any RecognitionSession)?) async throws -> any RecognitionSession {
        if let live { return live }
        let session = try await base.makeSession(configuration)
        let (replay, handler) = state.withLock { ($0.replay, $0.failureHandler) }
        if let handler { await (session as? any FailureReportingSession)?.onFailure(handler) }
        for call in replay { _ = try await Self.make(call, on: session) }
        state.withLock {
            $0.live = session
            $0.replay = []
        }
        return session
    }

    private static func make(
        _ call: MemoizingEngine.Call, on session: any RecognitionSession
    ) async throws
        -> HypothesisUpdate
    {
        switch call {
        case .accept(let audio, let start): try await session.accept(audio, at: start)
        case .finalize(let time): try await session.finalize(through: time)
        case .cancel(let time): await session.cancel(before: time)
        }
    }
}
