import AVFoundation
import Speech

/// A library's microphone feed for a SpeechAnalyzer its user owns. A failed conversion ends the
/// input and goes to `onFailure`, which the app using the library sets; nothing here sets it, so
/// whether the app then finishes its analyzer cannot be read from these files.
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
            continuation.finish() // lint-note: input-finish-without-analyzer-finish
            onFailure?(error)
        }
    }
}
