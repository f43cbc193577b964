import Foundation
import SpeechCore

/// One recognition session on a leased worker; the worker goes back to the pool when it closes.
final class WorkerSession: FailureReportingSession {
    let pool: WorkerPool
    let channel: WorkerChannel
    let session: Int
    private let closed = Locked(false)

    init(pool: WorkerPool, channel: WorkerChannel, session: Int) {
        self.pool = pool
        self.channel = channel
        self.session = session
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

    func close() async {
        guard
            closed.withLock({ done in
                defer { done = true }
                return !done
            })
        else { return }
        try? await channel.end(session: session)
        await pool.giveBack(channel)
    }

    /// A session dropped without `close()` still returns its worker, or the pool would run dry.
    deinit {
        guard !closed.withLock({ $0 }) else { return }
        let pool = self.pool, channel = self.channel, session = self.session
        Task {
            try? await channel.end(session: session)
            await pool.giveBack(channel)
        }
    }

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
