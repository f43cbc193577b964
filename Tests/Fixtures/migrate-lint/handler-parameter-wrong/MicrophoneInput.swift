import AVFoundation
import Speech

/// Feeds converted buffers; a failure ends the input and goes to the handler it was made with.
final class MicrophoneInput {
    private let continuation: AsyncStream<AnalyzerInput>.Continuation
    private let failureHandler: @Sendable (Error) -> Void

    init(continuation: AsyncStream<AnalyzerInput>.Continuation, failureHandler: @escaping @Sendable (Error) -> Void) {
        self.continuation = continuation
        self.failureHandler = failureHandler
    }

    func receive(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
        do {
            guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
            try converter.convert(to: out, from: buffer)
            continuation.yield(AnalyzerInput(buffer: out))
        } catch {
            continuation.finish() // lint: input-finish-without-analyzer-finish
            failureHandler(error)
        }
    }
}
