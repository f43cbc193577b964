import AVFoundation
import Speech

/// An iOS app's live dictation: the microphone tapped, converted and fed to SpeechAnalyzer.
final class LiveNotes {
    private let engine = AVAudioEngine() // lint: missing-usage-description
    private var feed: AsyncStream<AnalyzerInput>.Continuation?
    private var analyzer: SpeechAnalyzer?
    private var results: Task<Void, Error>?

    func start() async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        let (input, feed) = AsyncStream.makeStream(of: AnalyzerInput.self)
        self.feed = feed
        engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in
            feed.yield(AnalyzerInput(buffer: buffer))
        }
        try engine.start()
        try await analyzer.start(inputSequence: input)
        results = Task {
            for try await result in transcriber.results { print(result.text) }
        }
    }

    func stop() async throws {
        engine.stop()
        feed?.finish()
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
        try await results?.value
    }
}
