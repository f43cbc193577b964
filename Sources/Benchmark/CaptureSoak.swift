@_spi(Harness) import AVFAudio
import CoreMedia
import Foundation
import SpeechCore
import SpeechReference
import VirtualDevice

/// A long live capture in fast pacing: the virtual microphone plays a recording, then goes on with
/// silence (the default end), through a tap, the app's own stream and a converter into
/// SpeechAnalyzer, as Apple's sample app does. Resident memory is read every `checkpointSeconds`
/// of audio; with back-pressure it stays flat however long the capture runs.
public struct CaptureSoak: Sendable {
    public struct Checkpoint: Sendable {
        public var audioSeconds: Double
        public var residentBytes: Int
        /// Delivered audio the program held that no recogniser had consumed yet.
        public var pendingSeconds: Double
    }

    public struct Report: Sendable {
        public var checkpoints: [Checkpoint]
        public var finalText: String
        public var peakPendingSeconds: Double
        /// The most unconsumed audio once the recogniser set the pace (see `CaptureFlow.peakPendingWhilePaced`).
        public var peakPacedSeconds: Double
        /// The pace's bound on it: the microphone's recognition lead.
        public var leadSeconds: Double
        public var wallSeconds: Double
    }

    public var recording: String
    public var engine: any RecognitionEngine
    public var audioSeconds: Double
    public var checkpointSeconds: Double
    public var measure: @Sendable () -> Int

    public init(
        recording: String, engine: any RecognitionEngine, audioSeconds: Double, checkpointSeconds: Double = 30,
        measure: @escaping @Sendable () -> Int
    ) {
        self.recording = recording
        self.engine = engine
        self.audioSeconds = audioSeconds
        self.checkpointSeconds = max(1, checkpointSeconds)
        self.measure = measure
    }

    public func run() async throws -> Report {
        let device = DeviceSettings(microphone: MicrophoneSettings(source: .file(path: recording), pacing: .fast))
        let clock = ContinuousClock()
        let started = clock.now
        var context = HarnessContext.current
        context.device = device
        context.engine = engine
        return try await HarnessContext.$current.withValue(context) {
            let transcriber = SpeechTranscriber(
                locale: Locale(identifier: "en-US"), transcriptionOptions: [],
                reportingOptions: [.volatileResults], attributeOptions: [])
            let converter = try await AnalyzerInputConverter.converter(compatibleWith: [transcriber])
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            let (inputs, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
            let finals = Task {
                var texts: [String] = []
                for try await result in transcriber.results where result.isFinal {
                    let text = String(result.text.characters).trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { texts.append(text) }
                }
                return texts.joined(separator: " ")
            }
            try await analyzer.start(inputSequence: inputs)
            let audioEngine = AVAudioEngine()
            let input = audioEngine.inputNode
            let (buffers, bufferSink) = AsyncStream.makeStream(
                of: (AVAudioPCMBuffer, AVAudioTime).self, bufferingPolicy: .unbounded)
            input.installTap(onBus: 0, bufferSize: 4_096, format: input.outputFormat(forBus: 0)) { buffer, when in
                bufferSink.yield((buffer, when))
            }
            try audioEngine.start()
            var checkpoints: [Checkpoint] = []
            var nextCheckpoint = 0.0
            for await (buffer, when) in buffers {
                for converted in try converter.convert(buffer, at: nil) { inputBuilder.yield(converted) }
                let heard =
                    Double(when.sampleTime + AVAudioFramePosition(buffer.frameLength)) / buffer.format.sampleRate
                if heard >= nextCheckpoint {
                    checkpoints.append(
                        Checkpoint(
                            audioSeconds: heard, residentBytes: measure(),
                            pendingSeconds: audioEngine.microphoneFlow?.pending ?? 0))
                    nextCheckpoint += checkpointSeconds
                }
                if heard >= audioSeconds { break }
            }
            let flow = audioEngine.microphoneFlow
            let peak = flow?.peakPending ?? 0, paced = flow?.peakPendingWhilePaced ?? 0
            let lead = flow?.pacing.recognitionLead ?? 0
            audioEngine.stop()
            input.removeTap(onBus: 0)
            bufferSink.finish()
            for converted in try converter.flush() { inputBuilder.yield(converted) }
            inputBuilder.finish()
            try await analyzer.finalizeAndFinishThroughEndOfInput()
            return Report(
                checkpoints: checkpoints, finalText: try await finals.value, peakPendingSeconds: peak,
                peakPacedSeconds: paced, leadSeconds: lead,
                wallSeconds: started.duration(to: clock.now).seconds)
        }
    }
}
