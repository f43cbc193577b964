extension UntrackedResultTaskRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "nested-result-task: an outer task bridges a callback API and reads the results in a task inside it, kept and awaited; the twin's inner task is kept by nothing, and only it is reported",
            files: [
                (
                    "FileTranscription.swift",
                    ##"""
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
                    """##
                )
            ]
        ),
        LintExample(
            "returned-task: the task reading results is what a helper returns (`-> Task<Void, Never>`, its only statement), and the caller keeps it (held-out set 4's preview); the twin's helper returns nothing",
            files: [
                (
                    "Collector.swift",
                    ##"""
                    import Speech

                    /// Reads the transcriber's results in a task a helper makes and returns; the session keeps it.
                    final class Collector {
                        private var collector: Task<Void, Never>?
                        private(set) var text = ""

                        func begin(_ transcriber: SpeechTranscriber) {
                            collector = Self.collect(from: transcriber) { [weak self] piece in self?.text += piece }
                        }

                        func end() async {
                            await collector?.value
                            collector = nil
                        }

                        private static func collect(
                            from transcriber: SpeechTranscriber, onText: @escaping @Sendable (String) -> Void
                        ) -> Task<Void, Never> {
                            Task {
                                do {
                                    for try await result in transcriber.results where result.isFinal {
                                        onText(String(result.text.characters))
                                    }
                                } catch {
                                    onText("")
                                }
                            }
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "a Vision request's `results`, read synchronously in a file that does not import Speech (held-out set 10's shape)",
            ##"""
            import Vision

            final class TextReader {
                func read(_ image: CGImage) {
                    Task {
                        let request = VNRecognizeTextRequest()
                        try? VNImageRequestHandler(cgImage: image).perform([request])
                        print(request.results?.count ?? 0)
                    }
                }
            }
            """##
        ),
    ]
    static let triggeringExamples: [LintExample] = [
        LintExample(
            "nested-result-task-wrong: an outer task bridges a callback API and reads the results in a task inside it, kept and awaited; the twin's inner task is kept by nothing, and only it is reported",
            files: [
                (
                    "FileTranscription.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// A bridge for a callback API: an outer task runs the whole transcription; the results are read in a task inside it that nothing keeps, so the last ones may come after the callback.
                    final class FileTranscription {
                        private var reading: Task<Void, Error>?

                        func transcribe(_ file: AVAudioFile, done: @escaping ([String]) -> Void) {
                            Task {
                                let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
                                let analyzer = SpeechAnalyzer(modules: [transcriber])
                                var lines: [String] = []
                                ↓Task {
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
                    """##
                )
            ]
        ),
        LintExample(
            "returned-task-wrong: the task reading results is what a helper returns (`-> Task<Void, Never>`, its only statement), and the caller keeps it (held-out set 4's preview); the twin's helper returns nothing",
            files: [
                (
                    "Collector.swift",
                    ##"""
                    import Speech

                    /// The twin of returned-task: the helper starts the task and returns nothing, so nothing keeps it.
                    final class Collector {
                        private var collector: Task<Void, Never>?
                        private(set) var text = ""

                        func begin(_ transcriber: SpeechTranscriber) {
                            Self.collect(from: transcriber) { [weak self] piece in self?.text += piece }
                        }

                        func end() async {
                            await collector?.value
                            collector = nil
                        }

                        private static func collect(
                            from transcriber: SpeechTranscriber, onText: @escaping @Sendable (String) -> Void
                        ) {
                            ↓Task {
                                do {
                                    for try await result in transcriber.results where result.isFinal {
                                        onText(String(result.text.characters))
                                    }
                                } catch {
                                    onText("")
                                }
                            }
                        }
                    }
                    """##
                )
            ]
        ),
    ]
}
