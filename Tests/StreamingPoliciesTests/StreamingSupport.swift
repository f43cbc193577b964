import Engines
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
