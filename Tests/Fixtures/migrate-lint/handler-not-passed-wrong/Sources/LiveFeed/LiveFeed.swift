import AVFoundation
import Speech

/// The twin of handler-not-passed: the library's own session sets `onFailure`, and its closure
/// only logs, so the analyzer waits on for input that will never come.
public final class LiveFeed {
    public var onFailure: ((Error) -> Void)?
    private let continuation: AsyncStream<AnalyzerInput>.Continuation
    public let inputs: AsyncStream<AnalyzerInput>

    public init() {
        (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
    }

    public func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
        do {
            guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
            try converter.convert(to: out, from: buffer)
            continuation.yield(AnalyzerInput(buffer: out))
        } catch {
            continuation.finish() // lint: input-finish-without-analyzer-finish
            onFailure?(error)
        }
    }
}
