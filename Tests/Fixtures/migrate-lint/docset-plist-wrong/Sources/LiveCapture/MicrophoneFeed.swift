import AVFoundation
import Speech

/// The twin of docset-plist: the same feed, with an app's Info.plist beside the package that
/// declares neither usage key.
public final class MicrophoneFeed {
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
