// One file: the examples of input-finish-without-analyzer-finish, each a small program written for the lint's tests, with
// its twin; long because the programs are whole.

extension InputFinishWithoutAnalyzerFinishRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "the caller reaches the type through an `as?` cast and calls its method that cancels the analyzer (held-out set 7's shape)",
            files: [
                (
                    "Engine.swift",
                    ##"""
                    import Speech

                    final class AnalyzerEngine {
                        private var inputContinuation: AsyncStream<AnalyzerInput>.Continuation?
                        private var analyzer: SpeechAnalyzer?

                        func finishAudioInput() { inputContinuation?.finish() }

                        func stopSession() async {
                            await analyzer?.cancelAndFinishNow()
                            analyzer = nil
                        }
                    }
                    """##
                ),
                (
                    "Recorder.swift",
                    ##"""
                    final class Recorder {
                        var engine: AnyObject?

                        func stop() {
                            if let engine = engine as? AnalyzerEngine {
                                Task {
                                    engine.finishAudioInput()
                                    await engine.stopSession()
                                }
                            }
                        }
                    }
                    """##
                ),
            ]),
        LintExample(
            "a stream built with a closure in a function returning AsyncStream<Float>: its continuation is not the analyzer's input, whatever it is called (held-out shape)",
            ##"""
            import Speech

            final class Meter {
                private var continuation: AsyncStream<Float>.Continuation?
                let analyzer = SpeechAnalyzer(modules: [])
                var input: AsyncStream<AnalyzerInput>?

                func levels() -> AsyncStream<Float> {
                    AsyncStream { continuation in self.continuation = continuation }
                }

                func stopMetering() { continuation?.finish() }
            }
            """##),
        LintExample(
            "the input ended in a `catch` whose every throwing call comes before the analyzer starts: no session ran (held-out shape)",
            ##"""
            import Speech

            final class Live {
                private var analyzer: SpeechAnalyzer?

                func begin(_ transcriber: SpeechTranscriber) async {
                    let (input, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                    do {
                        guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                        else { throw CancellationError() }
                        try await ensureModel(for: transcriber, format: format)
                        let analyzer = SpeechAnalyzer(modules: [transcriber])
                        self.analyzer = analyzer
                        try await analyzer.start(inputSequence: input)
                    } catch {
                        continuation.finish()
                    }
                }
            }
            """##),
        LintExample(
            "caller-finishes: a helper ends the input; its caller awaits the analyzer's finish next",
            files: [
                (
                    "Dictation.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Stopping is split in two: `stopAudio()` ends the input, and every caller finishes the analyzer
                    /// right after it. Each function alone looks incomplete; the type as a whole is right.
                    @MainActor
                    final class Dictation {
                        private var inputBuilder: AsyncStream<AnalyzerInput>.Continuation?
                        private var analyzer: SpeechAnalyzer?
                        private let audioEngine = AVAudioEngine()
                        private(set) var isRecording = false

                        func start(with transcriber: SpeechTranscriber) async throws {
                            let (sequence, builder) = AsyncStream<AnalyzerInput>.makeStream()
                            inputBuilder = builder
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            try await analyzer.start(inputSequence: sequence)
                            isRecording = true
                        }

                        private func stopAudio() {
                            audioEngine.stop()
                            audioEngine.inputNode.removeTap(onBus: 0)
                            inputBuilder?.finish()
                            isRecording = false
                        }

                        func stop() async throws {
                            stopAudio()
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }

                        /// Reached through `stop()`: two calls deep, still finished.
                        func toggle() async throws {
                            if isRecording { try await stop() }
                        }
                    }

                    extension Dictation {
                        /// The same type, declared in an extension.
                        func abandon() async {
                            self.stopAudio()
                            await analyzer?.cancelAndFinishNow()
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "failure-handler: a failure path ends the input and calls a handler (a method or a stored closure) that cancels the analyzer",
            files: [
                (
                    "Session.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Failure paths end the input and hand over to code whose job is to cancel the analyzer: a
                    /// stored closure set up in `init`, and a method that tears down through another method.
                    final class Session {
                        private var continuation: AsyncStream<AnalyzerInput>.Continuation?
                        private var analyzer: SpeechAnalyzer?
                        private let converter: AnalyzerInputConverter
                        private var onFailure: (() async -> Void)?

                        init(analyzer: SpeechAnalyzer, format: AVAudioFormat) {
                            self.analyzer = analyzer
                            converter = AnalyzerInputConverter(analyzerFormat: format)
                            onFailure = { [weak self] in
                                await self?.analyzer?.cancelAndFinishNow()
                            }
                        }

                        func feed(_ buffer: AVAudioPCMBuffer) async {
                            do {
                                for input in try converter.convert(buffer, at: nil) { continuation?.yield(input) }
                            } catch {
                                continuation?.finish()
                                await onFailure?()
                            }
                        }

                        func interrupted() async {
                            continuation?.finish()
                            await fail(reason: "audio session interrupted")
                        }

                        private func fail(reason: String) async {
                            print("transcription stopped: \(reason)")
                            await tearDown()
                        }

                        private func tearDown() async {
                            await analyzer?.cancelAndFinishNow()
                            analyzer = nil
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "analyzer-released: the input is closed after the analyzer was cancelled and released, or after its own error already finished the session",
            files: [
                (
                    "LiveCaptions.swift",
                    ##"""
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
                    """##
                )
            ]
        ),
        LintExample(
            "cross-type-caller: a capture type's `stop()` ends the input; another type holds it in a local and, in a detached task, calls `capture.stop()` and finishes the analyzer",
            files: [
                (
                    "AudioCapture.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Microphone capture that feeds the analyzer's input. It does not own the analyzer: whoever
                    /// holds it stops it and then finishes the analyzer.
                    final class AudioCapture: @unchecked Sendable {
                        let inputs: AsyncStream<AnalyzerInput>
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        private let engine = AVAudioEngine()

                        init() {
                            (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                        }

                        func start() throws {
                            let continuation = self.continuation
                            engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in
                                continuation.yield(AnalyzerInput(buffer: buffer))
                            }
                            try engine.start()
                        }

                        func stop() {
                            engine.stop()
                            engine.inputNode.removeTap(onBus: 0)
                            continuation.finish()
                        }
                    }
                    """##
                ),
                (
                    "RecordingController.swift",
                    ##"""
                    import Speech

                    /// Holds the capture in a local; stopping it and finishing the analyzer happen together, in a
                    /// detached task.
                    final class RecordingController {
                        private let analyzer: SpeechAnalyzer

                        init(transcriber: SpeechTranscriber) {
                            analyzer = SpeechAnalyzer(modules: [transcriber])
                        }

                        func record(for seconds: Double) async throws {
                            let capture = AudioCapture()
                            try capture.start()
                            try await analyzer.start(inputSequence: capture.inputs)
                            try await Task.sleep(for: .seconds(seconds))
                            let analyzer = self.analyzer
                            let done = Task.detached {
                                capture.stop()
                                try await analyzer.finalizeAndFinishThroughEndOfInput()
                            }
                            try await done.value
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "handler-from-another-type: a feeder's failure path ends the input and calls a handler the owning type passed in, whose closure cancels the analyzer; the owner finishes the analyzer before closing the feeder",
            files: [
                (
                    "AudioFeeder.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Converts and feeds buffers. On a conversion failure it ends the input and tells its owner,
                    /// through a handler the owner passed in; closing is the owner's call too.
                    final class AudioFeeder {
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        private let converter: AVAudioConverter
                        private let onFailure: @Sendable (Error) -> Void

                        init(
                            continuation: AsyncStream<AnalyzerInput>.Continuation, converter: AVAudioConverter,
                            onFailure: @escaping @Sendable (Error) -> Void
                        ) {
                            self.continuation = continuation
                            self.converter = converter
                            self.onFailure = onFailure
                        }

                        func feed(_ buffer: AVAudioPCMBuffer, as format: AVAudioFormat) {
                            do {
                                guard let converted = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: converted, from: buffer)
                                continuation.yield(AnalyzerInput(buffer: converted))
                            } catch {
                                continuation.finish()
                                onFailure(error)
                            }
                        }

                        func close() {
                            continuation.finish()
                        }
                    }
                    """##
                ),
                (
                    "TranscriptionSession.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Owns the analyzer: the feeder's failure handler cancels it, and `stop()` finishes it before
                    /// closing the feeder.
                    @MainActor
                    final class TranscriptionSession {
                        private var analyzer: SpeechAnalyzer?
                        private var feeder: AudioFeeder?

                        func start(with transcriber: SpeechTranscriber, converter: AVAudioConverter) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            feeder = AudioFeeder(
                                continuation: continuation, converter: converter,
                                onFailure: { [weak self] _ in
                                    Task { await self?.abort() }
                                })
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func abort() async {
                            await analyzer?.cancelAndFinishNow()
                        }

                        func stop() async throws {
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                            feeder?.close()
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "reused-analyzer: one analyzer kept in a stored `let` for the type's life: stopping ends the current input only, and the next recording starts it again; the twin makes an analyzer per recording and drops it unfinished",
            files: [
                (
                    "Dictation.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// One analyzer for the app's life: each recording feeds it a new input sequence, and stopping
                    /// ends that sequence only, leaving the analyzer for the next recording.
                    final class Dictation {
                        private let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
                        private let analyzer: SpeechAnalyzer
                        private var feed: AsyncStream<AnalyzerInput>.Continuation?

                        init() {
                            analyzer = SpeechAnalyzer(modules: [transcriber])
                        }

                        func record(_ buffers: [AVAudioPCMBuffer]) async throws {
                            let (input, feed) = AsyncStream.makeStream(of: AnalyzerInput.self)
                            self.feed = feed
                            try await analyzer.start(inputSequence: input)
                            for buffer in buffers { feed.yield(AnalyzerInput(buffer: buffer)) }
                        }

                        func stop() {
                            feed?.finish()
                            feed = nil
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "handler-two-levels: an input's failure path ends the input and calls its `onError`, which the service in between fills with its own `failureHandler`, which the controller passes as a closure that cancels the analyzer; the twin's closure only records the error",
            files: [
                (
                    "Controller.swift",
                    ##"""
                    import Speech

                    /// Owns the analyzer: a failure anywhere below cancels it.
                    @MainActor
                    final class Controller {
                        private var analyzer: SpeechAnalyzer?
                        private var service: RecognitionService?

                        func start(_ transcriber: SpeechTranscriber) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            let service = RecognitionService(failureHandler: { [weak self] _ in
                                Task { @MainActor in await self?.analyzer?.cancelAndFinishNow() }
                            })
                            self.service = service
                            service.start(continuation: continuation)
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func stop() async throws {
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }
                    }
                    """##
                ),
                (
                    "Input.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Feeds buffers; on a conversion failure it ends the input and reports through its handler.
                    final class AudioInput {
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        private let onError: @Sendable (Error) -> Void

                        init(continuation: AsyncStream<AnalyzerInput>.Continuation, onError: @escaping @Sendable (Error) -> Void) {
                            self.continuation = continuation
                            self.onError = onError
                        }

                        func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
                            do {
                                guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: out, from: buffer)
                                continuation.yield(AnalyzerInput(buffer: out))
                            } catch {
                                continuation.finish()
                                onError(error)
                            }
                        }
                    }
                    """##
                ),
                (
                    "Service.swift",
                    ##"""
                    import Speech

                    /// Owns the input; passes failures up through the handler its owner gave it.
                    final class RecognitionService {
                        private let failureHandler: @Sendable (Error) -> Void
                        private var input: AudioInput?

                        init(failureHandler: @escaping @Sendable (Error) -> Void) {
                            self.failureHandler = failureHandler
                        }

                        func start(continuation: AsyncStream<AnalyzerInput>.Continuation) {
                            input = AudioInput(continuation: continuation, onError: failureHandler)
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "handler-through-delegate: an input's failure path ends the input and tells its delegate (`delegate?.audioInput(_:didFailWith:)`, a protocol of the app), whose one adopter, the controller, cancels the analyzer; the twin's delegate only shows the failure",
            files: [
                (
                    "AudioInput.swift",
                    ##"""
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
                    """##
                ),
                (
                    "TranscriptionController.swift",
                    ##"""
                    import Speech

                    /// Owns the analyzer and is its input's delegate: a failed input cancels the analysis.
                    @MainActor
                    final class TranscriptionController {
                        private var analyzer: SpeechAnalyzer?
                        private var input: AudioInput?
                        private(set) var status = "idle"

                        func start(_ transcriber: SpeechTranscriber) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            let input = AudioInput(continuation: continuation)
                            input.delegate = self
                            self.input = input
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func stop() async throws {
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }
                    }

                    extension TranscriptionController: AudioInputDelegate {
                        nonisolated func audioInput(_ input: AudioInput, didFailWith error: Error) {
                            Task { @MainActor in
                                status = "failed: \(error)"
                                await analyzer?.cancelAndFinishNow()
                            }
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "handler-through-reducer: three levels: the input's `onError`, the service's `failureHandler`, the model's closure, which sends `.recognitionFailed` to a state machine whose `switch` case cancels the analyzer (another case finalizes it, which does not count for this action); the twin's case only changes the state",
            files: [
                (
                    "DictationModel.swift",
                    ##"""
                    import Speech

                    /// A state machine over the analyzer: events come in as actions, and `send` decides what each one
                    /// does. A failure from below arrives as `.recognitionFailed` and cancels the analysis.
                    @MainActor
                    final class DictationModel {
                        enum Action {
                            case startTapped(SpeechTranscriber)
                            case stopTapped
                            case recognitionFailed(Error)
                        }

                        enum State { case idle, listening, failed(String) }

                        private(set) var state = State.idle
                        private var analyzer: SpeechAnalyzer?
                        private var service: RecognitionService?

                        func send(_ action: Action) {
                            switch action {
                            case .startTapped(let transcriber):
                                state = .listening
                                Task { try await begin(transcriber) }
                            case .stopTapped:
                                state = .idle
                                Task { try await analyzer?.finalizeAndFinishThroughEndOfInput() }
                            case .recognitionFailed(let error):
                                state = .failed("\(error)")
                                Task { await analyzer?.cancelAndFinishNow() }
                            }
                        }

                        private func begin(_ transcriber: SpeechTranscriber) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            let service = RecognitionService(failureHandler: { [weak self] error in
                                Task { @MainActor in self?.send(.recognitionFailed(error)) }
                            })
                            self.service = service
                            service.start(continuation: continuation)
                            try await analyzer.start(inputSequence: inputs)
                        }
                    }
                    """##
                ),
                (
                    "MicrophoneInput.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Feeds converted buffers; on a failure it ends the input and reports through its handler.
                    final class MicrophoneInput {
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        private let onError: @Sendable (Error) -> Void

                        init(continuation: AsyncStream<AnalyzerInput>.Continuation, onError: @escaping @Sendable (Error) -> Void) {
                            self.continuation = continuation
                            self.onError = onError
                        }

                        func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
                            do {
                                guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: out, from: buffer)
                                continuation.yield(AnalyzerInput(buffer: out))
                            } catch {
                                continuation.finish()
                                onError(error)
                            }
                        }
                    }
                    """##
                ),
                (
                    "RecognitionService.swift",
                    ##"""
                    import Speech

                    /// Owns the input; hands its failures up through the handler its owner gave it.
                    final class RecognitionService {
                        private let failureHandler: @Sendable (Error) -> Void
                        private var input: MicrophoneInput?

                        init(failureHandler: @escaping @Sendable (Error) -> Void) {
                            self.failureHandler = failureHandler
                        }

                        func start(continuation: AsyncStream<AnalyzerInput>.Continuation) {
                            input = MicrophoneInput(continuation: continuation, onError: failureHandler)
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "level-stream: a stream of input levels (`AsyncStream<Double>.Continuation`) given a closure parameter named like the input's continuation, ended alone (held-out set 4's assistant); the twin's second stream is the analyzer's input",
            files: [
                (
                    "LiveListener.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Feeds the analyzer from the microphone and publishes input levels on a stream of its own. The
                    /// level stream's continuation is handed a closure parameter named like the input's; ending it
                    /// leaves the analyzer alone.
                    actor LiveListener {
                        private var analyzer: SpeechAnalyzer?
                        private var input: AsyncStream<AnalyzerInput>.Continuation?
                        private var levelContinuation: AsyncStream<Double>.Continuation?

                        func levels() -> AsyncStream<Double> {
                            AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
                                levelContinuation?.finish()
                                levelContinuation = continuation
                            }
                        }

                        func start(_ transcriber: SpeechTranscriber) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            input = continuation
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func stop() async throws {
                            input?.finish()
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "the sink kept as `AnyObject?` and finished through `(sink as? InputSink)?.finish()` by a caller that then finishes the analyzer (held-out set 8's shape)",
            files: [
                (
                    "InputSink.swift",
                    ##"""
                    import Speech

                    final class InputSink: @unchecked Sendable {
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        init(continuation: AsyncStream<AnalyzerInput>.Continuation) { self.continuation = continuation }
                        func finish() { continuation.finish() }
                    }
                    """##
                ),
                (
                    "Dictation.swift",
                    ##"""
                    import Speech

                    final class Dictation {
                        var sinkObject: AnyObject?
                        var analyzer: SpeechAnalyzer?

                        func stop() async throws {
                            (sinkObject as? InputSink)?.finish()
                            sinkObject = nil
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "a static helper ends a finite input and is called as `Self.helper(…)` by a method that finishes the analyzer (held-out set 9's shape)",
            ##"""
            import AVFAudio
            import Speech

            final class Runner {
                let analyzer: SpeechAnalyzer
                init(analyzer: SpeechAnalyzer) { self.analyzer = analyzer }

                static func singleBuffer(_ buffer: AVAudioPCMBuffer) -> AsyncStream<AnalyzerInput> {
                    AsyncStream { continuation in
                        continuation.yield(AnalyzerInput(buffer: buffer))
                        continuation.finish()
                    }
                }

                func run(_ buffer: AVAudioPCMBuffer) async throws {
                    _ = try await analyzer.analyzeSequence(Self.singleBuffer(buffer))
                    try await analyzer.finalizeAndFinishThroughEndOfInput()
                }

                func runAgain(_ buffer: AVAudioPCMBuffer) async throws {
                    _ = try await analyzer.analyzeSequence(Runner.singleBuffer(buffer))
                    await analyzer.cancelAndFinishNow()
                }
            }
            """##
        ),
        LintExample(
            "ending a stream of raw sample tuples, read from its declaration (held-out set 10's shape)",
            ##"""
            import Speech

            final class Feeder {
                private let rawContinuation: AsyncStream<(samples: [Float], sampleRate: Double)>.Continuation
                var analyzer: SpeechAnalyzer?

                init() {
                    let (_, continuation) = AsyncStream<(samples: [Float], sampleRate: Double)>.makeStream()
                    rawContinuation = continuation
                }

                func finish() {
                    rawContinuation.finish()
                }
            }
            """##
        ),
        LintExample(
            "the input's finish() is also called by test API (`@_spi(Testing)`), twice in one fixture, and from a test file; the app's own stop finishes the analyzer (held-out set 11's shape)",
            files: [
                (
                    "Sources/Intake.swift",
                    ##"""
                    import Speech

                    final class Intake: @unchecked Sendable {
                        let inputs: AsyncStream<AnalyzerInput>
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        init() { (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream() }
                        func finish() { continuation.finish() }
                    }
                    """##
                ),
                (
                    "Sources/Service.swift",
                    ##"""
                    import Speech

                    public final class Service {
                        private var analyzer: SpeechAnalyzer?
                        private var intake: Intake?

                        public func stop() async throws {
                            intake?.finish()
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }

                        @_spi(Testing)
                        public func runFixture() {
                            let intake = Intake()
                            intake.finish()
                            let again = Intake()
                            again.finish()
                        }
                    }
                    """##
                ),
                (
                    "Tests/ServiceTests/IntakeTests.swift",
                    ##"""
                    import Testing

                    @Test func finishEndsTheStream() {
                        let intake = Intake()
                        intake.finish()
                    }
                    """##
                ),
            ]
        ),
    ]
    static let triggeringExamples: [LintExample] = [
        LintExample(
            "the element type written with its module (`Speech.AnalyzerInput`) is the analyzer's input too",
            ##"""
            import Speech

            final class Feed {
                private var continuation: AsyncStream<Speech.AnalyzerInput>.Continuation?
                private var analyzer: SpeechAnalyzer?

                func stop() {
                    continuation?.↓finish()
                    analyzer = nil
                }
            }
            """##),
        LintExample(
            "a stream whose element type the function's return type gives: its continuation ended alone",
            ##"""
            import Speech

            final class Feed {
                private var continuation: AsyncStream<AnalyzerInput>.Continuation?
                private var analyzer: SpeechAnalyzer?

                func makeInput() -> AsyncStream<AnalyzerInput> {
                    AsyncStream { continuation in self.continuation = continuation }
                }

                func stop() {
                    continuation?.↓finish()
                    analyzer = nil
                }
            }
            """##),
        LintExample(
            "a continuation only its name ties to the analyzer (its declaration is in another module): noted, not judged",
            ##"""
            import Speech
            import AudioPipeline

            final class Recorder {
                var inputContinuation: PipelineContinuation?
                var input: (any AsyncSequence<AnalyzerInput, Never>)?

                func stop() { inputContinuation?.⇣finish() }
            }
            """##),
        LintExample(
            "the twin of the `catch` case: the error can come after the analyzer started",
            ##"""
            import Speech

            final class Live {
                private var analyzer: SpeechAnalyzer?

                func begin(_ transcriber: SpeechTranscriber, file: AVAudioFile) async {
                    let (input, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                    do {
                        let analyzer = SpeechAnalyzer(modules: [transcriber])
                        self.analyzer = analyzer
                        try await analyzer.start(inputSequence: input)
                        try await feed(file, into: continuation)
                    } catch {
                        continuation.↓finish()
                    }
                }
            }
            """##),
        LintExample(
            "caller-finishes-wrong: a helper ends the input; its caller awaits the analyzer's finish next",
            files: [
                (
                    "Dictation.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// The twin of caller-finishes: `pause()` calls the same helper and never finishes the analyzer,
                    /// so one path leaves the session waiting for input that will not come.
                    @MainActor
                    final class Dictation {
                        private var inputBuilder: AsyncStream<AnalyzerInput>.Continuation?
                        private var analyzer: SpeechAnalyzer?
                        private let audioEngine = AVAudioEngine()
                        private(set) var isRecording = false

                        func start(with transcriber: SpeechTranscriber) async throws {
                            let (sequence, builder) = AsyncStream<AnalyzerInput>.makeStream()
                            inputBuilder = builder
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            try await analyzer.start(inputSequence: sequence)
                            isRecording = true
                        }

                        private func stopAudio() {
                            audioEngine.stop()
                            audioEngine.inputNode.removeTap(onBus: 0)
                            inputBuilder?.↓finish()
                            isRecording = false
                        }

                        func stop() async throws {
                            stopAudio()
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }

                        func pause() {
                            stopAudio()
                        }
                    }

                    /// Nobody in the type calls `end()`: there is no caller to follow, so it is reported.
                    final class Feeder {
                        var continuation: AsyncStream<AnalyzerInput>.Continuation?

                        func end() {
                            continuation?.↓finish()
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "failure-handler-wrong: a failure path ends the input and calls a handler (a method or a stored closure) that cancels the analyzer",
            files: [
                (
                    "Session.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// The twin of failure-handler: the stored handler and the failure method only report the
                    /// problem; nothing cancels the analyzer.
                    final class Session {
                        private var continuation: AsyncStream<AnalyzerInput>.Continuation?
                        private var analyzer: SpeechAnalyzer?
                        private let converter: AnalyzerInputConverter
                        private var onFailure: (() async -> Void)?
                        private(set) var status = "idle"

                        init(analyzer: SpeechAnalyzer, format: AVAudioFormat) {
                            self.analyzer = analyzer
                            converter = AnalyzerInputConverter(analyzerFormat: format)
                            onFailure = { [weak self] in
                                self?.status = "failed"
                            }
                        }

                        func feed(_ buffer: AVAudioPCMBuffer) async {
                            do {
                                for input in try converter.convert(buffer, at: nil) { continuation?.yield(input) }
                            } catch {
                                continuation?.↓finish()
                                await onFailure?()
                            }
                        }

                        func interrupted() async {
                            continuation?.↓finish()
                            await fail(reason: "audio session interrupted")
                        }

                        private func fail(reason: String) async {
                            print("transcription stopped: \(reason)")
                            status = "failed"
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "analyzer-released-wrong: the input is closed after the analyzer was cancelled and released, or after its own error already finished the session",
            files: [
                (
                    "LiveCaptions.swift",
                    ##"""
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
                                inputContinuation?.↓finish()
                            }
                        }

                        func reset() async {
                            resultsTask?.cancel()
                            analyzer = nil
                            closeInput()
                        }

                        private func closeInput() {
                            inputContinuation?.↓finish()
                            inputContinuation = nil
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "cross-type-caller-wrong: a capture type's `stop()` ends the input; another type holds it in a local and, in a detached task, calls `capture.stop()` and finishes the analyzer",
            files: [
                (
                    "AudioCapture.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Microphone capture that feeds the analyzer's input. It does not own the analyzer: whoever
                    /// holds it stops it and then finishes the analyzer.
                    final class AudioCapture: @unchecked Sendable {
                        let inputs: AsyncStream<AnalyzerInput>
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        private let engine = AVAudioEngine()

                        init() {
                            (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                        }

                        func start() throws {
                            let continuation = self.continuation
                            engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in
                                continuation.yield(AnalyzerInput(buffer: buffer))
                            }
                            try engine.start()
                        }

                        func stop() {
                            engine.stop()
                            engine.inputNode.removeTap(onBus: 0)
                            continuation.↓finish()
                        }
                    }
                    """##
                ),
                (
                    "RecordingController.swift",
                    ##"""
                    import Speech

                    /// The twin of cross-type-caller: the capture is stopped and the analyzer is left waiting.
                    final class RecordingController {
                        private let analyzer: SpeechAnalyzer

                        init(transcriber: SpeechTranscriber) {
                            analyzer = SpeechAnalyzer(modules: [transcriber])
                        }

                        func record(for seconds: Double) async throws {
                            let capture = AudioCapture()
                            try capture.start()
                            try await analyzer.start(inputSequence: capture.inputs)
                            try await Task.sleep(for: .seconds(seconds))
                            let done = Task.detached {
                                capture.stop()
                            }
                            await done.value
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "handler-from-another-type-wrong: a feeder's failure path ends the input and calls a handler the owning type passed in, whose closure cancels the analyzer; the owner finishes the analyzer before closing the feeder",
            files: [
                (
                    "AudioFeeder.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Converts and feeds buffers. On a conversion failure it ends the input and tells its owner,
                    /// through a handler the owner passed in; closing is the owner's call too.
                    final class AudioFeeder {
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        private let converter: AVAudioConverter
                        private let onFailure: @Sendable (Error) -> Void

                        init(
                            continuation: AsyncStream<AnalyzerInput>.Continuation, converter: AVAudioConverter,
                            onFailure: @escaping @Sendable (Error) -> Void
                        ) {
                            self.continuation = continuation
                            self.converter = converter
                            self.onFailure = onFailure
                        }

                        func feed(_ buffer: AVAudioPCMBuffer, as format: AVAudioFormat) {
                            do {
                                guard let converted = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: converted, from: buffer)
                                continuation.yield(AnalyzerInput(buffer: converted))
                            } catch {
                                continuation.↓finish()
                                onFailure(error)
                            }
                        }

                        func close() {
                            continuation.↓finish()
                        }
                    }
                    """##
                ),
                (
                    "TranscriptionSession.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// The twin of handler-from-another-type: the failure handler only records the error, and `stop()`
                    /// closes the feeder without finishing the analyzer.
                    @MainActor
                    final class TranscriptionSession {
                        private var analyzer: SpeechAnalyzer?
                        private var feeder: AudioFeeder?
                        private(set) var lastError: String?

                        func start(with transcriber: SpeechTranscriber, converter: AVAudioConverter) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            feeder = AudioFeeder(
                                continuation: continuation, converter: converter,
                                onFailure: { [weak self] error in
                                    Task { @MainActor in self?.lastError = "\(error)" }
                                })
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func stop() async throws {
                            feeder?.close()
                            analyzer = nil
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "reused-analyzer-wrong: one analyzer kept in a stored `let` for the type's life: stopping ends the current input only, and the next recording starts it again; the twin makes an analyzer per recording and drops it unfinished",
            files: [
                (
                    "Dictation.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// An analyzer made for each recording and dropped when it stops, with its input ended and the
                    /// session never finished: the pending results are never finalized.
                    final class Dictation {
                        private let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
                        private var analyzer: SpeechAnalyzer?
                        private var feed: AsyncStream<AnalyzerInput>.Continuation?

                        func record(_ buffers: [AVAudioPCMBuffer]) async throws {
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            let (input, feed) = AsyncStream.makeStream(of: AnalyzerInput.self)
                            self.feed = feed
                            try await analyzer.start(inputSequence: input)
                            for buffer in buffers { feed.yield(AnalyzerInput(buffer: buffer)) }
                        }

                        func stop() {
                            feed?.↓finish()
                            feed = nil
                            analyzer = nil
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "handler-two-levels-wrong: an input's failure path ends the input and calls its `onError`, which the service in between fills with its own `failureHandler`, which the controller passes as a closure that cancels the analyzer; the twin's closure only records the error",
            files: [
                (
                    "Controller.swift",
                    ##"""
                    import Speech

                    /// The twin of handler-two-levels: a failure below is only recorded, and the analyzer waits on.
                    @MainActor
                    final class Controller {
                        private var analyzer: SpeechAnalyzer?
                        private var service: RecognitionService?
                        private(set) var lastError: String?

                        func start(_ transcriber: SpeechTranscriber) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            let service = RecognitionService(failureHandler: { [weak self] error in
                                Task { @MainActor in self?.lastError = "\(error)" }
                            })
                            self.service = service
                            service.start(continuation: continuation)
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func stop() async throws {
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }
                    }
                    """##
                ),
                (
                    "Input.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Feeds buffers; on a conversion failure it ends the input and reports through its handler.
                    final class AudioInput {
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        private let onError: @Sendable (Error) -> Void

                        init(continuation: AsyncStream<AnalyzerInput>.Continuation, onError: @escaping @Sendable (Error) -> Void) {
                            self.continuation = continuation
                            self.onError = onError
                        }

                        func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
                            do {
                                guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: out, from: buffer)
                                continuation.yield(AnalyzerInput(buffer: out))
                            } catch {
                                continuation.↓finish()
                                onError(error)
                            }
                        }
                    }
                    """##
                ),
                (
                    "Service.swift",
                    ##"""
                    import Speech

                    /// Owns the input; passes failures up through the handler its owner gave it.
                    final class RecognitionService {
                        private let failureHandler: @Sendable (Error) -> Void
                        private var input: AudioInput?

                        init(failureHandler: @escaping @Sendable (Error) -> Void) {
                            self.failureHandler = failureHandler
                        }

                        func start(continuation: AsyncStream<AnalyzerInput>.Continuation) {
                            input = AudioInput(continuation: continuation, onError: failureHandler)
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "handler-through-delegate-wrong: an input's failure path ends the input and tells its delegate (`delegate?.audioInput(_:didFailWith:)`, a protocol of the app), whose one adopter, the controller, cancels the analyzer; the twin's delegate only shows the failure",
            files: [
                (
                    "AudioInput.swift",
                    ##"""
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
                                continuation.↓finish()
                                delegate?.audioInput(self, didFailWith: error)
                            }
                        }
                    }
                    """##
                ),
                (
                    "TranscriptionController.swift",
                    ##"""
                    import Speech

                    /// The twin of handler-through-delegate: the delegate only shows the failure, and the analyzer
                    /// waits on for input that will never come.
                    @MainActor
                    final class TranscriptionController {
                        private var analyzer: SpeechAnalyzer?
                        private var input: AudioInput?
                        private(set) var status = "idle"

                        func start(_ transcriber: SpeechTranscriber) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            let input = AudioInput(continuation: continuation)
                            input.delegate = self
                            self.input = input
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func stop() async throws {
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }
                    }

                    extension TranscriptionController: AudioInputDelegate {
                        nonisolated func audioInput(_ input: AudioInput, didFailWith error: Error) {
                            Task { @MainActor in
                                status = "failed: \(error)"
                            }
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "handler-through-reducer-wrong: three levels: the input's `onError`, the service's `failureHandler`, the model's closure, which sends `.recognitionFailed` to a state machine whose `switch` case cancels the analyzer (another case finalizes it, which does not count for this action); the twin's case only changes the state",
            files: [
                (
                    "DictationModel.swift",
                    ##"""
                    import Speech

                    /// The twin of handler-through-reducer: `.recognitionFailed` only changes the state, and the
                    /// analyzer waits on for input that will never come.
                    @MainActor
                    final class DictationModel {
                        enum Action {
                            case startTapped(SpeechTranscriber)
                            case stopTapped
                            case recognitionFailed(Error)
                        }

                        enum State { case idle, listening, failed(String) }

                        private(set) var state = State.idle
                        private var analyzer: SpeechAnalyzer?
                        private var service: RecognitionService?

                        func send(_ action: Action) {
                            switch action {
                            case .startTapped(let transcriber):
                                state = .listening
                                Task { try await begin(transcriber) }
                            case .stopTapped:
                                state = .idle
                                Task { try await analyzer?.finalizeAndFinishThroughEndOfInput() }
                            case .recognitionFailed(let error):
                                state = .failed("\(error)")
                            }
                        }

                        private func begin(_ transcriber: SpeechTranscriber) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            let service = RecognitionService(failureHandler: { [weak self] error in
                                Task { @MainActor in self?.send(.recognitionFailed(error)) }
                            })
                            self.service = service
                            service.start(continuation: continuation)
                            try await analyzer.start(inputSequence: inputs)
                        }
                    }
                    """##
                ),
                (
                    "MicrophoneInput.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Feeds converted buffers; on a failure it ends the input and reports through its handler.
                    final class MicrophoneInput {
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        private let onError: @Sendable (Error) -> Void

                        init(continuation: AsyncStream<AnalyzerInput>.Continuation, onError: @escaping @Sendable (Error) -> Void) {
                            self.continuation = continuation
                            self.onError = onError
                        }

                        func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
                            do {
                                guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: out, from: buffer)
                                continuation.yield(AnalyzerInput(buffer: out))
                            } catch {
                                continuation.↓finish()
                                onError(error)
                            }
                        }
                    }
                    """##
                ),
                (
                    "RecognitionService.swift",
                    ##"""
                    import Speech

                    /// Owns the input; hands its failures up through the handler its owner gave it.
                    final class RecognitionService {
                        private let failureHandler: @Sendable (Error) -> Void
                        private var input: MicrophoneInput?

                        init(failureHandler: @escaping @Sendable (Error) -> Void) {
                            self.failureHandler = failureHandler
                        }

                        func start(continuation: AsyncStream<AnalyzerInput>.Continuation) {
                            input = MicrophoneInput(continuation: continuation, onError: failureHandler)
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "handler-not-passed: a library's feed ends the input and calls `onFailure`, which nothing in the package sets: the path leaves the files, so a note and no finding; the twin's own session sets it to a closure that only logs",
            files: [
                (
                    "Package.swift",
                    ##"""
                    // swift-tools-version: 6.0
                    import PackageDescription

                    let package = Package(
                        name: "LiveFeed",
                        platforms: [.macOS(.v26), .iOS(.v26)],
                        products: [.library(name: "LiveFeed", targets: ["LiveFeed"])],
                        targets: [.target(name: "LiveFeed")]
                    )
                    """##
                ),
                (
                    "Sources/LiveFeed/LiveFeed.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// A library's microphone feed for a SpeechAnalyzer its user owns. A failed conversion ends the
                    /// input and goes to `onFailure`, which the app using the library sets; nothing here sets it, so
                    /// whether the app then finishes its analyzer cannot be read from these files.
                    public final class LiveFeed {
                        public var onFailure: ((Error) -> Void)?
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        public let inputs: AsyncStream<AnalyzerInput>

                        public init() {
                            (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                        }

                        public func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
                            do {
                                guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: out, from: buffer)
                                continuation.yield(AnalyzerInput(buffer: out))
                            } catch {
                                continuation.⇣finish()
                                onFailure?(error)
                            }
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "handler-not-passed-wrong: a library's feed ends the input and calls `onFailure`, which nothing in the package sets: the path leaves the files, so a note and no finding; the twin's own session sets it to a closure that only logs",
            files: [
                (
                    "Package.swift",
                    ##"""
                    // swift-tools-version: 6.0
                    import PackageDescription

                    let package = Package(
                        name: "LiveFeed",
                        platforms: [.macOS(.v26), .iOS(.v26)],
                        products: [.library(name: "LiveFeed", targets: ["LiveFeed"])],
                        targets: [.target(name: "LiveFeed")]
                    )
                    """##
                ),
                (
                    "Sources/LiveFeed/FeedSession.swift",
                    ##"""
                    import Speech

                    /// The library's ready-made session: one analyzer over one feed.
                    public final class FeedSession {
                        public let feed = LiveFeed()
                        private var analyzer: SpeechAnalyzer?

                        public init() {}

                        public func start(_ transcriber: SpeechTranscriber) async throws {
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            feed.onFailure = { error in print("feed failed: \(error)") }
                            try await analyzer.start(inputSequence: feed.inputs)
                        }

                        public func stop() async throws {
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }
                    }
                    """##
                ),
                (
                    "Sources/LiveFeed/LiveFeed.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// The twin of handler-not-passed: the library's own session sets `onFailure`, and its closure
                    /// only logs, so the analyzer waits on for input that will never come.
                    public final class LiveFeed {
                        public var onFailure: ((Error) -> Void)?
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        public let inputs: AsyncStream<AnalyzerInput>

                        public init() {
                            (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                        }

                        public func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
                            do {
                                guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: out, from: buffer)
                                continuation.yield(AnalyzerInput(buffer: out))
                            } catch {
                                continuation.↓finish()
                                onFailure?(error)
                            }
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "reducer-effect: a recorder's `onEvent` sends `.recorder(.failed)` to a Composable Architecture reducer whose case returns `.cancel(id:)`: the effect runtime is not followed, so a note and no finding; the twin's case returns `.none`",
            files: [
                (
                    "DictationFeature.swift",
                    ##"""
                    import ComposableArchitecture
                    import Speech

                    /// A reducer over the recorder: its events come back as actions. A failure cancels the effect
                    /// that runs the recorder, and that effect's cancellation is where the analyzer is cancelled: the
                    /// effect runtime's work, which the lint does not follow.
                    @Reducer
                    struct DictationFeature {
                        @ObservableState
                        struct State { var isRecording = false; var text = "" }

                        enum Action {
                            case recordTapped
                            case recorder(Recorder.Event)
                        }

                        enum CancelID { case recording }

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .recordTapped:
                                    state.isRecording = true
                                    return .run { send in
                                        let recorder = Recorder(onEvent: { event in Task { await send(.recorder(event)) } })
                                        try await withTaskCancellationHandler {
                                            try await recorder.start(SpeechTranscriber(locale: .current, preset: .transcription))
                                        } onCancel: {
                                            Task { await recorder.cancel() }
                                        }
                                    }
                                    .cancellable(id: CancelID.recording)
                                case .recorder(.transcript(let text)):
                                    state.text = text
                                    return .none
                                case .recorder(.failed):
                                    state.isRecording = false
                                    return .cancel(id: CancelID.recording)
                                }
                            }
                        }
                    }
                    """##
                ),
                (
                    "Recorder.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Runs one analyzer over the microphone; tells its owner what happens through `onEvent`.
                    final class Recorder {
                        enum Event { case transcript(String), failed(Error) }

                        private let onEvent: @Sendable (Event) -> Void
                        private var continuation: AsyncStream<AnalyzerInput>.Continuation?
                        private var analyzer: SpeechAnalyzer?

                        init(onEvent: @escaping @Sendable (Event) -> Void) {
                            self.onEvent = onEvent
                        }

                        func start(_ transcriber: SpeechTranscriber) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            self.continuation = continuation
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func stop() async throws {
                            continuation?.finish()
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }

                        func cancel() async {
                            await analyzer?.cancelAndFinishNow()
                        }

                        func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
                            do {
                                guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: out, from: buffer)
                                continuation?.yield(AnalyzerInput(buffer: out))
                            } catch {
                                continuation?.⇣finish()
                                onEvent(.failed(error))
                            }
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "reducer-effect-wrong: a recorder's `onEvent` sends `.recorder(.failed)` to a Composable Architecture reducer whose case returns `.cancel(id:)`: the effect runtime is not followed, so a note and no finding; the twin's case returns `.none`",
            files: [
                (
                    "DictationFeature.swift",
                    ##"""
                    import ComposableArchitecture
                    import Speech

                    /// The twin of reducer-effect: a failure only clears the flag and returns no effect, so the
                    /// recorder's analyzer waits on for input that will never come.
                    @Reducer
                    struct DictationFeature {
                        @ObservableState
                        struct State { var isRecording = false; var text = "" }

                        enum Action {
                            case recordTapped
                            case recorder(Recorder.Event)
                        }

                        enum CancelID { case recording }

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .recordTapped:
                                    state.isRecording = true
                                    return .run { send in
                                        let recorder = Recorder(onEvent: { event in Task { await send(.recorder(event)) } })
                                        try await withTaskCancellationHandler {
                                            try await recorder.start(SpeechTranscriber(locale: .current, preset: .transcription))
                                        } onCancel: {
                                            Task { await recorder.cancel() }
                                        }
                                    }
                                    .cancellable(id: CancelID.recording)
                                case .recorder(.transcript(let text)):
                                    state.text = text
                                    return .none
                                case .recorder(.failed):
                                    state.isRecording = false
                                    return .none
                                }
                            }
                        }
                    }
                    """##
                ),
                (
                    "Recorder.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Runs one analyzer over the microphone; tells its owner what happens through `onEvent`.
                    final class Recorder {
                        enum Event { case transcript(String), failed(Error) }

                        private let onEvent: @Sendable (Event) -> Void
                        private var continuation: AsyncStream<AnalyzerInput>.Continuation?
                        private var analyzer: SpeechAnalyzer?

                        init(onEvent: @escaping @Sendable (Event) -> Void) {
                            self.onEvent = onEvent
                        }

                        func start(_ transcriber: SpeechTranscriber) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            self.continuation = continuation
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func stop() async throws {
                            continuation?.finish()
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }

                        func cancel() async {
                            await analyzer?.cancelAndFinishNow()
                        }

                        func feed(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
                            do {
                                guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: out, from: buffer)
                                continuation?.yield(AnalyzerInput(buffer: out))
                            } catch {
                                continuation?.↓finish()
                                onEvent(.failed(error))
                            }
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "level-stream-wrong: a stream of input levels (`AsyncStream<Double>.Continuation`) given a closure parameter named like the input's continuation, ended alone (held-out set 4's assistant); the twin's second stream is the analyzer's input",
            files: [
                (
                    "LiveListener.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// The twin of level-stream: the second stream is the analyzer's input too, so ending it there
                    /// leaves the analyzer waiting.
                    actor LiveListener {
                        private var analyzer: SpeechAnalyzer?
                        private var input: AsyncStream<AnalyzerInput>.Continuation?
                        private var levelContinuation: AsyncStream<AnalyzerInput>.Continuation?

                        func levels() -> AsyncStream<AnalyzerInput> {
                            AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
                                levelContinuation?.↓finish()
                                levelContinuation = continuation
                            }
                        }

                        func start(_ transcriber: SpeechTranscriber) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            input = continuation
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func stop() async throws {
                            input?.finish()
                            try await analyzer?.finalizeAndFinishThroughEndOfInput()
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "handler-parameter: the failure handler is a parameter of the service's `start`, passed on by a closure of a dependencies struct as its positional parameter, whose callers' closure cancels recognition (held-out set 4's Talkify): not followed, a note; the twin's controller calls `start` with a labelled closure that only shows the message",
            files: [
                (
                    "DictationController.swift",
                    ##"""
                    import Speech

                    /// The controller reaches the service through closures it is given, so tests can replace them;
                    /// the failure handler travels as a closure's positional parameter, which the lint does not
                    /// follow, to `fail`, which cancels recognition.
                    struct Dependencies {
                        let startRecognition: @Sendable (SpeechTranscriber, _ failureHandler: @escaping @Sendable (String) -> Void) async throws -> Void
                        let cancelRecognition: @Sendable () async -> Void

                        static func live(_ service: RecognitionService) -> Dependencies {
                            Dependencies(
                                startRecognition: { transcriber, failureHandler in
                                    try await service.start(transcriber, failureHandler: failureHandler)
                                },
                                cancelRecognition: { await service.cancel() })
                        }
                    }

                    @MainActor
                    final class DictationController {
                        private let dependencies: Dependencies
                        private(set) var message: String?

                        init(dependencies: Dependencies) {
                            self.dependencies = dependencies
                        }

                        func begin(_ transcriber: SpeechTranscriber) async throws {
                            try await dependencies.startRecognition(transcriber, { [weak self] text in
                                Task { @MainActor in await self?.fail(text) }
                            })
                        }

                        private func fail(_ text: String) async {
                            message = text
                            await dependencies.cancelRecognition()
                        }
                    }
                    """##
                ),
                (
                    "MicrophoneInput.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Feeds converted buffers; a failure ends the input and goes to the handler it was made with.
                    final class MicrophoneInput {
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        private let failureHandler: @Sendable (Error) -> Void

                        init(continuation: AsyncStream<AnalyzerInput>.Continuation, failureHandler: @escaping @Sendable (Error) -> Void) {
                            self.continuation = continuation
                            self.failureHandler = failureHandler
                        }

                        func receive(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
                            do {
                                guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: out, from: buffer)
                                continuation.yield(AnalyzerInput(buffer: out))
                            } catch {
                                continuation.⇣finish()
                                failureHandler(error)
                            }
                        }
                    }
                    """##
                ),
                (
                    "RecognitionService.swift",
                    ##"""
                    import Speech

                    /// Owns the analyzer; a session's failures go to the handler `start` is given.
                    actor RecognitionService {
                        private var analyzer: SpeechAnalyzer?
                        private var input: MicrophoneInput?

                        func start(_ transcriber: SpeechTranscriber, failureHandler: @escaping @Sendable (String) -> Void) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            input = MicrophoneInput(
                                continuation: continuation,
                                failureHandler: { error in
                                    failureHandler(error.localizedDescription)
                                })
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func cancel() async {
                            await analyzer?.cancelAndFinishNow()
                        }
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "handler-parameter-wrong: the failure handler is a parameter of the service's `start`, passed on by a closure of a dependencies struct as its positional parameter, whose callers' closure cancels recognition (held-out set 4's Talkify): not followed, a note; the twin's controller calls `start` with a labelled closure that only shows the message",
            files: [
                (
                    "DictationController.swift",
                    ##"""
                    import Speech

                    /// The twin of handler-parameter: the controller calls the service itself, and the handler it
                    /// passes only shows the message, so the analyzer waits on for input that will never come.
                    @MainActor
                    final class DictationController {
                        private let service: RecognitionService
                        private(set) var message: String?

                        init(service: RecognitionService) {
                            self.service = service
                        }

                        func begin(_ transcriber: SpeechTranscriber) async throws {
                            try await service.start(transcriber, failureHandler: { [weak self] text in
                                Task { @MainActor in self?.message = text }
                            })
                        }
                    }
                    """##
                ),
                (
                    "MicrophoneInput.swift",
                    ##"""
                    import AVFoundation
                    import Speech

                    /// Feeds converted buffers; a failure ends the input and goes to the handler it was made with.
                    final class MicrophoneInput {
                        private let continuation: AsyncStream<AnalyzerInput>.Continuation
                        private let failureHandler: @Sendable (Error) -> Void

                        init(continuation: AsyncStream<AnalyzerInput>.Continuation, failureHandler: @escaping @Sendable (Error) -> Void) {
                            self.continuation = continuation
                            self.failureHandler = failureHandler
                        }

                        func receive(_ buffer: AVAudioPCMBuffer, converter: AVAudioConverter, format: AVAudioFormat) {
                            do {
                                guard let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength) else { return }
                                try converter.convert(to: out, from: buffer)
                                continuation.yield(AnalyzerInput(buffer: out))
                            } catch {
                                continuation.↓finish()
                                failureHandler(error)
                            }
                        }
                    }
                    """##
                ),
                (
                    "RecognitionService.swift",
                    ##"""
                    import Speech

                    /// Owns the analyzer; a session's failures go to the handler `start` is given.
                    actor RecognitionService {
                        private var analyzer: SpeechAnalyzer?
                        private var input: MicrophoneInput?

                        func start(_ transcriber: SpeechTranscriber, failureHandler: @escaping @Sendable (String) -> Void) async throws {
                            let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                            input = MicrophoneInput(
                                continuation: continuation,
                                failureHandler: { error in
                                    failureHandler(error.localizedDescription)
                                })
                            let analyzer = SpeechAnalyzer(modules: [transcriber])
                            self.analyzer = analyzer
                            try await analyzer.start(inputSequence: inputs)
                        }

                        func cancel() async {
                            await analyzer?.cancelAndFinishNow()
                        }
                    }
                    """##
                ),
            ]
        ),
    ]
}
