import AVFoundation
import Speech

/// A framework's voice input for a chat screen: the app embedding it declares the usage keys.
/// The framework's own generated Info.plist (a copyright line) is not an app's.
@available(iOS 26.0, *)
public final class VoiceInput {
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
