import Foundation
import SpeechCore

/// A session's hold on a worker process: ended and given back to the pool once, by `release()`
/// or, for a holder dropped without it, when the lease goes.
final class WorkerLease: Sendable {
    let pool: WorkerPool
    let channel: WorkerChannel
    let session: Int
    private let released = Locked(false)

    init(pool: WorkerPool, channel: WorkerChannel, session: Int) {
        self.pool = pool
        self.channel = channel
        self.session = session
    }

    func release() async {
        guard
            released.withLock({ done in
                defer { done = true }
                return !done
            })
        else { return }
        try? await channel.end(session: session)
        await pool.giveBack(channel)
    }

    deinit {
        guard !released.withLock({ $0 }) else { return }
        let pool = self.pool, channel = self.channel, session = self.session
        Task {
            try? await channel.end(session: session)
            await pool.giveBack(channel)
        }
    }
}

/// One recognition session on a leased worker; the worker goes back to the pool when it closes.
final class WorkerSession: FailureReportingSession {
    let lease: WorkerLease
    private var channel: WorkerChannel { lease.channel }
    private var session: Int { lease.session }

    init(pool: WorkerPool, channel: WorkerChannel, session: Int) {
        lease = WorkerLease(pool: pool, channel: channel, session: session)
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        try await channel.audio(session: session, samples: audio.int16Channels.first ?? [], start: start)
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await channel.finalize(session: session, through: time)
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        (try? await channel.cancel(session: session, before: time)) ?? HypothesisUpdate()
    }

    func onFailure(_ handler: @escaping @Sendable (any Error) -> Void) async {
        await channel.setFailureHandler(handler, session: session)
    }

    /// Ends the session and returns its worker (a session dropped without `close()` returns it too,
    /// through its lease, or the pool would run dry).
    func close() async { await lease.release() }

    /// `b` after `a`: finalized segments in order, `b`'s volatile segment, the later finalization
    /// time, the CPU time of both.
    static func merge(_ a: HypothesisUpdate, _ b: HypothesisUpdate) -> HypothesisUpdate {
        let compute: Double? =
            a.computeSeconds == nil && b.computeSeconds == nil ? nil : (a.computeSeconds ?? 0) + (b.computeSeconds ?? 0)
        return HypothesisUpdate(
            finalized: a.finalized + b.finalized, volatile: b.volatile,
            finalizedThrough: b.finalizedThrough ?? a.finalizedThrough, computeSeconds: compute)
    }
}
