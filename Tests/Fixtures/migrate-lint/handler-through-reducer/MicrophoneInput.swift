import AVFoundation
import Speech

/// Feeds converted buffers; on a failure it ends the input and reports through its handler.
final class MicrophoneInput {
    private let continuation: AsyncStream<AnalyzerInput>.Continuation
    private let onError: @Sendable (Error) -> Void

    init(continuation: AsyncStream<AnalyzerInput>.Continuation, onError: @escaping @Sendable (Error) -> Void) {
        self.continuation = continuation
        self.onError = onError
    }

    func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
        do {
            guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
            try converter.convert(to: out, from: buffer)
            continuation.yield(AnalyzerInput(buffer: out))
        } catch {
            continuation.finish()
            onError(error)
        }
    }
}
