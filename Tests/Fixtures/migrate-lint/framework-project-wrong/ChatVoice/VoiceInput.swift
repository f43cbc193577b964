import AVFoundation
import Speech

/// The twin of framework-project: the project builds an app, whose generated Info.plist declares
/// neither usage key.
@available(iOS 26.0, *)
public final class VoiceInput {
    private let engine = AVAudioEngine() // lint: missing-usage-description

    public init() {}

    public func start(into continuation: AsyncStream<AnalyzerInput>.Continuation) throws {
        let input = engine.inputNode
        input.installTap(onBus: 0, bufferSize: 4096, format: input.outputFormat(forBus: 0)) { buffer, _ in
            continuation.yield(AnalyzerInput(buffer: buffer))
        }
        try engine.start()
    }
}
