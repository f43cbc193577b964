import AVFoundation
import Speech

/// Teardown of the input after the analyzer is done with: `reset()` cancels and releases the
/// analyzer, then closes the input through a helper; and after the analyzer's own error the session
/// is already finished, so only the input is left to end.
final class LiveCaptions {
    private var inputContinuation: AsyncStream<AnalyzerInput>.Continuation?
    private var analyzer: SpeechAnalyzer?
    private var resultsTask: Task<Void, Never>?
    private(set) var lines: [String] = []

    func begin(with transcriber: SpeechTranscriber) async throws {
        let (sequence, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        inputContinuation = continuation
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        do {
            try await analyzer.start(inputSequence: sequence)
        } catch {
            continuation.finish()
            throw error
        }
        resultsTask = Task {
            do {
                for try await result in transcriber.results { lines.append(String(result.text.characters)) }
            } catch {
                inputContinuation?.finish()
            }
        }
    }

    func reset() async {
        resultsTask?.cancel()
        await analyzer?.cancelAndFinishNow()
        analyzer = nil
        closeInput()
    }

    private func closeInput() {
        inputContinuation?.finish()
        inputContinuation = nil
    }
}
