import AVFAudio
import EngineCore
import Foundation
@_spi(Harness) import SpeechReference

/// The analyzer throughput benchmark: synthetic 16 kHz buffers, a word every half second.
public enum AnalyzerBenchmark {
    public struct Report: Sendable {
        public var wallSeconds: Double
        public var buffers: Int
        public var results: Int
        public var finals: Int
        public var finalWords: Int
    }

    public static func run(
        seconds: Double, chunkMilliseconds: Int, preset: SpeechTranscriber.Preset
    ) async throws -> Report {
        let words = stride(from: 0.1, to: seconds - 0.5, by: 0.5).map {
            EngineScript.Word("w", start: $0, end: $0 + 0.3)
        }
        let engine = ScriptedEngine(script: EngineScript(words: words, endpointSilence: 0.15))
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: preset, engine: engine)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let frames = AVAudioFrameCount(16 * chunkMilliseconds)
        let count = Int(seconds * 1000) / chunkMilliseconds
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        let counter = Task {
            var results = 0, finals = 0, finalWords = 0
            for try await result in transcriber.results {
                results += 1
                if result.isFinal {
                    finals += 1
                    finalWords += String(result.text.characters).split(separator: " ").count
                }
            }
            return (results, finals, finalWords)
        }
        let clock = ContinuousClock()
        let started = clock.now
        let input = AsyncStream<AnalyzerInput> { continuation in
            for _ in 0..<count { continuation.yield(AnalyzerInput(buffer: buffer)) }
            continuation.finish()
        }
        let last = try await analyzer.analyzeSequence(input)
        if let last { try await analyzer.finalizeAndFinish(through: last) }
        let elapsed = started.duration(to: clock.now)
        let (results, finals, finalWords) = try await counter.value
        let wall = elapsed.seconds
        return Report(wallSeconds: wall, buffers: count, results: results, finals: finals, finalWords: finalWords)
    }
}
