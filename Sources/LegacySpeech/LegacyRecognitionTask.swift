@_spi(Harness) import AVFAudio
import CoreMedia
import DSP
import Foundation
import SpeechCore
@_spi(Harness) import SpeechReference

/// A running legacy recognition: reads the request's audio, feeds the engine, and reports partial
/// and final results (or errors) to the result handler or delegate on the recogniser's queue.
public final class SFSpeechRecognitionTask: NSObject, @unchecked Sendable {
    enum Sink: @unchecked Sendable {
        case handler((SFSpeechRecognitionResult?, (any Error)?) -> Void)
        case delegate(any SFSpeechRecognitionTaskDelegate)
    }

    /// What the driver, the app's calls and the callbacks share, under one lock.
    private struct Shared {
        var sink: Sink?
        var machine = LegacyTaskStateMachine()
        var stopReading = false
        var finishedError: (any Error)?
        var reachedLimit = false
        var cancelled = false
    }

    private let recognizer: SFSpeechRecognizer
    private let request: SFSpeechRecognitionRequest
    private let shared: Locked<Shared>
    private var driver: Task<Void, Never>?

    init(recognizer: SFSpeechRecognizer, request: SFSpeechRecognitionRequest, sink: Sink) {
        self.recognizer = recognizer
        self.request = request
        self.shared = Locked(Shared(sink: sink))
    }

    public var state: SFSpeechRecognitionTaskState { shared.withLock { s in s.machine.state } }
    public var isFinishing: Bool { state == .finishing }
    public var isCancelled: Bool {
        shared.withLock { s in s.machine.state == .canceling || (s.machine.state == .completed && s.cancelled) }
    }
    /// Why the task failed, once it has.
    public var error: (any Error)? { shared.withLock { s in s.finishedError } }
    /// Harness extra: whether the emulated one-minute server limit cut the audio short.
    public var reachedServerAudioLimit: Bool { shared.withLock { s in s.reachedLimit } }

    /// Stops taking new audio; what was already supplied is still recognised and reported.
    public func finish() {
        if let buffers = request as? SFSpeechAudioBufferRecognitionRequest {
            buffers.endAudio()
        } else {
            shared.withLock { s in s.stopReading = true }
        }
    }

    /// Stops at once: no final result; the handler gets a "canceled" error.
    public func cancel() {
        let callbacks = shared.withLock { (s: inout Shared) -> [LegacyTaskStateMachine.Callback] in
            let out = s.machine.cancel()
            if !out.isEmpty { s.cancelled = true }
            return out
        }
        guard !callbacks.isEmpty else { return }
        deliver(callbacks, result: nil)
        driver?.cancel()
    }

    /// Harness extra: returns when the task has completed and every callback has run.
    public func waitUntilCompleted() async {
        await driver?.value
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            recognizer.queue.addOperation { continuation.resume() }
        }
    }

    func start() {
        driver = Task { [self] in await drive() }
    }

    // MARK: Driving the engine

    private var finalWords: [RecognizedWord] = []
    private var alternatives: [Int: [String]] = [:]
    private var volatileWords: [RecognizedWord] = []
    private var lastPartial: [String] = []
    /// The request's audio as the engine got it (mono), for voice analytics.
    private var heardAudio: [Float] = []
    private var heardRate: Double = 16_000
    /// Seconds of audio heard so far (read by the trace from any thread).
    private let heardSeconds = Locked(0.0)

    private func drive() async {
        let engine = recognizer.engine
        let tag = recognizer.localeTag
        let limit =
            SFSpeechRecognizer.emulatesServerLimits && !request.requiresOnDeviceRecognition
            ? MediaTime(seconds: SFSpeechRecognizer.serverAudioLimit, preferredTimescale: 1_000) : nil
        if SFSpeechRecognizer.authorizationStatus() != .authorized {
            fail(LegacyRecognitionError.notAuthorized)
            return
        }
        if !request.requiresOnDeviceRecognition, let quota = recognizer.serverRequestQuota, !quota.take() {
            fail(LegacyRecognitionError.quotaExceeded)
            return
        }
        var session: (any RecognitionSession)?
        var end = MediaTime.zero
        do {
            guard let format = engine.capabilities.formats.first, let target = AVAudioFormat(format) else {
                throw EngineError.unsupportedFormat(engine: engine.id, format: "none declared")
            }
            let hints: Set<String> = [String(describing: request.taskHint)]
            let opened = try await engine.makeSession(
                EngineSessionConfiguration(
                    locale: tag, reportsPartialResults: request.shouldReportPartialResults, maximumAlternatives: 3,
                    contextualStrings: request.contextualStrings, hints: hints,
                    customPhrases: try request.customizedLanguageModel?.phrases() ?? []))
            session = opened
            let converter = AnalyzerInputConverter(analyzerFormat: target)
            reading: for try await buffer in request.audioSource() {
                // However it ends, the virtual microphone behind the buffer may go on.
                defer { buffer.consumedByRecognition() }
                if Task.isCancelled || shared.withLock({ s in s.stopReading }) { break }
                for input in try converter.convert(buffer, at: nil) {
                    guard var pcm = input.storedBuffer.pcmBuffer else { continue }
                    let start = input.bufferStartTime ?? end
                    if let limit, start + pcm.duration > limit {
                        // The server stops listening at the limit: keep the audio before it only.
                        let keep = max(0, Int(((limit - start).seconds * format.sampleRate).rounded()))
                        pcm = pcm.slice(0..<min(keep, pcm.frameCount))
                        shared.withLock { s in s.reachedLimit = true }
                    }
                    if pcm.frameCount > 0 {
                        hear(pcm)
                        let update = try await opened.accept(pcm, at: start)
                        end = start + pcm.duration
                        apply(update, processed: end)
                    }
                    if shared.withLock({ s in s.reachedLimit }) { break reading }
                }
            }
            if !Task.isCancelled && !shared.withLock({ s in s.reachedLimit }) {
                for input in try converter.flush() {
                    guard let pcm = input.storedBuffer.pcmBuffer, pcm.frameCount > 0 else { continue }
                    let start = input.bufferStartTime ?? end
                    hear(pcm)
                    let update = try await opened.accept(pcm, at: start)
                    end = start + pcm.duration
                    apply(update, processed: end)
                }
            }
            guard !Task.isCancelled, !shared.withLock({ s in s.cancelled }) else { throw CancellationError() }
            deliver(shared.withLock { s in s.machine.endOfAudio() }, result: nil, audioSeconds: end.seconds)
            apply(try await opened.finalize(through: end), processed: end)
            await opened.close()
        } catch {
            await session?.close()
            if shared.withLock({ s in s.cancelled }) || error is CancellationError {
                finishCancelled()
            } else {
                fail(LegacyRecognitionError.engineFailed(error))
            }
            return
        }
        if shared.withLock({ s in s.cancelled }) {
            finishCancelled()
        } else if finalWords.isEmpty {
            fail(LegacyRecognitionError.noSpeechDetected)
        } else {
            let result = makeResult(words: finalWords, isFinal: true, processed: end)
            deliver(shared.withLock { s in s.machine.completed(success: true) }, result: result)
        }
    }

    /// Keeps the audio for voice analytics, moves the task to running, and tells the delegate
    /// when speech is first heard: a voiced 40 ms window (the DSP pitch tracker), as Apple's
    /// detector hears speech before any words are recognised.
    private func hear(_ pcm: PCMBuffer) {
        heardRate = pcm.format.sampleRate
        let samples = pcm.floatChannels.first ?? []
        heardAudio += samples
        heardSeconds.withLock { $0 += Double(samples.count) / heardRate }
        let window = Int(heardRate * VoiceAnalyzer.windowDuration)
        var voiced = false
        if !shared.withLock({ s in s.machine.detectedSpeech }), samples.count >= window {
            let start = (samples.count - window) / 2
            let frame = VoiceAnalyzer.measure(samples[start..<(start + window)], sampleRate: heardRate)
            voiced = frame.pitchHz > 0 && frame.voicing > 0.7
        }
        deliver(shared.withLock { s in s.machine.processedAudio(heardWords: voiced) }, result: nil)
    }

    private func apply(_ update: HypothesisUpdate, processed: MediaTime) {
        for segment in update.finalized {
            for (index, word) in segment.words.enumerated() {
                let others = segment.alternatives.filter { $0.count == segment.words.count && $0[index] != word.text }
                    .map { $0[index] }
                if !others.isEmpty { alternatives[finalWords.count] = Array(Set(others)).sorted() }
                finalWords.append(word)
            }
        }
        volatileWords = update.volatile?.words ?? (update.finalized.isEmpty ? volatileWords : [])
        guard request.shouldReportPartialResults else { return }
        let words = finalWords + volatileWords
        let texts = words.map(\.text)
        guard !words.isEmpty, texts != lastPartial else { return }
        lastPartial = texts
        let callbacks = shared.withLock { s in s.machine.hypothesis() }
        deliver(callbacks, result: makeResult(words: words, isFinal: false, processed: processed))
    }

    private func makeResult(words: [RecognizedWord], isFinal: Bool, processed: MediaTime) -> SFSpeechRecognitionResult {
        let analysis = isFinal ? VoiceAnalysisSource(samples: heardAudio, sampleRate: heardRate) : nil
        let best = SFTranscription(
            words: words, origin: .zero, withConfidence: isFinal, alternatives: isFinal ? alternatives : [:],
            analysis: analysis)
        var transcriptions = [best]
        if isFinal {
            // Other transcriptions: one word swapped for an alternative, in word order.
            for (index, others) in alternatives.sorted(by: { $0.key < $1.key }) {
                for other in others.prefix(1) {
                    var swapped = words
                    swapped[index].text = other
                    transcriptions.append(SFTranscription(words: swapped, origin: .zero, withConfidence: true))
                }
            }
        }
        let metadata = analysis.map { analysis in
            SFSpeechRecognitionMetadata(
                words: words.map { (($0.range.start).seconds, ($0.range.start + $0.range.duration).seconds) },
                analysis: analysis)
        }
        return SFSpeechRecognitionResult(
            transcriptions: transcriptions, isFinal: isFinal, processedAudioDuration: processed.seconds,
            speechRecognitionMetadata: metadata)
    }

    private func fail(_ error: NSError) {
        let callbacks = shared.withLock { (s: inout Shared) -> [LegacyTaskStateMachine.Callback] in
            s.finishedError = error
            return s.machine.completed(success: false)
        }
        deliver(callbacks, result: nil, error: error)
    }

    private func finishCancelled() {
        let error = LegacyRecognitionError.canceled
        let callbacks = shared.withLock { (s: inout Shared) -> [LegacyTaskStateMachine.Callback] in
            s.finishedError = error
            return s.machine.cancellationFinished()
        }
        deliver(callbacks, result: nil, error: error)
    }

    // MARK: Callbacks

    /// Writes what the app is shown to the process's API trace (`SPEECH_HARNESS_TRACE`), if any.
    private func trace(
        _ callbacks: [LegacyTaskStateMachine.Callback], result: SFSpeechRecognitionResult?, error: (any Error)?
    ) {
        guard let trace = APICallTrace.current else { return }
        let processed = result?.processedAudioDuration ?? heardSeconds.withLock { $0 }
        let words = (result?.bestTranscription.segments ?? []).map {
            APICallTrace.Word(word: $0.substring, start: $0.timestamp, end: $0.timestamp + $0.duration)
        }
        for callback in callbacks {
            switch callback {
            case .hypothesized: trace.append(.init(api: "legacy", kind: "partial", audioTime: processed, words: words))
            case .finishedRecognition:
                trace.append(.init(api: "legacy", kind: "final", audioTime: processed, words: words))
            case .finishedSuccessfully(let success):
                if !success, let error = error as NSError? {
                    trace.append(
                        .init(
                            api: "legacy", kind: "error", audioTime: processed, words: [],
                            detail: LegacyRecognitionError.describe(error)))
                }
                trace.append(.init(api: "legacy", kind: "end", audioTime: processed, words: []))
            default: break
            }
        }
    }

    /// Runs the callbacks on the recogniser's queue, in order. A result handler sees partial and
    /// final results and the error; a delegate sees the documented sequence.
    private func deliver(
        _ callbacks: [LegacyTaskStateMachine.Callback], result: SFSpeechRecognitionResult?,
        error: (any Error)? = nil, audioSeconds: Double? = nil
    ) {
        guard !callbacks.isEmpty, let sink = shared.withLock({ s in s.sink }) else { return }
        trace(callbacks, result: result, error: error)
        let completes = callbacks.contains { if case .finishedSuccessfully = $0 { return true } else { return false } }
        if completes { shared.withLock { s in s.sink = nil } }
        recognizer.queue.addOperation { [self] in
            switch sink {
            case .handler(let handler):
                for callback in callbacks {
                    switch callback {
                    case .hypothesized: handler(result, nil)
                    case .finishedRecognition: handler(result, nil)
                    case .finishedSuccessfully(false): handler(nil, error)
                    default: break
                    }
                }
            case .delegate(let delegate):
                for callback in callbacks {
                    switch callback {
                    case .detectedSpeech: delegate.speechRecognitionDidDetectSpeech(self)
                    case .hypothesized:
                        if let result {
                            delegate.speechRecognitionTask(self, didHypothesizeTranscription: result.bestTranscription)
                        }
                    case .finishedReadingAudio:
                        delegate.speechRecognitionTaskFinishedReadingAudio(self)
                        if let audioSeconds {
                            delegate.speechRecognitionTask(self, didProcessAudioDuration: audioSeconds)
                        }
                    case .finishedRecognition:
                        if let result { delegate.speechRecognitionTask(self, didFinishRecognition: result) }
                    case .wasCancelled: delegate.speechRecognitionTaskWasCancelled(self)
                    case .finishedSuccessfully(let success):
                        delegate.speechRecognitionTask(self, didFinishSuccessfully: success)
                    }
                }
            }
        }
    }
}
