import AVFoundation
import Speech

/// A library's microphone feed for SpeechAnalyzer. The apps using it declare the usage keys; the
/// package ships its documentation as a docset, whose Info.plist describes the docset.
public final class MicrophoneFeed {
    private let engine = AVAudioEngine()

    public init() {}

    public func start(into continuation: AsyncStream<AnalyzerInput>.Continuation) throws {
        let input = engine.inputNode
        input.installTap(onBus: 0, bufferSize: 4096, format: input.outputFormat(forBus: 0)) { buffer, _ in
            continuation.yield(AnalyzerInput(buffer: buffer))
        }
        try engine.start()
    }
}
