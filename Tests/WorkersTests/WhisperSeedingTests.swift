import Foundation
import SpeechCore
import Testing

@testable import Workers

/// Whisper's sampled decodes, seeded by the audio decoded (issue 73).
@Suite("Whisper seeding")
struct WhisperSeedingTests {
    /// Whisper's temperature fallback samples on noisy speech. A decode that samples is seeded by its
    /// own audio, so a clip's transcript is the same whatever the worker decoded before it (issue 73:
    /// `--jobs 2` had moved the WERs from run to run), in another order or two at a time; another
    /// seed gives other transcripts there, which shows that the clips do sample.
    @Test(.enabled(if: WorkerEngineTests.whisperInstalled)) func aSampledDecodeDependsOnItsAudioAlone() async throws {
        let clips = try (1...5).map { try Self.noisyCard($0, snr: 0) }
        func engine(seed: Int) -> WorkerEngine {
            var settings = WhisperWorker.Settings()
            settings.seed = seed
            return WhisperWorker.engine(root: WorkerEngineTests.root, settings: settings)
        }
        /// The clips at `indices`, one session after another on `engine`.
        @Sendable func decode(_ indices: [Int], on engine: WorkerEngine) async throws -> [Int: String] {
            var texts: [Int: String] = [:]
            for index in indices {
                let session = try await engine.makeSession(EngineSessionConfiguration(locale: "en-US"))
                _ = try await session.accept(clips[index], at: .zero)
                let update = try await session.finalize(through: clips[index].duration)
                texts[index] = update.finalized.flatMap(\.words).map(\.text).joined(separator: " ")
                await session.close()
            }
            return texts
        }
        func transcripts(_ order: [Int], seed: Int) async throws -> [Int: String] {
            let engine = engine(seed: seed)
            let texts = try await decode(order, on: engine)
            await engine.shutdown()
            return texts
        }
        let forward = try await transcripts([0, 1, 2, 3, 4], seed: 0)
        let backward = try await transcripts([4, 3, 2, 1, 0], seed: 0)
        #expect(forward == backward)
        // As `--jobs 2` runs them: two sessions at a time on one engine, so decodes interleave
        // across its worker processes in whatever order the timing gives.
        let shared = engine(seed: 0)
        let parallel = try await withThrowingTaskGroup(of: [Int: String].self) { group in
            for lane in [[0, 2, 4], [1, 3]] { group.addTask { try await decode(lane, on: shared) } }
            return try await group.reduce(into: [Int: String]()) { $0.merge($1) { first, _ in first } }
        }
        await shared.shutdown()
        #expect(parallel == forward)
        let reseeded = try await transcripts([0, 1, 2, 3, 4], seed: 1)
        #expect(reseeded != forward, "no clip sampled, so the test shows nothing: \(forward)")
    }

    /// A card clip of PocketSphinx's test data with white noise at `snr` dB, the same every time
    /// (a fixed xorshift generator).
    static func noisyCard(_ number: Int, snr: Double) throws -> PCMBuffer {
        let path = String(format: "/usr/share/pocketsphinx/test/data/cards/%03d.wav", number)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let speech = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map {
            Float($0) / 32_768
        }
        let power = speech.reduce(0) { $0 + Double($1 * $1) } / Double(max(1, speech.count))
        let scale = (power / pow(10, snr / 10)).squareRoot()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(number)
        func uniform() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return (Double(state >> 11) + 0.5) / Double(1 << 53)
        }
        let noisy = speech.map { sample -> Float in
            let gaussian = (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
            return sample + Float(scale * gaussian)
        }
        return PCMBuffer(
            format: AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .float32), channels: [noisy])
    }
}
