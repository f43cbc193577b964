// How the recorder makes modules, collects results, records calls and gives buffers.
// Written against Apple's public API only, so this file builds against the harness's `Speech` on
// Linux and Apple's on macOS 26.
import AVFoundation
import Foundation
import Speech

extension Recorder {
    /// What ended a module's result sequence, or "open" when it had not ended within `seconds`.
    static func ending(of reader: Task<String, Never>, within seconds: Double) async -> String {
        await withTaskGroup(of: String?.self) { group in
            group.addTask { await reader.value }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if first == nil { reader.cancel() }
            return first ?? "open"
        }
    }

    /// The scenario's modules, each with how the trace describes it.
    func makeModules(_ scenario: Scenario) -> [(module: any SpeechModule, description: TraceLine.Module)] {
        let id = locale.identifier
        func transcriber(_ locale: Locale, reporting: [String], attributes: [String]) -> TraceLine.Module {
            .init(
                index: 0, kind: "SpeechTranscriber", locale: locale.identifier,
                options: ["transcription": [], "reporting": reporting, "attributes": attributes])
        }
        switch scenario {
        case .streamVolatile, .volatileRange:
            return [
                (
                    SpeechTranscriber(
                        locale: locale, transcriptionOptions: [], reportingOptions: [.volatileResults],
                        attributeOptions: [.audioTimeRange, .transcriptionConfidence]),
                    transcriber(
                        locale, reporting: ["volatileResults"],
                        attributes: ["audioTimeRange", "transcriptionConfidence"])
                )
            ]
        case .dictation:
            return [
                (
                    DictationTranscriber(locale: locale, preset: .longDictation),
                    .init(index: 0, kind: "DictationTranscriber", locale: id, options: ["preset": ["longDictation"]])
                )
            ]
        case .detector:
            return [
                (
                    SpeechDetector(detectionOptions: .init(sensitivityLevel: .medium), reportResults: true),
                    .init(
                        index: 0, kind: "SpeechDetector", locale: nil,
                        options: ["sensitivityLevel": ["medium"], "reportResults": ["true"]])
                ),
                (
                    SpeechTranscriber(locale: locale, preset: .transcription),
                    .init(index: 1, kind: "SpeechTranscriber", locale: id, options: ["preset": ["transcription"]])
                ),
            ]
        case .twoLocales:
            return [locale, secondLocale].enumerated().map { index, locale in
                (
                    SpeechTranscriber(locale: locale, preset: .transcription),
                    .init(
                        index: index, kind: "SpeechTranscriber", locale: locale.identifier,
                        options: ["preset": ["transcription"]])
                )
            }
        case .uninstalledLocale:
            return [
                (
                    SpeechTranscriber(locale: missingLocale, preset: .transcription),
                    .init(
                        index: 0, kind: "SpeechTranscriber", locale: missingLocale.identifier,
                        options: ["preset": ["transcription"]])
                )
            ]
        default:
            return [
                (
                    SpeechTranscriber(
                        locale: locale, transcriptionOptions: [], reportingOptions: [],
                        attributeOptions: [.audioTimeRange]),
                    transcriber(locale, reporting: [], attributes: ["audioTimeRange"])
                )
            ]
        }
    }

    /// Every result of one module, as trace lines; what ended its sequence.
    func collect(_ module: any SpeechModule, index: Int, into log: TraceLog) async -> String {
        do {
            if let transcriber = module as? SpeechTranscriber {
                try await collect(transcriber.results, index: index, into: log) {
                    ($0.text, $0.alternatives)
                }
            } else if let dictation = module as? DictationTranscriber {
                try await collect(dictation.results, index: index, into: log) {
                    ($0.text, $0.alternatives)
                }
            } else if let detector = module as? SpeechDetector {
                for try await result in detector.results {
                    var entry = line(
                        index, result.range, result.resultsFinalizationTime, result.isFinal,
                        text: nil, alternatives: nil)
                    entry.speechDetected = result.speechDetected
                    log.append(.result(entry))
                }
            }
            return "finished"
        } catch {
            return "threw: \(Self.describe(error))"
        }
    }

    /// A transcriber's results as trace lines, its text and alternatives read by `words`.
    func collect<Results: AsyncSequence>(
        _ results: Results, index: Int, into log: TraceLog,
        words: (Results.Element) -> (AttributedString, [AttributedString])
    ) async throws where Results.Element: SpeechModuleResult {
        for try await result in results {
            let (text, alternatives) = words(result)
            log.append(
                .result(
                    line(
                        index, result.range, result.resultsFinalizationTime, result.isFinal, text: text,
                        alternatives: alternatives)))
        }
    }

    func line(
        _ module: Int, _ range: CMTimeRange, _ finalized: CMTime, _ isFinal: Bool, text: AttributedString?,
        alternatives: [AttributedString]?
    ) -> TraceLine.Result {
        let runs = text.map { text in
            text.runs.map { run in
                TraceLine.Run(
                    text: String(text[run.range].characters),
                    start: run.audioTimeRange.map { TraceLine.seconds($0.start.seconds) },
                    duration: run.audioTimeRange.map { TraceLine.seconds($0.duration.seconds) },
                    confidence: run.transcriptionConfidence.map { (($0 * 1000).rounded()) / 1000 })
            }
        }
        return TraceLine.Result(
            module: module, start: TraceLine.seconds(range.start.seconds),
            duration: TraceLine.seconds(range.duration.seconds), finalizedThrough: TraceLine.seconds(finalized.seconds),
            isFinal: isFinal, text: text.map { String($0.characters) }, runs: runs,
            alternatives: alternatives.map { $0.map { String($0.characters) } })
    }

    /// Runs `body` and records the call: its outcome, and the error it threw.
    @discardableResult
    func call(
        _ name: String, _ arguments: [String: String], _ given: Double, _ log: TraceLog,
        value: () -> String? = { nil }, _ body: () async throws -> Void
    ) async -> Bool {
        // A call's line takes its place when the call returns, after the results it let through.
        var outcome = await Self.outcome(body)
        if outcome.error == nil { outcome.value = value() }
        log.append(.call(Self.callLine(name, arguments, given, outcome)))
        return outcome.error == nil
    }

    /// How a call ended: the error it threw, or nil and what it returned.
    struct Outcome: Sendable {
        var error: String?
        var value: String?
    }

    static func outcome(_ body: () async throws -> Void) async -> Outcome {
        do {
            try await body()
            return Outcome()
        } catch {
            return Outcome(error: describe(error))
        }
    }

    static func callLine(
        _ name: String, _ arguments: [String: String], _ given: Double, _ outcome: Outcome
    )
        -> TraceLine.Call
    {
        .init(
            name: name, arguments: arguments, inputSeconds: TraceLine.seconds(given),
            outcome: outcome.error == nil ? "returned" : "threw", value: outcome.value, error: outcome.error)
    }

    /// Gives `buffer` to the analyzer, when its last sample would have been heard under real-time
    /// pacing, and counts it in `given`.
    func give(
        _ buffer: AVAudioPCMBuffer, to builder: AsyncStream<AnalyzerInput>.Continuation, given: inout Double,
        clock: InputClock
    ) async {
        let length = Double(buffer.frameLength) / buffer.format.sampleRate
        await clock.wait(until: given + length)
        builder.yield(AnalyzerInput(buffer: buffer))
        given += length
        clock.gave(length)
    }

    /// What a program does when starting failed: it ends the session, so that nothing waits on it.
    func abandon(_ analyzer: SpeechAnalyzer, _ given: Double, _ log: TraceLog) async {
        await call("cancelAndFinishNow()", [:], given, log) { await analyzer.cancelAndFinishNow() }
    }

    /// A tenth of a second of 44.1 kHz stereo silence: a format no module here takes.
    static func wronglyFormattedBuffer() -> AVAudioPCMBuffer? {
        guard
            let wide = AVAudioFormat(
                commonFormat: .pcmFormatFloat32, sampleRate: 44_100, channels: 2, interleaved: false),
            let buffer = AVAudioPCMBuffer(pcmFormat: wide, frameCapacity: 4_410)
        else { return nil }
        buffer.frameLength = 4_410
        return buffer
    }

    /// The audio's first second at 16 kHz, mono, as 16-bit little-endian samples.
    static func headBytes(of audio: URL) throws -> [UInt8] {
        let file = try AVAudioFile(forReading: audio)
        guard
            let mono = AVAudioFormat(
                commonFormat: .pcmFormatFloat32, sampleRate: 16_000, channels: 1, interleaved: false)
        else { throw RecordingFailure(description: "no 16 kHz mono format") }
        var bytes: [UInt8] = []
        for buffer in try analyzerBuffers(file, format: mono, frames: bufferFrames) {
            guard let samples = buffer.floatChannelData?[0] else { continue }
            for i in 0..<Int(buffer.frameLength) where bytes.count < 32_000 {
                let value = Int16(clamping: Int((Double(samples[i]) * 32_768).rounded()))
                bytes.append(UInt8(truncatingIfNeeded: value))
                bytes.append(UInt8(truncatingIfNeeded: value >> 8))
            }
        }
        return bytes
    }

    /// The file's audio in the analyzer's format, in buffers of `bufferFrames`.
    func analyzerBuffers(_ file: AVAudioFile, format: AVAudioFormat) throws -> [AVAudioPCMBuffer] {
        try Self.analyzerBuffers(file, format: format, frames: bufferFrames)
    }

    static func analyzerBuffers(
        _ file: AVAudioFile, format: AVAudioFormat, frames bufferFrames: AVAudioFrameCount
    )
        throws -> [AVAudioPCMBuffer]
    {
        let input = file.processingFormat
        guard let converter = AVAudioConverter(from: input, to: format) else {
            throw RecordingFailure(description: "no converter from \(Self.describe(input)) to \(Self.describe(format))")
        }
        var buffers: [AVAudioPCMBuffer] = []
        var ended = false
        while !ended {
            guard let output = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: bufferFrames) else { break }
            var failure: NSError?
            let status = converter.convert(to: output, error: &failure) { _, status in
                guard file.framePosition < file.length,
                    let chunk = AVAudioPCMBuffer(pcmFormat: input, frameCapacity: bufferFrames),
                    (try? file.read(into: chunk)) != nil, chunk.frameLength > 0
                else {
                    status.pointee = .endOfStream
                    return nil
                }
                status.pointee = .haveData
                return chunk
            }
            if let failure { throw failure }
            if output.frameLength > 0 { buffers.append(output) }
            ended = status == .endOfStream || status == .error || output.frameLength == 0
        }
        return buffers
    }

    static func describe(_ format: AVAudioFormat) -> String {
        "\(Int(format.sampleRate)) Hz, \(format.channelCount) ch, format \(format.commonFormat.rawValue)"
    }

    /// An error as the trace shows it: its NSError domain and code (what a program can test),
    /// then its type and its description.
    static func describe(_ error: any Error) -> String {
        let bridged = error as NSError
        return "\(bridged.domain) \(bridged.code): \(type(of: error)): \(error)"
    }
}
