import EngineCore
import Foundation
@_spi(Harness) import LegacySpeech
@_spi(Harness) import Speech
import TestSupport
import Testing

/// The legacy API over the scripted engine: results, segments, states, callback order, finish
/// versus cancel, the one-minute limit and the usual errors.
@Suite("SFSpeechRecognizer emulation", .serialized)
struct LegacyRecognitionTests {
    static let words = [
        EngineScript.Word("turn", start: 0.3, end: 0.6), EngineScript.Word("the", start: 0.65, end: 0.8),
        EngineScript.Word("lights", start: 0.85, end: 1.3, confidence: 0.9),
        EngineScript.Word("on", start: 1.35, end: 1.6),
    ]

    static func recognizer(_ words: [EngineScript.Word] = words) -> SFSpeechRecognizer {
        SFSpeechRecognizer(
            locale: Locale(identifier: "en-US"),
            engine: ScriptedEngine(script: EngineScript(words: words, latency: 0.1, endpointSilence: nil)))
    }

    /// Silence in 100 ms buffers (the scripted engine listens to time, not to the samples).
    static func feed(_ request: SFSpeechAudioBufferRecognitionRequest, seconds: Double, rate: Double = 16_000) {
        let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 1)!
        for _ in 0..<Int(seconds * 10) {
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(rate / 10))!
            buffer.frameLength = buffer.frameCapacity
            request.append(buffer)
        }
    }

    /// Code in the shape of the usual live-transcription sample: a buffer request with partial
    /// results, a result handler that reads the best transcription and its segments.
    final class LiveTranscriber: @unchecked Sendable {
        private let speechRecognizer: SFSpeechRecognizer
        private var recognitionRequest: SFSpeechAudioBufferRecognitionRequest?
        private var recognitionTask: SFSpeechRecognitionTask?
        let log = EventLog<String>()

        init(recognizer: SFSpeechRecognizer) { speechRecognizer = recognizer }

        func start() -> SFSpeechAudioBufferRecognitionRequest {
            let recognitionRequest = SFSpeechAudioBufferRecognitionRequest()
            recognitionRequest.shouldReportPartialResults = true
            self.recognitionRequest = recognitionRequest
            recognitionTask = speechRecognizer.recognitionTask(with: recognitionRequest) { result, error in
                var isFinal = false
                if let result = result {
                    isFinal = result.isFinal
                    let segments = result.bestTranscription.segments.map {
                        "\($0.substring)@\(String(format: "%.2f", $0.timestamp))+\(String(format: "%.2f", $0.duration))"
                    }
                    self.log.append(
                        (isFinal ? "final: " : "partial: ") + result.bestTranscription.formattedString
                            + (isFinal ? " [" + segments.joined(separator: " ") + "]" : ""))
                }
                if error != nil || isFinal {
                    self.recognitionRequest = nil
                    self.recognitionTask = nil
                }
                if let error = error as NSError? { self.log.append("error \(error.domain) \(error.code)") }
            }
            return recognitionRequest
        }

        var task: SFSpeechRecognitionTask? { recognitionTask }
    }

    @Test func sampleShapedCodeGetsPartialsThenAFinalWithSegments() async throws {
        let live = LiveTranscriber(recognizer: Self.recognizer())
        let request = live.start()
        let task = try #require(live.task)
        Self.feed(request, seconds: 2)
        request.endAudio()
        await task.waitUntilCompleted()
        let log = live.log.items
        #expect(log.first?.hasPrefix("partial: turn") == true)
        #expect(log.last == "final: turn the lights on [turn@0.30+0.30 the@0.65+0.15 lights@0.85+0.45 on@1.35+0.25]")
        #expect(log.filter { $0.hasPrefix("partial") }.count >= 2)
        #expect(task.state == .completed)
        #expect(task.error == nil)
    }

    final class Recorder: SFSpeechRecognitionTaskDelegate, @unchecked Sendable {
        let log = EventLog<String>()
        func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) { log.append("detect") }
        func speechRecognitionTask(
            _ task: SFSpeechRecognitionTask, didHypothesizeTranscription transcription: SFTranscription
        ) {
            log.append("hypothesis")
        }
        func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask) {
            log.append("finishedReading")
        }
        func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didProcessAudioDuration duration: TimeInterval) {
            log.append(String(format: "duration %.1f", duration))
        }
        func speechRecognitionTask(
            _ task: SFSpeechRecognitionTask, didFinishRecognition recognitionResult: SFSpeechRecognitionResult
        ) {
            log.append(
                "final \(recognitionResult.bestTranscription.formattedString) confidence \(recognitionResult.bestTranscription.segments[2].confidence)"
            )
        }
        func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask) { log.append("cancelled") }
        func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
            log.append("success \(successfully)")
        }
    }

    @Test func delegateCallbacksComeInTheDocumentedOrder() async {
        let delegate = Recorder()
        let request = SFSpeechAudioBufferRecognitionRequest()
        let task = Self.recognizer().recognitionTask(with: request, delegate: delegate)
        #expect(task.state == .starting)
        Self.feed(request, seconds: 2)
        task.finish()
        await task.waitUntilCompleted()
        let log = delegate.log.items
        let hypotheses = log.filter { $0 == "hypothesis" }.count
        #expect(hypotheses >= 2)
        #expect(
            log == ["detect"] + Array(repeating: "hypothesis", count: hypotheses)
                + ["finishedReading", "duration 2.0", "final turn the lights on confidence 0.9", "success true"])
    }

    @Test func cancelDeliversNoFinalResultAndTheCanceledError() async {
        let delegate = Recorder()
        let request = SFSpeechAudioBufferRecognitionRequest()
        let task = Self.recognizer().recognitionTask(with: request, delegate: delegate)
        Self.feed(request, seconds: 1)
        task.cancel()
        await task.waitUntilCompleted()
        let log = delegate.log.items
        #expect(!log.contains { $0.hasPrefix("final") })
        #expect(Array(log.suffix(2)) == ["cancelled", "success false"])
        #expect(task.isCancelled)
        #expect(task.state == .completed)
        #expect((task.error as NSError?)?.code == 301)
        #expect((task.error as NSError?)?.domain == "kLSRErrorDomain")
    }

    @Test func finishKeepsTheAudioAlreadySupplied() async {
        let results = EventLog<String>()
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.shouldReportPartialResults = false
        let task = Self.recognizer().recognitionTask(with: request) { result, _ in
            if let result { results.append("\(result.isFinal) \(result.bestTranscription.formattedString)") }
        }
        Self.feed(request, seconds: 2)
        task.finish()
        Self.feed(request, seconds: 1)  // after finish: ignored
        await task.waitUntilCompleted()
        #expect(results.items == ["true turn the lights on"])
    }

    @Test func silenceEndsWithNoSpeechDetected() async {
        let errors = EventLog<NSError>()
        let request = SFSpeechAudioBufferRecognitionRequest()
        let task = Self.recognizer([]).recognitionTask(with: request) { result, error in
            #expect(result == nil)
            if let error = error as NSError? { errors.append(error) }
        }
        Self.feed(request, seconds: 1)
        request.endAudio()
        await task.waitUntilCompleted()
        #expect(errors.items.map(\.code) == [1110])
        #expect(errors.items.first?.domain == "kAFAssistantErrorDomain")
    }

    @Test(arguments: [false, true])
    func serverRequestsStopAfterAMinute(onDevice: Bool) async {
        let words = [EngineScript.Word("early", start: 10, end: 10.5), EngineScript.Word("late", start: 65, end: 65.5)]
        let finals = EventLog<String>()
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.requiresOnDeviceRecognition = onDevice
        let task = Self.recognizer(words).recognitionTask(with: request) { result, _ in
            if let result, result.isFinal { finals.append(result.bestTranscription.formattedString) }
        }
        Self.feed(request, seconds: 70)
        request.endAudio()
        await task.waitUntilCompleted()
        #expect(finals.items == [onDevice ? "early late" : "early"])
        #expect(task.reachedServerAudioLimit == !onDevice)
    }

    @Test func serverRequestsBeyondTheQuotaFailWithRetry() async {
        let quota = LegacyServerQuota(limit: 1)
        func attempt(onDevice: Bool) async -> [Int] {
            let codes = EventLog<Int>()
            let recognizer = Self.recognizer()
            recognizer.serverRequestQuota = quota
            let request = SFSpeechAudioBufferRecognitionRequest()
            request.requiresOnDeviceRecognition = onDevice
            let task = recognizer.recognitionTask(with: request) { result, error in
                if let error = error as NSError? {
                    codes.append(error.code)
                } else if result?.isFinal == true {
                    codes.append(0)
                }
            }
            Self.feed(request, seconds: 2)
            request.endAudio()
            await task.waitUntilCompleted()
            return codes.items
        }
        #expect(await attempt(onDevice: false) == [0])
        #expect(await attempt(onDevice: false) == [203])
        #expect(await attempt(onDevice: true) == [0])
        #expect(quota.requestsMade == 1)
        quota.reset()
        #expect(await attempt(onDevice: false) == [0])
    }

    @Test func fileRequestsAreConvertedToTheEngineRate() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("clip.wav")
        try AudioIOBridge.write([Float](repeating: 0, count: 44_100 * 2), sampleRate: 44_100, to: path)
        let finals = EventLog<String>()
        let task = Self.recognizer().recognitionTask(
            with: SFSpeechURLRecognitionRequest(url: URL(fileURLWithPath: path))
        ) { result, _ in
            if let result, result.isFinal { finals.append(result.bestTranscription.formattedString) }
        }
        await task.waitUntilCompleted()
        #expect(finals.items == ["turn the lights on"])
    }

    @Test func theRecognizerReportsWhatTheLegacyAPIAsks() {
        let recognizer = Self.recognizer()
        #expect(recognizer.isAvailable)
        #expect(recognizer.supportsOnDeviceRecognition)
        #expect(SFSpeechRecognizer.authorizationStatus() == .authorized)
        #expect(SFSpeechRecognizer.supportedLocales().contains(Locale(identifier: "en-US")))
        #expect(SFSpeechRecognizer(locale: Locale(identifier: "xx-XX")) == nil)
    }
}

@Suite("Legacy task state machine")
struct LegacyTaskStateMachineTests {
    @Test func aTaskCompletesOnceWhateverHappensAfter() {
        var machine = LegacyTaskStateMachine()
        #expect(machine.processedAudio(heardWords: false).isEmpty)
        #expect(machine.state == .running)
        #expect(machine.hypothesis() == [.detectedSpeech, .hypothesized])
        #expect(machine.hypothesis() == [.hypothesized])
        #expect(
            machine.completed(success: true) == [
                .finishedReadingAudio, .finishedRecognition, .finishedSuccessfully(true),
            ])
        #expect(machine.cancel().isEmpty)
        #expect(machine.completed(success: false).isEmpty)
        #expect(machine.state == .completed)
    }

    @Test func cancellingGoesThroughCanceling() {
        var machine = LegacyTaskStateMachine()
        #expect(machine.cancel() == [.wasCancelled])
        #expect(machine.state == .canceling)
        #expect(machine.hypothesis().isEmpty)
        #expect(machine.endOfAudio().isEmpty)
        #expect(machine.cancellationFinished() == [.finishedSuccessfully(false)])
        #expect(machine.state == .completed)
    }
}
