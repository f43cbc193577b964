import AVFoundation
import Speech

/// Runs one analyzer over the microphone; tells its owner what happens through `onEvent`.
final class Recorder {
    enum Event { case transcript(String), failed(Error) }

    private let onEvent: @Sendable (Event) -> Void
    private var continuation: AsyncStream<AnalyzerInput>.Continuation?
    private var analyzer: SpeechAnalyzer?

    init(onEvent: @escaping @Sendable (Event) -> Void) {
        self.onEvent = onEvent
    }

    func start(_ transcriber: SpeechTranscriber) async throws {
        let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        self.continuation = continuation
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        try await analyzer.start(inputSequence: inputs)
    }

    func stop() async throws {
        continuation?.finish()
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
    }

    func cancel() async {
        await analyzer?.cancelAndFinishNow()
    }

    func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
        do {
            guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
            try converter.convert(to: out, from: buffer)
            continuation?.yield(AnalyzerInput(buffer: out))
        } catch {
            continuation?.finish() // lint-note: input-finish-without-analyzer-finish
            onEvent(.failed(error))
        }
    }
}
