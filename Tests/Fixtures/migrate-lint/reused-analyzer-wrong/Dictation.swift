import AVFoundation
import Speech

/// An analyzer made for each recording and dropped when it stops, with its input ended and the
/// session never finished: the pending results are never finalized.
final class Dictation {
    private let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
    private var analyzer: SpeechAnalyzer?
    private var feed: AsyncStream<AnalyzerInput>.Continuation?

    func record(_ buffers: [AVAudioPCMBuffer]) async throws {
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        let (input, feed) = AsyncStream.makeStream(of: AnalyzerInput.self)
        self.feed = feed
        try await analyzer.start(inputSequence: input)
        for buffer in buffers { feed.yield(AnalyzerInput(buffer: buffer)) }
    }

    func stop() {
        feed?.finish() // lint: input-finish-without-analyzer-finish
        feed = nil
        analyzer = nil
    }
}
