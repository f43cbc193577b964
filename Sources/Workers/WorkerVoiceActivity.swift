import Foundation
import SpeechCore

/// A worker's voice activity detector (Silero VAD in the Whisper worker, WorkerProtocol.md's
/// `listen` and `voice`). A stream leases a worker process for its life, as a session does, so
/// its CPU time and memory are the engine's.
public struct WorkerVoiceActivity: VoiceActivityDetector {
    let pool: WorkerPool
    let engine: String
    /// The model the worker must name in its handshake.
    public let model: String

    public func makeStream() async throws -> any VoiceActivityStream {
        let channel = try await pool.lease()
        do {
            guard let detector = await channel.voiceActivity, detector.model == model else {
                let named = await channel.voiceActivity?.model
                throw EngineError.failed(
                    engine: engine,
                    reason: "the worker has no voice activity detector \(model) (its handshake names "
                        + (named.map { "'\($0)'" } ?? "none") + ")")
            }
            let session = try await channel.listen()
            return WorkerVoiceStream(
                pool: pool, channel: channel, session: session, windowSamples: detector.windowSamples)
        } catch {
            await pool.giveBack(channel)
            throw error
        }
    }
}

extension WorkerEngine {
    /// The worker's voice activity detector, by the model its handshake must name.
    public func voiceActivity(model: String) -> WorkerVoiceActivity {
        WorkerVoiceActivity(pool: pool, engine: id, model: model)
    }
}

/// One stream on a leased worker; the worker goes back to the pool when it closes.
final class WorkerVoiceStream: VoiceActivityStream {
    let lease: WorkerLease
    let windowSamples: Int
    /// Samples sent so far: the next audio's start on the stream's clock.
    private let sent = Locked(0)

    init(pool: WorkerPool, channel: WorkerChannel, session: Int, windowSamples: Int) {
        lease = WorkerLease(pool: pool, channel: channel, session: session)
        self.windowSamples = windowSamples
    }

    func append(_ samples: [Float]) async throws -> VoiceProbabilities {
        let first = sent.withLock { total in
            defer { total += samples.count }
            return total
        }
        let buffer = PCMBuffer(mono: samples, sampleRate: 16_000)
        let start = MediaTime(sampleIndex: Int64(first), sampleRate: 16_000)
        _ = try await lease.channel.audio(
            session: lease.session, samples: buffer.int16Channels.first ?? [], start: start)
        return try await lease.channel.voice(session: lease.session)
    }

    func close() async { await lease.release() }
}
