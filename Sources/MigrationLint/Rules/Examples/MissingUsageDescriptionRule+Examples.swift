extension MissingUsageDescriptionRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "ios-live-transcription: an iOS app (its Info.plist has `UILaunchScreen`) that taps the microphone into SpeechAnalyzer declares both keys, as the migration guide asks; its twin only the microphone's",
            files: [
                (
                    "Notes/LiveNotes.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// An iOS app's live dictation: the microphone tapped, converted and fed to SpeechAnalyzer.
                    final class LiveNotes {
                        private let engine = AVAudioEngine()
                        private var feed: AsyncStream<AnalyzerInput>.Continuation?
                        private var analyzer: SpeechAnalyzer?
                        private var results: Task<Void, Error>?

                        func start() async throws {
                            let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            let (input, feed) = AsyncStream.makeStream(of: AnalyzerInput.self)
                            self.feed = feed
                            engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in
                                feed.yield(AnalyzerInput(buffer: buffer))
                            }
                            try engine.start()
                            try await analyzer.start(inputSequence: input)
                            results = Task {
                                for try await result in transcriber.results { print(result.text) }
                            }
                        }

                        func stop() async throws {
                            engine.stop()
                            feed?.finish()
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                            try await results?.value
                        }
                    }
                    """##
                )
            ],
            project: ProjectContext(
                appTarget: "Notes/Info.plist",
                usageDescriptionKeys: ["NSMicrophoneUsageDescription", "NSSpeechRecognitionUsageDescription"],
                iOSApp: "UILaunchScreen in Notes/Info.plist")
        ),
        LintExample(
            "engine-for-playback: an app plays clips through an AVAudioEngine and transcribes files, never touching the microphone: no microphone key needed; the twin also taps the engine's input node",
            files: [
                (
                    "Clips/ClipPlayer.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Plays imported clips through an audio engine and transcribes their files: the engine never touches the microphone.
                    final class ClipPlayer {
                        private let engine = AVAudioEngine()
                        private let player = AVAudioPlayerNode()

                        func play(_ file: AVAudioFile) throws {
                            engine.attach(player)
                            engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
                            try engine.start()
                            player.scheduleFile(file, at: nil)
                            player.play()
                        }

                        func transcribe(_ url: URL) {
                            SFSpeechRecognizer()?.recognitionTask(with: SFSpeechURLRecognitionRequest(url: url)) { _, _ in }
                        }
                    }
                    """##
                )
            ],
            project: ProjectContext(
                appTarget: "Clips/Info.plist", usageDescriptionKeys: ["NSSpeechRecognitionUsageDescription"])
        ),
    ]
    static let triggeringExamples: [LintExample] = [
        LintExample(
            "ios-live-transcription-wrong: an iOS app (its Info.plist has `UILaunchScreen`) that taps the microphone into SpeechAnalyzer declares both keys, as the migration guide asks; its twin only the microphone's",
            files: [
                (
                    "Notes/LiveNotes.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// An iOS app's live dictation: the microphone tapped, converted and fed to SpeechAnalyzer.
                    final class LiveNotes {
                        private let engine = ↓AVAudioEngine()
                        private var feed: AsyncStream<AnalyzerInput>.Continuation?
                        private var analyzer: SpeechAnalyzer?
                        private var results: Task<Void, Error>?

                        func start() async throws {
                            let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            let (input, feed) = AsyncStream.makeStream(of: AnalyzerInput.self)
                            self.feed = feed
                            engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in
                                feed.yield(AnalyzerInput(buffer: buffer))
                            }
                            try engine.start()
                            try await analyzer.start(inputSequence: input)
                            results = Task {
                                for try await result in transcriber.results { print(result.text) }
                            }
                        }

                        func stop() async throws {
                            engine.stop()
                            feed?.finish()
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                            try await results?.value
                        }
                    }
                    """##
                )
            ],
            project: ProjectContext(
                appTarget: "Notes/Info.plist", usageDescriptionKeys: ["NSMicrophoneUsageDescription"],
                iOSApp: "UILaunchScreen in Notes/Info.plist")
        ),
        LintExample(
            "engine-for-playback-wrong: an app plays clips through an AVAudioEngine and transcribes files, never touching the microphone: no microphone key needed; the twin also taps the engine's input node",
            files: [
                (
                    "Clips/ClipPlayer.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Plays imported clips and transcribes their files; it also taps the microphone, which the Info.plist does not declare.
                    final class ClipPlayer {
                        private let engine = ↓AVAudioEngine()
                        private let player = AVAudioPlayerNode()

                        func play(_ file: AVAudioFile) throws {
                            engine.attach(player)
                            engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
                            try engine.start()
                            player.scheduleFile(file, at: nil)
                            player.play()
                        }

                        func transcribe(_ url: URL) {
                            SFSpeechRecognizer()?.recognitionTask(with: SFSpeechURLRecognitionRequest(url: url)) { _, _ in }
                        }

                        func listen() throws {
                            engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { _, _ in }
                            try engine.start()
                        }
                    }
                    """##
                )
            ],
            project: ProjectContext(
                appTarget: "Clips/Info.plist", usageDescriptionKeys: ["NSSpeechRecognitionUsageDescription"])
        ),
    ]
}
