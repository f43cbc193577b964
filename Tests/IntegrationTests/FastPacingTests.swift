@_spi(Harness) import AVFAudio
import CoreMedia
import EngineCore
import Foundation
import LegacySpeech
import PocketSphinx
import SpeechCore
import SpeechReference
import TestSupport
import Testing
import VirtualDevice

/// The two live controller shapes in fast pacing with the default end (the microphone goes on
/// with silence after its recording): the tap → legacy buffer request, and Apple's sample pattern
/// (tap → the app's own stream → AVAudioConverter → AnalyzerInput). Capture never runs more than
/// the lead ahead of recognition, so when the app stops, what is left to decode is under a second
/// and the final result is the recording's. The stop comes after a set amount of audio rather than
/// a wall-clock timer, so the test is the same on any machine.
@Suite("Fast pacing waits for the recogniser", .isolatedResources, .serialized)
struct FastPacingTests {
    /// LibriVox read speech (pocketsphinx-testdata): "he might even have been made amiable himself".
    static let recording = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav"
    static let available = SystemFixture.available(recording)
    /// Seconds of audio (3.4 s of speech, then silence) heard before the app stops.
    static let stopAfter = 12.0

    static let device = DeviceSettings(
        microphone: MicrophoneSettings(source: .file(path: recording), pacing: .fast),
        recordPermission: .authorized, speechAuthorization: .authorized)

    /// Calls `stop` once the tap has delivered `stopAfter` seconds of audio.
    final class StopSwitch: @unchecked Sendable {
        private let fired = Locked(false)
        let signal: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation
        init() { (signal, continuation) = AsyncStream.makeStream(of: Void.self) }

        func heard(_ buffer: AVAudioPCMBuffer, at when: AVAudioTime) {
            let seconds = Double(when.sampleTime + AVAudioFramePosition(buffer.frameLength)) / buffer.format.sampleRate
            let first = fired.withLock { fired -> Bool in
                defer { fired = fired || seconds >= FastPacingTests.stopAfter }
                return !fired && seconds >= FastPacingTests.stopAfter
            }
            guard first else { return }
            continuation.yield()
            continuation.finish()
        }

        func wait() async { for await _ in signal {} }
    }

    @Test(.enabled(if: available, "pocketsphinx-testdata's LibriVox recording is not installed"))
    func theLegacyDictationControllerGetsItsFinalResult() async throws {
        let engine = PocketSphinxEngine(search: .languageModel, decoding: .streaming)
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.device)) {
            try await HarnessContext.$current.withValue(HarnessContext.current.with(\.engine, engine)) {
                let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
                let request = SFSpeechAudioBufferRecognitionRequest()
                request.shouldReportPartialResults = true
                let (finals, finished) = AsyncStream.makeStream(of: String.self)
                let task = recognizer.recognitionTask(with: request) { result, error in
                    if let result, result.isFinal { finished.yield(result.bestTranscription.formattedString) }
                    if error != nil || result?.isFinal == true { finished.finish() }
                }
                let audioEngine = AVAudioEngine()
                let input = audioEngine.inputNode
                let stop = StopSwitch()
                input.installTap(onBus: 0, bufferSize: 1024, format: input.outputFormat(forBus: 0)) { buffer, when in
                    request.append(buffer)
                    stop.heard(buffer, at: when)
                }
                try audioEngine.start()
                await stop.wait()
                let flow = try #require(audioEngine.microphoneFlow)
                let pendingAtStop = flow.pending
                // What the issue's controller does when its timer fires.
                audioEngine.stop()
                input.removeTap(onBus: 0)
                request.endAudio()
                var final = ""
                for await text in finals { final = text }
                #expect(final.lowercased().hasPrefix("he might even"), "final: \(final)")
                #expect(task.state == .completed)
                Self.expectWithinLead(flow, pendingAtStop: pendingAtStop, throughout: true)
            }
        }
    }

    @Test(.enabled(if: available, "pocketsphinx-testdata's LibriVox recording is not installed"))
    func theAnalyzerSamplePatternGetsItsFinalResult() async throws {
        let engine = PocketSphinxEngine(search: .languageModel, decoding: .streaming)
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.device)) {
            try await HarnessContext.$current.withValue(HarnessContext.current.with(\.engine, engine)) {
                let transcriber = SpeechTranscriber(
                    locale: Locale(identifier: "en-US"), transcriptionOptions: [], reportingOptions: [.volatileResults],
                    attributeOptions: [])
                let format = try #require(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]))
                let analyzer = SpeechAnalyzer(modules: [transcriber])
                let (inputs, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
                let finals = Task {
                    var text = ""
                    for try await result in transcriber.results where result.isFinal {
                        text += String(result.text.characters)
                    }
                    return text
                }
                try await analyzer.start(inputSequence: inputs)
                let audioEngine = AVAudioEngine()
                let input = audioEngine.inputNode
                let (buffers, bufferSink) = AsyncStream.makeStream(
                    of: AVAudioPCMBuffer.self, bufferingPolicy: .unbounded)
                let stop = StopSwitch()
                input.installTap(onBus: 0, bufferSize: 4096, format: input.outputFormat(forBus: 0)) { buffer, when in
                    bufferSink.yield(buffer)
                    stop.heard(buffer, at: when)
                }
                try audioEngine.start()
                let feeding = Task {
                    let converter = try #require(AVAudioConverter(from: input.outputFormat(forBus: 0), to: format))
                    for await buffer in buffers {
                        inputBuilder.yield(AnalyzerInput(buffer: try Self.convert(buffer, with: converter, to: format)))
                    }
                }
                await stop.wait()
                let flow = try #require(audioEngine.microphoneFlow)
                let pendingAtStop = flow.pending
                bufferSink.finish()
                try await feeding.value
                audioEngine.stop()
                input.removeTap(onBus: 0)
                inputBuilder.finish()
                try await analyzer.finalizeAndFinishThroughEndOfInput()
                let final = try await finals.value
                #expect(final.lowercased().hasPrefix("he might even"), "final: \(final)")
                Self.expectWithinLead(flow, pendingAtStop: pendingAtStop, throughout: false)
            }
        }
    }

    /// Apple's sample pattern whose recogniser fails mid-capture (a scripted engine throwing at
    /// 2 s): the analyzer reads no more, so the microphone must not wait for it; the tap goes on to
    /// the end of the recording, as on a device, and the app sees the error where it waits.
    @Test(
        .enabled(if: available, "pocketsphinx-testdata's LibriVox recording is not installed"),
        .timeLimit(.minutes(1)))
    func aRecogniserThatFailsDoesNotHoldTheMicrophone() async throws {
        let engine = ScriptedEngine(
            script: EngineScript(
                words: [.init("he", start: 0.2, end: 0.4)], faults: [.throwAt(2, message: "the engine broke")]))
        var device = Self.device
        device.microphone.end = .stopEngine(afterSilence: 0.5)
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
            try await HarnessContext.$current.withValue(HarnessContext.current.with(\.engine, engine)) {
                let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
                let format = try #require(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]))
                let analyzer = SpeechAnalyzer(modules: [transcriber])
                let (inputs, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
                try await analyzer.start(inputSequence: inputs)
                let audioEngine = AVAudioEngine()
                let input = audioEngine.inputNode
                let (buffers, bufferSink) = AsyncStream.makeStream(of: AVAudioPCMBuffer.self)
                input.installTap(onBus: 0, bufferSize: 4096, format: input.outputFormat(forBus: 0)) { buffer, _ in
                    bufferSink.yield(buffer)
                }
                let observer = NotificationCenter.default.addObserver(
                    forName: .AVAudioEngineConfigurationChange, object: audioEngine, queue: nil
                ) { _ in bufferSink.finish() }
                defer { NotificationCenter.default.removeObserver(observer) }
                try audioEngine.start()
                let converter = try #require(AVAudioConverter(from: input.outputFormat(forBus: 0), to: format))
                var heard = 0.0
                // Ends when the microphone stops after its recording (it would never end if the
                // microphone kept waiting for the failed analyzer).
                for await buffer in buffers {
                    heard += Double(buffer.frameLength) / buffer.format.sampleRate
                    inputBuilder.yield(AnalyzerInput(buffer: try Self.convert(buffer, with: converter, to: format)))
                }
                inputBuilder.finish()
                #expect(heard > 3, "the tap heard \(heard) s")
                await #expect(throws: (any Error).self) { try await analyzer.finalizeAndFinishThroughEndOfInput() }
                do {
                    for try await _ in transcriber.results {}
                    Issue.record("the results ended without the engine's error")
                } catch {
                    #expect("\(error)".contains("the engine broke"), "\(error)")
                }
            }
        }
    }

    /// A tap buffer in the analyzer's format, as Apple's sample converts it (one input per call).
    static func convert(
        _ buffer: AVAudioPCMBuffer, with converter: AVAudioConverter, to format: AVAudioFormat
    ) throws -> AVAudioPCMBuffer {
        let capacity = AVAudioFrameCount(
            (Double(buffer.frameLength) * format.sampleRate / buffer.format.sampleRate).rounded(.up))
        let converted = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: capacity))
        var given = false
        var error: NSError?
        _ = converter.convert(to: converted, error: &error) { _, status in
            defer { given = true }
            status.pointee = given ? .noDataNow : .haveData
            return given ? nil : buffer
        }
        return converted
    }

    /// Once a recogniser sets the pace, the program never holds more than the lead (1 s) of audio
    /// no recogniser has consumed, and holds at most that when the app stops. With the legacy
    /// request that holds from the first buffer, since `append` hands each buffer to recognition
    /// inside the tap. Apple's pattern hands buffers over from the app's own stream, so capture
    /// runs on the clock until the analyzer pulls its first buffer; how far it gets meanwhile
    /// depends on how busy the machine is, so only the paced peak is a verdict here.
    static func expectWithinLead(_ flow: CaptureFlow, pendingAtStop: Double, throughout: Bool) {
        let lead = device.microphone.fastPacing.recognitionLead
        #expect(pendingAtStop <= lead + 1e-6, "unconsumed audio at the stop: \(pendingAtStop) s")
        #expect(
            flow.peakPendingWhilePaced <= lead + 1e-6,
            "peak unconsumed audio while paced: \(flow.peakPendingWhilePaced) s")
        if throughout { #expect(flow.peakPending <= lead + 1e-6, "peak unconsumed audio \(flow.peakPending) s") }
    }
}
