extension UnguardedBestFormatRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "best-format-stored: the optional format is stored on the type and every read of it unwraps it",
            files: [
                (
                    "Feeder.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// The optional format is kept on the type and unwrapped where it is used: every read of the stored
                    /// property handles nil, so storing it was not a mistake.
                    final class Feeder {
                        private var analyzerFormat: AVAudioFormat?
                        private var fallbackFormat: AVAudioFormat?
                        private var continuation: AsyncStream<AnalyzerInput>.Continuation?

                        enum FeedError: Error { case notPrepared }

                        func prepare(_ transcriber: SpeechTranscriber) async {
                            analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                            let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber, transcriber])
                            self.fallbackFormat = format
                        }

                        func feed(_ buffer: AVAudioPCMBuffer) throws {
                            guard let continuation, let analyzerFormat else { throw FeedError.notPrepared }
                            let converter = AnalyzerInputConverter(analyzerFormat: analyzerFormat)
                            for input in try converter.convert(buffer, at: nil) { continuation.yield(input) }
                        }

                        func describe() -> String {
                            if let fallbackFormat { return "\(fallbackFormat.sampleRate) Hz" }
                            return "no format"
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "best-format-unread: the optional format stored on the type and never read anywhere (nothing uses it as present); the twin's other file force-unwraps it",
            files: [
                (
                    "Transcriber+Setup.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    extension Transcriber {
                        func setUp() async {
                            let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
                            analyzer = SpeechAnalyzer(modules: [transcriber])
                            analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                        }
                    }
                    """##
                ),
                (
                    "Transcriber.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Keeps the analyzer's format, and nothing reads it (buffers go in as they come: a mistake of another kind).
                    final class Transcriber {
                        var analyzer: SpeechAnalyzer?
                        var analyzerFormat: AVAudioFormat? = nil
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "the format taken as the fallback of `??`, whose result is still optional and is checked (held-out set 8's shape)",
            ##"""
            import AVFoundation
            import Speech

            func inputFormat(for module: SpeechTranscriber, input: AVAudioFormat) async throws -> AVAudioFormat {
                let preferred = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [module], considering: input)
                let secondary = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [module])
                let chosen = preferred ?? secondary
                guard let chosen else { throw CancellationError() }
                return chosen
            }
            """##
        ),
        LintExample(
            "unwrapped by `guard let` after a `case …:` label, into a local that shares a stored property's name (held-out set 10's shape)",
            ##"""
            import AVFoundation
            import Speech

            struct Session { let analyzerFormat: AVAudioFormat }

            final class Engine {
                private var analyzerFormat: AVAudioFormat?

                func make(transcriber: DictationTranscriber, input: AVAudioFormat?) async -> Session? {
                    let analyzerFormat: AVAudioFormat
                    switch input {
                    case let .some(inputFormat):
                        guard let best = await SpeechAnalyzer.bestAvailableAudioFormat(
                            compatibleWith: [transcriber], considering: inputFormat)
                        else { return nil }
                        analyzerFormat = best
                    case .none:
                        return nil
                    }
                    return Session(analyzerFormat: analyzerFormat)
                }

                func activate(_ session: Session) {
                    analyzerFormat = session.analyzerFormat
                }
            }
            """##
        ),
        LintExample(
            "a nested type's parameter shares the stored property's name; the property is handed to that labelled optional parameter (held-out set 12's shape)",
            ##"""
            import AVFoundation
            import Speech

            final class PlanDictation {
                private var analyzerFormat: AVAudioFormat?
                private let pipeline = Pipeline()

                func prepare(_ transcriber: SpeechTranscriber) async {
                    analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                }

                func start() async {
                    await pipeline.start(analyzerFormat: analyzerFormat)
                }

                actor Pipeline {
                    func start(analyzerFormat: AVAudioFormat?) {
                        print(analyzerFormat ?? AVAudioFormat())
                    }
                }
            }
            """##
        ),
    ]
    static let triggeringExamples: [LintExample] = [
        LintExample(
            "the fallback of `??` flows into a local that is force-unwrapped",
            ##"""
            import AVFoundation
            import Speech

            func converter(for module: SpeechTranscriber, input: AVAudioFormat) async -> AVAudioConverter? {
                let preferred = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [module], considering: input)
                let secondary = await SpeechAnalyzer.↓bestAvailableAudioFormat(compatibleWith: [module])
                let chosen = preferred ?? secondary
                return AVAudioConverter(from: input, to: chosen!)
            }
            """##
        ),
        LintExample(
            "best-format-stored-wrong: the optional format is stored on the type and every read of it unwraps it",
            files: [
                (
                    "Feeder.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// The twin of best-format-stored: the stored formats are read as if they were always there.
                    final class Feeder {
                        private var analyzerFormat: AVAudioFormat?
                        private var fallbackFormat: AVAudioFormat?
                        private var continuation: AsyncStream<AnalyzerInput>.Continuation?

                        func prepare(_ transcriber: SpeechTranscriber) async {
                            analyzerFormat = await SpeechAnalyzer.↓bestAvailableAudioFormat(compatibleWith: [transcriber])
                            let format = await SpeechAnalyzer.↓bestAvailableAudioFormat(compatibleWith: [transcriber, transcriber])
                            self.fallbackFormat = format
                        }

                        func feed(_ buffer: AVAudioPCMBuffer) throws {
                            let converter = AnalyzerInputConverter(analyzerFormat: analyzerFormat!)
                            for input in try converter.convert(buffer, at: nil) { continuation?.yield(input) }
                        }

                        func describe() -> String {
                            "\(fallbackFormat!.sampleRate) Hz"
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "best-format-unread-wrong: the optional format stored on the type and never read anywhere (nothing uses it as present); the twin's other file force-unwraps it",
            files: [
                (
                    "Transcriber+Setup.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    extension Transcriber {
                        func setUp() async {
                            let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
                            analyzer = SpeechAnalyzer(modules: [transcriber])
                            analyzerFormat = await SpeechAnalyzer.↓bestAvailableAudioFormat(compatibleWith: [transcriber])
                        }
                    }
                    """##
                ),
                (
                    "Transcriber.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Keeps the analyzer's format and converts each buffer to it, force-unwrapping it.
                    final class Transcriber {
                        var analyzer: SpeechAnalyzer?
                        var analyzerFormat: AVAudioFormat? = nil

                        func feed(_ buffer: AVAudioPCMBuffer) -> AVAudioConverter? {
                            AVAudioConverter(from: buffer.format, to: analyzerFormat!)
                        }
                    }
                    """##
                ),
            ]
        ),
    ]
}
