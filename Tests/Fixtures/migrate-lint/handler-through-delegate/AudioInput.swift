import AVFoundation
import Speech

/// What the input tells its owner.
protocol AudioInputDelegate: AnyObject {
    func audioInput(_ input: AudioInput, didFailWith error: Error)
}

/// Converts microphone buffers for the analyzer; a conversion failure ends the input and goes to
/// the delegate.
final class AudioInput {
    weak var delegate: AudioInputDelegate?
    private let continuation: AsyncStream<AnalyzerInput>.Continuation

    init(continuation: AsyncStream<AnalyzerInput>.Continuation) {
        self.continuation = continuation
    }

    func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
        do {
            guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
            try converter.convert(to: out, from: buffer)
            continuation.yield(AnalyzerInput(buffer: out))
        } catch {
            continuation.finish()
            delegate?.audioInput(self, didFailWith: error)
        }
    }
}
