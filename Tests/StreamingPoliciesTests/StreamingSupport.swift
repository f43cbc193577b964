import Foundation
import SpeechCore

/// Streams `seconds` of silence through a session of `engine` in 100 ms chunks, then finalises;
/// returns every update with the audio time it came at (the streaming adapters' tests).
func streamSilence(_ engine: any RecognitionEngine, seconds: Double) async throws -> [(Double, HypothesisUpdate)] {
    let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
    var updates: [(Double, HypothesisUpdate)] = []
    for k in 0..<Int((seconds * 10).rounded()) {
        let start = MediaTime(sampleIndex: Int64(k * 1_600), sampleRate: 16_000)
        updates.append(
            (
                Double(k + 1) / 10,
                try await session.accept(
                    PCMBuffer(mono: [Float](repeating: 0, count: 1_600), sampleRate: 16_000), at: start)
            ))
    }
    updates.append(
        (seconds, try await session.finalize(through: MediaTime(seconds: seconds, preferredTimescale: 16_000))))
    await session.close()
    return updates
}

/// A base engine whose every decode is `base`'s words passed through `rewrite` (given the decode's
/// index from 0 and the window it heard): a Whisper stand-in that writes the same audio differently
/// from one decode to the next. A fault seam for the streaming policies' tests only.
final class RewritingEngine: RecognitionEngine, @unchecked Sendable {
    typealias Rewrite = @Sendable (_ decode: Int, _ words: [RecognizedWord], _ window: TimeRange) -> [RecognizedWord]
    let base: any RecognitionEngine
    let rewrite: Rewrite
    private let lock = NSLock()
    private var decodes = 0

    init(base: any RecognitionEngine, rewrite: @escaping Rewrite) {
        self.base = base
        self.rewrite = rewrite
    }

    var id: String { base.id }
    var capabilities: EngineCapabilities { base.capabilities }
    /// Sessions made so far: the policy's decodes.
    var decodeCount: Int { lock.withLock { decodes } }

    func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        let index = lock.withLock {
            defer { decodes += 1 }
            return decodes
        }
        return RewritingSession(base: try await base.makeSession(configuration), index: index, rewrite: rewrite)
    }
}

/// One decode of a ``RewritingEngine``: everything the base said, rewritten once at the end.
final class RewritingSession: RecognitionSession, @unchecked Sendable {
    let base: any RecognitionSession
    let index: Int
    let rewrite: RewritingEngine.Rewrite
    private var words: [RecognizedWord] = []
    private var start: MediaTime?

    init(base: any RecognitionSession, index: Int, rewrite: @escaping RewritingEngine.Rewrite) {
        self.base = base
        self.index = index
        self.rewrite = rewrite
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        if self.start == nil { self.start = start }
        keep(try await base.accept(audio, at: start))
        return HypothesisUpdate(computeSeconds: 0)
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        keep(try await base.finalize(through: time))
        let window = TimeRange(start: start ?? .zero, end: time)
        let rewritten = rewrite(index, words, window)
        guard let first = rewritten.first, let last = rewritten.last else { return HypothesisUpdate(computeSeconds: 0) }
        return HypothesisUpdate(
            finalized: [
                HypothesisSegment(range: TimeRange(start: first.range.start, end: last.range.end), words: rewritten)
            ],
            finalizedThrough: time, computeSeconds: 0)
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate { await base.cancel(before: time) }
    func close() async { await base.close() }

    private func keep(_ update: HypothesisUpdate) {
        words += update.finalized.flatMap(\.words) + (update.volatile?.words ?? [])
    }
}
