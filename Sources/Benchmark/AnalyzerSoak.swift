import AVFAudio
import CoreMedia
import EngineCore
import Foundation
@_spi(Harness) import SpeechReference

/// Many short analyzer sessions in one process, to show that nothing accumulates: memory, file
/// descriptors, analyzers or modules kept alive by a leaked task.
public struct AnalyzerSoak: Sendable {
    public struct Checkpoint: Sendable {
        public var sessions: Int
        public var residentBytes: Int
        public var openFiles: Int
    }

    public struct Report: Sendable {
        public var checkpoints: [Checkpoint]
        /// Analyzers and transcribers of the sessions still alive after all of them ended.
        public var leakedObjects: Int
        /// Sessions whose results were not the script's words.
        public var wrongResults: Int
        public var seconds: Double
    }

    public var sessions: Int
    public var checkpointEvery: Int
    /// Current resident bytes and open file descriptors of the process.
    public var measure: @Sendable () -> (residentBytes: Int, openFiles: Int)

    public init(
        sessions: Int, checkpointEvery: Int = 1_000,
        measure: @escaping @Sendable () -> (residentBytes: Int, openFiles: Int)
    ) {
        self.sessions = sessions
        self.checkpointEvery = max(1, checkpointEvery)
        self.measure = measure
    }

    public func run() async -> Report {
        let clock = ContinuousClock()
        let start = clock.now
        let engine = ScriptedEngine(script: .evenlySpaced("soak test words", latency: 0.1, endpointSilence: nil))
        let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let buffers = (0..<20).map { _ -> AVAudioPCMBuffer in
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1_600)!
            buffer.frameLength = 1_600
            return buffer
        }
        let initial = measure()
        var checkpoints = [Checkpoint(sessions: 0, residentBytes: initial.residentBytes, openFiles: initial.openFiles)]
        var watched: [Weak] = []
        var wrong = 0
        for index in 1...sessions {
            let (ok, analyzer, transcriber) = await Self.session(engine: engine, buffers: buffers)
            if !ok { wrong += 1 }
            if index > sessions - 100 { watched += [Weak(analyzer), Weak(transcriber)] }
            if index % checkpointEvery == 0 || index == sessions {
                let now = measure()
                checkpoints.append(
                    Checkpoint(sessions: index, residentBytes: now.residentBytes, openFiles: now.openFiles))
            }
        }
        // Give tasks that end with their session a chance to run down.
        for _ in 0..<1_000 { await Task.yield() }
        return Report(
            checkpoints: checkpoints, leakedObjects: watched.filter { $0.object != nil }.count, wrongResults: wrong,
            seconds: start.duration(to: clock.now).seconds)
    }

    /// One session as an app writes it: results read in a child task while the audio is analysed,
    /// then finalised and finished. Returns whether the final text was right.
    private static func session(
        engine: ScriptedEngine, buffers: [AVAudioPCMBuffer]
    ) async -> (Bool, AnyObject, AnyObject) {
        let transcriber = SpeechTranscriber(
            locale: Locale(identifier: "en-US"), preset: .progressiveTranscription, engine: engine)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        async let text: String = {
            var finals: [String] = []
            for try await result in transcriber.results where result.isFinal {
                finals.append(String(result.text.characters))
            }
            return finals.joined(separator: " ")
        }()
        do {
            let (input, builder) = AsyncStream<AnalyzerInput>.makeStream()
            for buffer in buffers { builder.yield(AnalyzerInput(buffer: buffer)) }
            builder.finish()
            if let end = try await analyzer.analyzeSequence(input) {
                try await analyzer.finalizeAndFinish(through: end)
            } else {
                await analyzer.cancelAndFinishNow()
            }
            let words = try await text
            return (words.split(separator: " ") == ["soak", "test", "words"], analyzer, transcriber)
        } catch {
            await analyzer.cancelAndFinishNow()
            _ = try? await text
            return (false, analyzer, transcriber)
        }
    }

    private struct Weak {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }
}
