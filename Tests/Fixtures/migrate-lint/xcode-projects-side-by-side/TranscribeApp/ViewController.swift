import AVFoundation
import Speech

/// The app beside it transcribes the microphone with SpeechAnalyzer.
final class ViewController {
    private let engine = AVAudioEngine()
    private var analyzer: SpeechAnalyzer?

    func start() async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        let (input, feed) = AsyncStream.makeStream(of: AnalyzerInput.self)
        engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in
            feed.yield(AnalyzerInput(buffer: buffer))
        }
        try engine.start()
        try await analyzer.start(inputSequence: input)
    }
}
