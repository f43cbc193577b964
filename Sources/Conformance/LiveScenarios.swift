import AVFAudio
import AudioIO
import CoreMedia
import EngineCore
import Foundation
@_spi(Harness) import LegacySpeech
import Records
import SpeechCore
@_spi(Harness) import SpeechReference
import VirtualDevice

/// The legacy recogniser's run in a scenario: how results are received, whether partials are
/// asked for, and how the request ends.
public struct LegacyRun: Codable, Sendable, Hashable {
    public enum Sink: String, Codable, Sendable { case handler, delegate }
    public enum Ending: String, Codable, Sendable {
        /// `endAudio()` on the request after the audio.
        case endAudio
        /// `task.finish()` once `endAt` seconds were supplied.
        case finish
        /// `task.cancel()` once `endAt` seconds were supplied.
        case cancel
    }

    public var sink: Sink
    public var partialResults: Bool
    public var end: Ending
    /// Seconds of audio supplied before `finish`/`cancel` (nil: all of it).
    public var endAt: Double?
}

/// What the legacy run must show.
public struct LegacyExpectations: Codable, Sendable, Hashable {
    /// A final result was (or was not) delivered.
    public var final: Bool?
    /// Partial results were delivered (true) or none (false).
    public var partials: Bool?
    /// The error the task ended with; absent: none.
    public var error: ExpectedError?
    /// Task states seen over the run only move forward (starting, running, finishing or
    /// canceling, completed) and end at completed.
    public var statesInOrder: Bool?
    /// Delegate callbacks come in the documented order, the last being didFinishSuccessfully.
    public var delegateOrder: Bool?
    /// `didFinishSuccessfully`'s value.
    public var successfully: Bool?
}

/// An error by its domain and code, as `NSError` carries them: `{"domain": "kLSRErrorDomain", "code": 301}`.
public struct ExpectedError: Codable, Sendable, Hashable, CustomStringConvertible {
    public var domain: String
    public var code: Int

    public var description: String { "\(domain):\(code)" }
}

/// A capture scenario: the speech played by the virtual microphone, tapped in the hardware format,
/// converted with AVAudioConverter and fed to SpeechAnalyzer, as apps do.
public struct CaptureRun: Codable, Sendable, Hashable {
    public var bufferSize: UInt32
    public var hardwareRate: Double?
}

public struct CaptureExpectations: Codable, Sendable, Hashable {
    /// Each tap buffer starts where the previous ended, lasts 100–400 ms, and its host time
    /// matches its sample time.
    public var tapTimesContinuous: Bool?
    /// What the app was told, in order: `interruptionBegan`, `interruptionEnded` (with
    /// `shouldResume`), `routeChange` (with its reason), `configurationChange`.
    public var notifications: [String]?
    /// Seconds of audio that never reached the tap (the jumps in its sample times), to 0.1 s.
    public var lostSeconds: Double?
}

/// Runs a scenario's legacy run on an engine and checks its expectations.
struct LegacyScenarioExecution {
    let scenario: Scenario
    let run: LegacyRun
    let engine: any RecognitionEngine
    let speech: SpokenDigits
    let exact: Bool

    final class Observer: NSObject, SFSpeechRecognitionTaskDelegate, @unchecked Sendable {
        let events = Locked<[String]>([])
        let states = Locked<[SFSpeechRecognitionTaskState]>([])
        let finals = Locked<[String]>([])
        let partials = Locked<Int>(0)
        let error = Locked<NSError?>(nil)
        weak var task: SFSpeechRecognitionTask?

        func note(_ event: String, _ task: SFSpeechRecognitionTask) {
            events.withLock { $0.append(event) }
            states.withLock { $0.append(task.state) }
        }

        func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) { note("detectedSpeech", task) }
        func speechRecognitionTask(
            _ task: SFSpeechRecognitionTask, didHypothesizeTranscription transcription: SFTranscription
        ) {
            partials.withLock { $0 += 1 }
            note("hypothesized", task)
        }
        func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask) {
            note("finishedReadingAudio", task)
        }
        func speechRecognitionTask(
            _ task: SFSpeechRecognitionTask, didFinishRecognition recognitionResult: SFSpeechRecognitionResult
        ) {
            finals.withLock { $0.append(recognitionResult.bestTranscription.formattedString) }
            note("finishedRecognition", task)
        }
        func speechRecognitionTaskWasCancelled(_ task: SFSpeechRecognitionTask) { note("wasCancelled", task) }
        func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
            if let taskError = task.error as NSError? { error.withLock { $0 = taskError } }
            note("finishedSuccessfully:\(successfully)", task)
        }
        func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didProcessAudioDuration duration: TimeInterval) {
            note("processedAudioDuration", task)
        }
    }

    func execute() async -> ScenarioOutcome {
        let recognizer = SFSpeechRecognizer(
            locale: Locale(identifier: scenario.modules.first?.locale ?? "en-US"), engine: engine)
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.shouldReportPartialResults = run.partialResults
        request.requiresOnDeviceRecognition = true
        let observer = Observer()
        let task: SFSpeechRecognitionTask
        switch run.sink {
        case .delegate:
            task = recognizer.recognitionTask(with: request, delegate: observer)
        case .handler:
            task = recognizer.recognitionTask(with: request) { [observer] result, error in
                guard let current = observer.task else { return }
                if let result {
                    if result.isFinal {
                        observer.finals.withLock { $0.append(result.bestTranscription.formattedString) }
                    } else {
                        observer.partials.withLock { $0 += 1 }
                    }
                    observer.note(result.isFinal ? "final" : "partial", current)
                }
                if let error {
                    observer.error.withLock { $0 = error as NSError }
                    observer.note("error", current)
                }
            }
        }
        observer.task = task
        observer.states.withLock { $0.append(task.state) }
        let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let limit = run.endAt.map { Int($0 * 16_000) } ?? speech.samples.count
        for start in stride(from: 0, to: min(limit, speech.samples.count), by: 1_600) {
            let count = min(1_600, speech.samples.count - start, limit - start)
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(count))!
            buffer.frameLength = AVAudioFrameCount(count)
            for i in 0..<count { buffer.floatChannelData![0][i] = speech.samples[start + i] }
            request.append(buffer)
        }
        switch run.end {
        case .endAudio: request.endAudio()
        case .finish: task.finish()
        case .cancel: task.cancel()
        }
        await task.waitUntilCompleted()
        observer.states.withLock { $0.append(task.state) }
        return check(observer)
    }

    func check(_ observer: Observer) -> ScenarioOutcome {
        var problems: [String] = []
        let expect = scenario.legacyExpect ?? LegacyExpectations()
        let finals = observer.finals.withLock { $0 }, partials = observer.partials.withLock { $0 }
        let events = observer.events.withLock { $0 }, states = observer.states.withLock { $0 }
        if let final = expect.final, final != !finals.isEmpty {
            problems.append(final ? "no final result" : "a final result after \(run.end): \(finals)")
        }
        if let text = scenario.expect.finalText, exact, let got = finals.last, got.lowercased() != text {
            problems.append("final text \"\(got)\", expected \"\(text)\"")
        }
        if let wanted = expect.partials, wanted != (partials > 0) {
            problems.append(
                wanted ? "no partial results" : "\(partials) partial results with shouldReportPartialResults off")
        }
        let error = observer.error.withLock { $0 }.map { ExpectedError(domain: $0.domain, code: $0.code) }
        if error != expect.error {
            problems.append(
                "error \(error.map(\.description) ?? "none"), expected \(expect.error.map(\.description) ?? "none")")
        }
        if expect.statesInOrder ?? true {
            let order: [SFSpeechRecognitionTaskState] = [.starting, .running, .finishing, .canceling, .completed]
            let ranks = states.compactMap { order.firstIndex(of: $0) }
            if zip(ranks, ranks.dropFirst()).contains(where: { $1 < $0 }) || states.last != .completed {
                problems.append("task states out of order: \(states.map { "\($0)" }.joined(separator: " → "))")
            }
        }
        if run.sink == .delegate, expect.delegateOrder ?? true {
            let rank: (String) -> Int = { event in
                switch event {
                case "detectedSpeech": return 0
                case "hypothesized": return 1
                case "finishedReadingAudio", "processedAudioDuration": return 2
                case "finishedRecognition", "wasCancelled": return 3
                default: return 4
                }
            }
            // Hypotheses may still come while final processing runs after the audio ended
            // ("finished reading audio … even if final processing is in progress"), not after the end.
            let ranks = events.filter { $0 != "hypothesized" }.map(rank)
            if let end = events.firstIndex(where: { $0 == "finishedRecognition" || $0 == "wasCancelled" }),
                events[end...].contains("hypothesized")
            {
                problems.append("a hypothesis after \(events[end])")
            }
            let finishes = events.filter { $0.hasPrefix("finishedSuccessfully") }
            if zip(ranks, ranks.dropFirst()).contains(where: { $1 < $0 }) || finishes.count != 1
                || events.last?.hasPrefix("finishedSuccessfully") != true
                || events.filter({ $0 == "detectedSpeech" }).count > 1
            {
                problems.append("delegate order: \(events.joined(separator: ", "))")
            }
            if let successfully = expect.successfully, finishes.first != "finishedSuccessfully:\(successfully)" {
                problems.append(
                    "\(finishes.first ?? "no didFinishSuccessfully"), expected successfully: \(successfully)")
            }
        }
        return problems.isEmpty ? .passed : .failed(problems)
    }
}

/// Runs a capture scenario: virtual microphone → tap → converter → SpeechAnalyzer.
struct CaptureScenarioExecution {
    let scenario: Scenario
    let run: CaptureRun
    let speech: SpokenDigits
    let exact: Bool

    func execute() async -> ScenarioOutcome {
        await speech.asFile(sampleRate: 16_000) { path in
            let rate = run.hardwareRate ?? 48_000
            // The scenario's device, with the speech as its microphone's recording; a call or a
            // route change it sets stays.
            var device = DeviceSettings.current
            device.microphone = MicrophoneSettings(
                source: .file(path: path), sampleRate: rate, pacing: .fast, end: .stopEngine(afterSilence: 0.5),
                interruption: device.microphone.interruption)
            return await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
                await capture(hardwareRate: rate)
            }
        }
    }

    private func capture(hardwareRate: Double) async -> ScenarioOutcome {
        var problems: [String] = []
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
        guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]) else {
            return .error("no audio format for the transcriber")
        }
        let ranges = Locked<[CMTimeRange]>([])
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        await analyzer.setVolatileRangeChangedHandler { range, _, _ in ranges.withLock { $0.append(range) } }
        let (input, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let engine = AVAudioEngine()
        let node = engine.inputNode
        let (buffers, sink) = AsyncStream.makeStream(of: (AVAudioPCMBuffer, AVAudioTime).self)
        node.installTap(onBus: 0, bufferSize: run.bufferSize, format: node.outputFormat(forBus: 0)) { buffer, when in
            sink.yield((buffer, when))
        }
        // The app of Apple's interruption guide: it starts the engine again when a call ends with
        // `shouldResume`, and after a configuration change that a route change caused; any other
        // configuration change (the recording ran out) ends the capture.
        let notified = Locked<[String]>([])
        let routeChanged = Locked(false)
        let center = NotificationCenter.default
        let session = AVAudioSession.sharedInstance()
        let observers = [
            center.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil) { _ in
                notified.withLock { $0.append("configurationChange") }
                if routeChanged.withLock({ $0 }) {
                    routeChanged.withLock { $0 = false }
                    try? engine.start()
                } else {
                    sink.finish()
                }
            },
            center.addObserver(forName: AVAudioSession.interruptionNotification, object: session, queue: nil) { note in
                let info = note.userInfo ?? [:]
                guard let raw = info[AVAudioSessionInterruptionTypeKey] as? UInt,
                    let type = AVAudioSession.InterruptionType(rawValue: raw)
                else { return }
                let options = AVAudioSession.InterruptionOptions(
                    rawValue: info[AVAudioSessionInterruptionOptionKey] as? UInt ?? 0)
                notified.withLock { $0.append(type == .began ? "interruptionBegan" : "interruptionEnded") }
                if type == .ended, options.contains(.shouldResume) { try? engine.start() }
            },
            center.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: nil) { _ in
                notified.withLock { $0.append("routeChange") }
                routeChanged.withLock { $0 = true }
            },
        ]
        defer { observers.forEach(center.removeObserver) }
        guard let converter = AVAudioConverter(from: node.outputFormat(forBus: 0), to: format) else {
            return .error("no converter to \(format)")
        }
        var times: [(sample: Int64, host: UInt64, frames: Int)] = []
        do {
            try await analyzer.start(inputSequence: input)
            try engine.start()
            for await (buffer, when) in buffers {
                times.append((when.sampleTime, when.hostTime, Int(buffer.frameLength)))
                let capacity =
                    AVAudioFrameCount(
                        (Double(buffer.frameLength) * format.sampleRate / buffer.format.sampleRate).rounded(.up)) + 1
                let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: capacity)!
                var given = false
                var error: NSError?
                let status = converter.convert(to: out, error: &error) { _, status in
                    defer { given = true }
                    status.pointee = given ? .noDataNow : .haveData
                    return given ? nil : buffer
                }
                if status == .error { problems.append("conversion failed: \(error?.localizedDescription ?? "")") }
                if out.frameLength > 0 { builder.yield(AnalyzerInput(buffer: out)) }
            }
            builder.finish()
            try await analyzer.finalizeAndFinishThroughEndOfInput()
        } catch {
            engine.stop()
            await analyzer.cancelAndFinishNow()
            return .failed(["the live pipeline failed: \(error)"])
        }
        if scenario.captureExpect?.tapTimesContinuous ?? true {
            let shortest = Int(hardwareRate * 0.1), longest = Int(hardwareRate * 0.4)
            for (a, b) in zip(times, times.dropFirst()) where b.sample != a.sample + Int64(a.frames) {
                problems.append("tap buffer at \(b.sample) does not follow the one at \(a.sample) (\(a.frames) frames)")
                break
            }
            if let bad = times.first(where: { !(shortest...longest).contains($0.frames) }) {
                problems.append("a tap buffer of \(bad.frames) frames")
            }
            if let first = times.first,
                let bad = times.first(where: {
                    abs(Double($0.host - first.host) / 1e9 - Double($0.sample - first.sample) / hardwareRate) > 1e-6
                })
            {
                problems.append("host time \(bad.host) does not match sample time \(bad.sample)")
            }
        }
        if let expected = scenario.captureExpect?.notifications, expected != notified.withLock({ $0 }) {
            problems.append("the app was told \(notified.withLock { $0 }), expected \(expected)")
        }
        if let expected = scenario.captureExpect?.lostSeconds {
            let lost = zip(times, times.dropFirst()).reduce(0.0) { total, pair in
                total + Double(pair.1.sample - pair.0.sample - Int64(pair.0.frames)) / hardwareRate
            }
            if abs(lost - expected) > 0.1 + 1e-9 {
                problems.append(
                    String(format: "%.2f s of audio never reached the tap, expected %.2f s", lost, expected))
            }
        }
        let results = transcriber.publishedResults
        problems += ResultRules.problems(in: results, module: 0)
        for (a, b) in zip(ranges.withLock { $0 }, ranges.withLock { $0 }.dropFirst()) where b.start < a.start {
            problems.append("volatile range start moved back from \(a.start.seconds) to \(b.start.seconds)")
            break
        }
        let finalText = results.filter(\.isFinal).map { String($0.text.characters) }.filter { !$0.isEmpty }.joined(
            separator: " ")
        if let text = scenario.expect.finalText, exact, finalText.lowercased() != text {
            problems.append("final text \"\(finalText)\", expected \"\(text)\"")
        }
        if !exact && finalText.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append("nothing was transcribed from the microphone")
        }
        return problems.isEmpty ? .passed : .failed(problems)
    }
}

/// The result rules every module's results obey (SA-RESULT-*): isFinal from the finalization
/// time, alternatives never empty with the text first, final ranges in order and disjoint.
enum ResultRules {
    static func problems(in results: [SpeechTranscriber.Result], module i: Int) -> [String] {
        var problems: [String] = []
        var lastFinalEnd = CMTime.negativeInfinity
        for result in results {
            if result.isFinal != (result.resultsFinalizationTime >= result.range.end) {
                problems.append("module \(i): isFinal rule broken by \(result)")
            }
            if result.alternatives.isEmpty || result.text != result.alternatives[0] {
                problems.append("module \(i): alternatives rule broken")
            }
            if result.isFinal && !result.text.characters.isEmpty {
                if result.range.start < lastFinalEnd {
                    problems.append("module \(i): final results overlap at \(result.range.start.seconds)")
                }
                lastFinalEnd = result.range.end
            }
        }
        return problems
    }
}
