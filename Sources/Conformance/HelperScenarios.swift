@_spi(Harness) import AVFAudio
import AVFoundation
import AudioIO
import CoreMedia
import Foundation
import Records
import SpeechCore
@_spi(Harness) import SpeechReference
import VirtualDevice

/// An SDK 27 helper scenario: the speech through `AnalyzerInputConverter`, `AssetInputSequenceProvider`,
/// or `CaptureInputSequenceProvider` with a session of its own over the virtual microphone, into
/// SpeechAnalyzer; or `AnalyzerInput`'s own members; or the capture provider on a device whose audio
/// system cannot be set up; or what differs between a 26 and a 27 device.
public struct HelperRun: Codable, Sendable, Hashable {
    public enum Helper: String, Codable, Sendable { case converter, asset, capture, input, audioSystem, releases }
    public var helper: Helper
}

/// What a helper run must show.
public struct HelperExpectations: Codable, Sendable, Hashable {
    /// (converter) Calls of the configuration handler: one per internal converter.
    public var handlerCalls: Int?
    /// The inputs are in the analyzer's format, each starting where the one before ended, and
    /// together as long as the audio given.
    public var continuousTimes: Bool?
    /// (asset) A second read of `analyzerInputs` carries the whole track again.
    public var wholeTrackEachRead: Bool?
    /// (capture) A sequence stays open after `stopRunning()`, and ends when the output goes away.
    public var openAfterStop: Bool?
    /// (input) `buffer` is a new copy on each read; `bufferDuration` and `bufferFormat` describe it.
    public var bufferCopied: Bool?
    /// (audioSystem) `providerWithSession` throws `cannotConfigureAudioSystem` where the audio
    /// system cannot be configured.
    public var audioSystemFails: Bool?
    /// (releases) A 26 device orders `AssetInventory.Status` as 26 declares it and `buffer` is the
    /// stored buffer; a 27 device orders it as 27 does and copies.
    public var releaseDifferences: Bool?
}

/// Runs a helper scenario over the speech, written to a 48 kHz file (another rate than the
/// analyzer's, so that conversion happens), and checks its expectations.
struct HelperScenarioExecution {
    let scenario: Scenario
    let run: HelperRun
    let speech: SpokenDigits
    let exact: Bool

    func execute() async -> ScenarioOutcome {
        await speech.asFile(sampleRate: 48_000) { path in
            var device = DeviceSettings.current
            device.microphone = MicrophoneSettings(source: .file(path: path), pacing: .fast)
            return await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
                await helper(URL(fileURLWithPath: path))
            }
        }
    }

    private func helper(_ file: URL) async -> ScenarioOutcome {
        let expect = scenario.helperExpect ?? HelperExpectations()
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        var problems: [String] = []
        let seconds = Double(speech.samples.count) / 16_000
        do {
            guard let best = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]) else {
                return .error("no audio format for the transcriber")
            }
            switch run.helper {
            case .converter:
                let calls = Locked(0)
                let converter = AnalyzerInputConverter(analyzerFormat: best) { _ in calls.withLock { $0 += 1 } }
                let audio = try AVAudioFile(forReading: file)
                var inputs: [AnalyzerInput] = []
                while audio.framePosition < audio.length {
                    let buffer = AVAudioPCMBuffer(pcmFormat: audio.processingFormat, frameCapacity: 4_800)!
                    try audio.read(into: buffer)
                    inputs += try converter.convert(buffer, at: nil)
                }
                inputs += try converter.flush()
                if let wanted = expect.handlerCalls, calls.withLock({ $0 }) != wanted {
                    problems.append("the configuration handler ran \(calls.withLock { $0 }) times, expected \(wanted)")
                }
                if expect.continuousTimes == true {
                    problems += Self.timeProblems(inputs, format: best, seconds: seconds)
                }
                try await analyzer.start(inputSequence: InputStream.of(inputs))
                try await analyzer.finalizeAndFinishThroughEndOfInput()
            case .asset:
                let provider = try await AssetInputSequenceProvider.provider(
                    from: AVURLAsset(url: file), compatibleWith: [transcriber])
                var reads: [[AnalyzerInput]] = []
                for _ in 0..<2 {
                    var inputs: [AnalyzerInput] = []
                    for try await input in provider.analyzerInputs { inputs.append(input) }
                    reads.append(inputs)
                }
                if expect.continuousTimes == true {
                    problems += Self.timeProblems(reads[0], format: best, seconds: seconds)
                }
                if expect.wholeTrackEachRead == true, reads[1].map(\.bufferDuration) != reads[0].map(\.bufferDuration) {
                    problems.append("a second read carried \(reads[1].count) inputs, the first \(reads[0].count)")
                }
                try await analyzer.start(inputSequence: provider.analyzerInputs)
                try await analyzer.finalizeAndFinishThroughEndOfInput()
            case .capture:
                problems += try await capture(analyzer, transcriber, seconds: seconds, expect: expect)
            case .audioSystem:
                if expect.audioSystemFails == true { problems += await Self.audioSystemProblems(transcriber) }
                try await Self.analyzeSilence(analyzer, best, seconds: seconds)
            case .releases:
                if expect.releaseDifferences == true { problems += Self.releaseProblems(best, seconds: seconds) }
                try await Self.analyzeSilence(analyzer, best, seconds: seconds)
            case .input:
                problems += Self.inputProblems(best, seconds: seconds)
                try await Self.analyzeSilence(analyzer, best, seconds: seconds)
            }
        } catch {
            await analyzer.cancelAndFinishNow()
            return .failed(["the \(run.helper.rawValue) run failed: \(error)"])
        }
        let results = transcriber.publishedResults
        problems += ResultRules.problems(in: results, module: 0)
        let finalText = results.filter(\.isFinal).map { String($0.text.characters) }.filter { !$0.isEmpty }
            .joined(separator: " ")
        if [.converter, .asset, .capture].contains(run.helper), let text = scenario.expect.finalText, exact,
            finalText.lowercased() != text
        {
            problems.append("final text \"\(finalText)\", expected \"\(text)\"")
        }
        return problems.isEmpty ? .passed : .failed(problems)
    }

    /// The capture provider with a session of its own: the speech analyzed, the session stopped,
    /// the analysis finalized; then whether the sequence stayed open, and ended with the output.
    private func capture(
        _ analyzer: SpeechAnalyzer, _ transcriber: SpeechTranscriber, seconds: Double, expect: HelperExpectations
    ) async throws -> [String] {
        guard let device = AVCaptureDevice.default(for: .audio) else { return ["no microphone"] }
        var provider: CaptureInputSequenceProvider? = try await CaptureInputSequenceProvider.providerWithSession(
            from: device, compatibleWith: [transcriber])
        try await analyzer.start(inputSequence: provider!.analyzerInputs)
        var watched = provider!.analyzerInputs.makeAsyncIterator()
        provider!.captureSession.startRunning()
        try await analyzer.finalize(through: CMTime(seconds: seconds, preferredTimescale: 48_000))
        // Drain what the watched sequence has, up to the audio analysed, then stop.
        while let input = try await watched.next(), (input.bufferStartTime ?? .zero).seconds < seconds {}
        provider!.captureSession.stopRunning()
        try await analyzer.finalize(through: nil)
        await analyzer.cancelAndFinishNow()
        guard expect.openAfterStop == true else { return [] }
        var problems: [String] = []
        // A sequence taken after the session stopped is open: once the session runs again it
        // carries the new audio (a sequence that ended at the stop would end at once). Nothing
        // waits on time: both answers come as soon as the session runs.
        var later = provider!.analyzerInputs.makeAsyncIterator()
        provider!.captureSession.startRunning()
        if try await later.next() == nil { problems.append("the sequences ended when the session stopped") }
        provider!.captureSession.stopRunning()
        // Both sequences end once the output goes away (the session and the provider let go of).
        provider = nil
        while try await watched.next() != nil {}
        while try await later.next() != nil {}
        return problems
    }

    /// The converted inputs start at zero, follow one another, are in the analyzer's format, and
    /// add up to the audio given (to within a frame at each end).
    static func timeProblems(_ inputs: [AnalyzerInput], format: AVAudioFormat, seconds: Double) -> [String] {
        var end = CMTime.zero
        for input in inputs {
            guard input.bufferFormat == format else { return ["an input in \(input.bufferFormat), not \(format)"] }
            guard let start = input.bufferStartTime, start == end else {
                return [
                    "an input starts at \(input.bufferStartTime?.seconds ?? -1) s, after one that ended at \(end.seconds) s"
                ]
            }
            end = start + input.bufferDuration
        }
        return abs(end.seconds - seconds) <= 2 / format.sampleRate
            ? [] : [String(format: "the inputs last %.4f s of %.4f s given", end.seconds, seconds)]
    }

    /// `buffer` on a 27 device: a new copy with the same samples on each read.
    static func inputProblems(_ format: AVAudioFormat, seconds: Double) -> [String] {
        let given = silence(format, seconds: seconds)
        let input: any GivesBuffer = AnalyzerInput(buffer: given)
        var problems: [String] = []
        let described = AnalyzerInput(buffer: given)
        let duration = CMTime(sampleIndex: Int64(given.frameLength), sampleRate: format.sampleRate)
        if described.bufferFormat != format || described.bufferDuration != duration {
            problems.append("bufferFormat or bufferDuration does not describe the buffer")
        }
        let first = input.buffer, second = input.buffer
        if first === given || first === second { problems.append("buffer is not a new copy on each read") }
        if first.pcmBuffer != given.pcmBuffer { problems.append("the copy does not hold the buffer's samples") }
        return problems
    }

    /// The capture provider with a session of its own, on a device whose audio system cannot be
    /// configured: it throws `cannotConfigureAudioSystem`.
    static func audioSystemProblems(_ transcriber: SpeechTranscriber) async -> [String] {
        var device = DeviceSettings.current
        device.audioSessionConfigurable = false
        return await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
            () async -> [String] in
            guard let microphone = AVCaptureDevice.default(for: .audio) else { return ["no microphone"] }
            do {
                _ = try await CaptureInputSequenceProvider.providerWithSession(
                    from: microphone, compatibleWith: [transcriber])
                return ["providerWithSession set up capture where the audio system cannot be configured"]
            } catch let error as SFSpeechError where error.code == .cannotConfigureAudioSystem {
                return []
            } catch {
                return ["providerWithSession threw \(error), not cannotConfigureAudioSystem"]
            }
        }
    }

    /// What a 26 and a 27 device answer differently: the order of `AssetInventory.Status` (each
    /// release's declaration order) and whether `buffer` is a new copy.
    static func releaseProblems(_ format: AVAudioFormat, seconds: Double) -> [String] {
        var problems: [String] = []
        let given = silence(format, seconds: seconds)
        let declared: [OSRelease: [AssetInventory.Status]] = [
            .release26: [.unsupported, .supported, .downloading, .installed],
            .release27: [.unsupported, .downloading, .supported, .installed],
        ]
        for release in [OSRelease.release26, .release27] {
            var device = DeviceSettings.current
            device.osRelease = release
            HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
                let sorted = [AssetInventory.Status.installed, .supported, .unsupported, .downloading].sorted()
                if sorted != declared[release] {
                    problems.append(
                        "on \(release.rawValue) the statuses sort as \(sorted), not as \(release.rawValue) declares them"
                    )
                }
                let input: any GivesBuffer = AnalyzerInput(buffer: given)
                let copies = input.buffer !== input.buffer
                if copies != (release == .release27) {
                    problems.append("on \(release.rawValue) buffer \(copies ? "is" : "is not") a new copy on each read")
                }
            }
        }
        return problems
    }

    /// The checks that need no speech still run a whole session: one input of silence, finished.
    static func analyzeSilence(_ analyzer: SpeechAnalyzer, _ format: AVAudioFormat, seconds: Double) async throws {
        try await analyzer.start(
            inputSequence: InputStream.of([AnalyzerInput(buffer: silence(format, seconds: seconds))]))
        try await analyzer.finalizeAndFinishThroughEndOfInput()
    }

    static func silence(_ format: AVAudioFormat, seconds: Double) -> AVAudioPCMBuffer {
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(seconds * format.sampleRate))!
        buffer.frameLength = buffer.frameCapacity
        return buffer
    }
}

/// `AnalyzerInput.buffer` read as the scenario reads it: it checks the deprecated member's
/// documented behaviour, so reaches it through this requirement rather than by name.
protocol GivesBuffer {
    var buffer: AVAudioPCMBuffer { get }
}

extension AnalyzerInput: GivesBuffer {}

/// A finite input sequence of the given inputs.
enum InputStream {
    static func of(_ inputs: [AnalyzerInput]) -> AsyncStream<AnalyzerInput> {
        let (stream, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        inputs.forEach { continuation.yield($0) }
        continuation.finish()
        return stream
    }
}
