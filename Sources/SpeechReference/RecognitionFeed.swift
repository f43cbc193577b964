@_spi(Harness) import AVFAudio
import SpeechCore

/// An input sequence as a recogniser pulls it: each pull hands the new buffer to recognition
/// and settles the one before it as consumed, so that whatever produced the buffers (a
/// fast-paced virtual microphone, through the buffers' capture leases) keeps pace with the
/// pulls. The analyzer reads its input through one and stops it when the session ends; it
/// knows nothing of what is behind the buffers.
struct RecognitionFeed<Base: AsyncSequence & Sendable>: AsyncSequence where Base.Element == AnalyzerInput {
    typealias Element = AnalyzerInput
    typealias Failure = Base.Failure

    let base: Base
    let progress: RecognitionHandoff

    final class AsyncIterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private let progress: RecognitionHandoff

        init(base: Base.AsyncIterator, progress: RecognitionHandoff) {
            self.base = base
            self.progress = progress
        }

        /// Pulled in the reader's isolation (the analyzer's), so a pull costs no executor hop.
        func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Base.Failure) -> AnalyzerInput? {
            // Asking for the next buffer means the last one has been analysed.
            progress.consumedLast()
            let input = try await base.next(isolation: actor)
            if let input { progress.pulled(input.storedBuffer) }
            return input
        }

        func next() async throws -> AnalyzerInput? {
            try await next(isolation: nil)
        }

        // The reader stopped (the sequence ended, or the session did): its last buffer is done.
        deinit { progress.consumedLast() }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), progress: progress)
    }
}

/// How far recognition has got with one input sequence's buffers: the last buffer pulled, and
/// whether the recogniser has stopped for good. Used only in the analyzer's isolation (its reader
/// pulls there and its session ends there), so it needs no lock.
final class RecognitionHandoff {
    private var last: AVAudioPCMBuffer?
    private var stopped = false

    /// The buffer is on its way to recognition.
    fileprivate func pulled(_ buffer: AVAudioPCMBuffer) {
        buffer.handedToRecognition()
        last = buffer
    }

    /// The last buffer pulled has been analysed (once).
    fileprivate func consumedLast() {
        guard let buffer = last else { return }
        last = nil
        buffer.consumedByRecognition()
        if stopped { buffer.recognitionStopped() }
    }

    /// The recogniser has finished: what produced the buffers must not wait for it any more.
    func stop() {
        stopped = true
        last?.recognitionStopped()
    }
}
