import Speech

/// The library's ready-made session: one analyzer over one feed.
public final class FeedSession {
    public let feed = LiveFeed()
    private var analyzer: SpeechAnalyzer?

    public init() {}

    public func start(_ transcriber: SpeechTranscriber) async throws {
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        feed.onFailure = { error in print("feed failed: \(error)") }
        try await analyzer.start(inputSequence: feed.inputs)
    }

    public func stop() async throws {
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
    }
}
