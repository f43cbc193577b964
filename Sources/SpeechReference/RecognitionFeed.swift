@_spi(Harness) import AVFAudio
import SpeechCore

/// An input sequence as a recogniser pulls it: each pull hands the new buffer to recognition
/// and settles the one before it as consumed, so that whatever produced the buffers (a
/// fast-paced virtual microphone, through the buffers' capture leases) keeps pace with the
/// pulls. The analyzer reads its input through one and stops it when the session ends; it
/// knows nothing of what is behind the buffers.
struct RecognitionFeed<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == AnalyzerInput {
    typealias Element = AnalyzerInput

    let base: Base
    let progress: RecognitionProgress

    final class AsyncIterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private let progress: RecognitionProgress

        init(base: Base.AsyncIterator, progress: RecognitionProgress) {
            self.base = base
            self.progress = progress
        }

        func next() async throws -> AnalyzerInput? {
            // Asking for the next buffer means the last one has been analysed.
            progress.consumedLast()
            let input = try await base.next()
            if let input { progress.pulled(input.buffer) }
            return input
        }

        // The reader stopped (the sequence ended, or the session did): its last buffer is done.
        deinit { progress.consumedLast() }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), progress: progress)
    }
}

/// How far recognition has got with one input sequence's buffers: the last buffer pulled, and
/// whether the recogniser has stopped for good.
final class RecognitionProgress: Sendable {
    private let state = Locked<(last: AVAudioPCMBuffer?, stopped: Bool)>((nil, false))

    /// The buffer is on its way to recognition.
    fileprivate func pulled(_ buffer: AVAudioPCMBuffer) {
        buffer.handedToRecognition()
        state.withLock { $0.last = buffer }
    }

    /// The last buffer pulled has been analysed (once).
    fileprivate func consumedLast() {
        let (last, stopped) = state.withLock { state in
            defer { state.last = nil }
            return (state.last, state.stopped)
        }
        last?.consumedByRecognition()
        if stopped { last?.recognitionStopped() }
    }

    /// The recogniser has finished: what produced the buffers must not wait for it any more.
    func stop() {
        let last = state.withLock { state in
            state.stopped = true
            return state.last
        }
        last?.recognitionStopped()
    }
}
