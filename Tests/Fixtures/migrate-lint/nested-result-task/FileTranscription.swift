import AVFoundation
import Speech

/// A bridge for a callback API: an outer task runs the whole transcription; the results are read in a task inside it, kept and awaited before the callback.
final class FileTranscription {
    private var reading: Task<Void, Error>?

    func transcribe(_ file: AVAudioFile, done: @escaping ([String]) -> Void) {
        Task {
            let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            var lines: [String] = []
            self.reading = Task {
                for try await result in transcriber.results where result.isFinal {
                    lines.append(String(result.text.characters))
                }
            }
            if let last = try await analyzer.analyzeSequence(from: file) {
                try await analyzer.finalizeAndFinish(through: last)
            }
            try await self.reading?.value
            done(lines)
        }
    }
}
