/// Two versions of one live-transcription controller, written for these tests: `draft` makes the
/// mistakes of early migration guides (line numbers are checked), `corrected` follows the shipped API.
enum LintFixtures {
    static let draft = #"""
        import Speech

        final class DraftLive {
            var feed: AsyncStream<AnalyzerInput>.Continuation?
            let engine = AVAudioEngine()

            func start(locale: Locale) async throws {
                let all = await SpeechTranscriber.supportedLocales
                guard all.contains(locale) else { return }
                let transcriber = SpeechTranscriber(locale: locale, transcriptionOptions: [], reportingOptions: [.volatileResults], attributeOptions: [])
                // Allocation "must follow download" — said the draft.
                try await transcriber.allocate(locale: locale)
                let analyzer = SpeechAnalyzer(modules: [transcriber])
                let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                let (input, builder) = AsyncStream<AnalyzerInput>.makeStream()
                feed = builder
                try await analyzer.start(inputSequence: input)
                Task {
                    for try await piece in transcriber.results {
                        print(piece.isFinal ? "final \(piece.transcription)" : "live \(piece.transcription)")
                    }
                }
                print("using \(format.sampleRate) Hz")
            }

            func download(_ request: AssetInstallationRequest) async throws {
                for await step in request.progress { print(step) }
                try await request.downloadAndInstall()
            }

            func stop(locale: Locale) async {
                engine.inputNode.removeTap(onBus: 0); engine.stop()
                feed?.finish()
                feed = nil
                await AssetInventory.release(reservedLocale: locale)
            }

            func show(_ r: SpeechTranscriptionResult) {}
        }
        """#

    static let corrected = #"""
        import Speech

        /// Written to the shipped API: comments may say allocate(locale:) or SFSpeechRecognizer freely.
        @MainActor
        final class Live {
            private var feed: AsyncStream<AnalyzerInput>.Continuation?
            private var analyzer: SpeechAnalyzer?
            private var resultTask: Task<Void, Error>?
            private var ownsReservation = false
            private var reservedLocale: Locale?
            private let engine = AVAudioEngine()
            var finalText = AttributedString()
            var volatileText = AttributedString()

            func start(requested: Locale) async throws {
                guard SpeechTranscriber.isAvailable else { throw LiveError.unavailable }
                guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: requested) else { throw LiveError.unsupported("\(requested)") }
                ownsReservation = try await AssetInventory.reserve(locale: locale)
                reservedLocale = locale
                let transcriber = SpeechTranscriber(locale: locale, transcriptionOptions: [], reportingOptions: [.volatileResults], attributeOptions: [.audioTimeRange])
                if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
                    report(request.progress)
                    try await request.downloadAndInstall()
                }
                guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]) else { throw LiveError.noFormat }
                let analyzer = SpeechAnalyzer(modules: [transcriber])
                let (input, builder) = AsyncStream<AnalyzerInput>.makeStream()
                feed = builder
                self.analyzer = analyzer
                resultTask = Task {
                    for try await result in transcriber.results {
                        if result.isFinal { finalText += result.text; volatileText = AttributedString() } else { volatileText = result.text }
                    }
                }
                try await analyzer.start(inputSequence: input)
                print("analyzing at \(format.sampleRate) Hz: \("no \(String(finalText.characters)) yet")")
            }

            func report(_ progress: Progress) { print(progress.fractionCompleted) }

            func stop() async throws {
                engine.stop()
                feed?.finish()
                try await analyzer?.finalizeAndFinishThroughEndOfInput()
                try await resultTask?.value
                if ownsReservation, let locale = reservedLocale {
                    _ = await AssetInventory.release(reservedLocale: locale)
                    ownsReservation = false
                }
            }

            enum LiveError: Error { case unavailable, unsupported(String), noFormat }
        }
        """#
}
