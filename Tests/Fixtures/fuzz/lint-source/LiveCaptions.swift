import AVFoundation
import Speech

/// The twin of analyzer-released: `reset()` only drops the analyzer (nothing finalizes or cancels
/// it), and the error handled is the converter's, which leaves the session running.
final class LiveCaptions {
    private var inputContinuation: AsyncStream<AnalyzerInput>.Continuation?
    private var analyzer: SpeechAnalyzer?
    private var converter: AnalyzerInputConverter?
    private var resultsTask: Task<Void, Never>?

    func append(_ buffer: AVAudioPCMBuffer) {
        do {
            for input in try converter?.convert(buffer, at: nil) ?? [] { inputContinuation?.yield(input) }
        } catch {
            inputContinuation?.finish() // lint: input-finish-without-analyzer-finish
        }
    }

    func reset() async {
        resultsTask?.cancel()
        analyzer = nil
        closeInput()
    }

    private func closeInput() {
        inputContinuation?.finish() // lint: input-finish-without-analyzer-finish
        inputContinuation = nil
    }
}
