import AVFoundation
import Speech

/// One analyzer for the app's life: each recording feeds it a new input sequence, and stopping
/// ends that sequence only, leaving the analyzer for the next recording.
final class Dictation {
    private let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
    private let analyzer: SpeechAnalyzer
    private var feed: AsyncStream<AnalyzerInput>.Continuation?

    init() {
        analyzer = SpeechAnalyzer(modules: [transcriber])
    }

    func record(_ buffers: [AVAudioPCMBuffer]) async throws {
        let (input, feed) = AsyncStream.makeStream(of: AnalyzerInput.self)
        self.feed = feed
        try await analyzer.start(inputSequence: input)
        for buffer in buffers { feed.yield(AnalyzerInput(buffer: buffer)) }
    }

    func stop() {
        feed?.finish()
        feed = nil
    }
}
