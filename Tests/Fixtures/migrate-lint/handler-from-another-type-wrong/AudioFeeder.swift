import AVFoundation
import Speech

/// Converts and feeds buffers. On a conversion failure it ends the input and tells its owner,
/// through a handler the owner passed in; closing is the owner's call too.
final class AudioFeeder {
    private let continuation: AsyncStream<AnalyzerInput>.Continuation
    private let converter: AVAudioConverter
    private let onFailure: @Sendable (Error) -> Void

    init(
        continuation: AsyncStream<AnalyzerInput>.Continuation, converter: AVAudioConverter,
        onFailure: @escaping @Sendable (Error) -> Void
    ) {
        self.continuation = continuation
        self.converter = converter
        self.onFailure = onFailure
    }

    func feed(_ buffer: AVAudioPCMBuffer, as format: AVAudioFormat) {
        do {
            guard let converted = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
            try converter.convert(to: converted, from: buffer)
            continuation.yield(AnalyzerInput(buffer: converted))
        } catch {
            continuation.finish() // lint: input-finish-without-analyzer-finish
            onFailure(error)
        }
    }

    func close() {
        continuation.finish() // lint: input-finish-without-analyzer-finish
    }
}
