// The recorded scenarios: what a program does with the analyzer, written against Apple's public
// API only, so this file builds against the harness's `Speech` on Linux and Apple's on macOS 26.
import AVFoundation
import Foundation
import Speech

/// A way of running an analysis session over one audio file.
enum Scenario: String, CaseIterable {
    /// The analyzer reads the file and finishes after it.
    case file
    /// Buffers yielded into an input sequence; the input ends; finalize and finish.
    case stream
    /// The same with volatile results and time and confidence attributes.
    case streamVolatile = "stream-volatile"
    /// `finalize(through:)` halfway through the audio, then the rest.
    case finalizeMidStream = "finalize-mid-stream"
    /// Half the audio, then `cancelAndFinishNow()`.
    case cancel
    /// A DictationTranscriber instead of a SpeechTranscriber.
    case dictation
    /// A SpeechDetector beside the transcriber, reporting its results.
    case detector
    /// An input sequence that ends without audio.
    case empty
    /// A locale the transcriber has no assets for, without installing them.
    case uninstalledLocale = "uninstalled-locale"
    /// `analyzeSequence(_:)`, then `finalizeAndFinish(through:)` what it returned.
    case analyzeSequence = "analyze-sequence"
    /// A buffer whose start time is before the end of the one before.
    case overlappingInput = "overlapping-input"
    /// A buffer in a format the modules cannot take (44.1 kHz stereo).
    case wrongFormat = "wrong-format"
    /// Half the audio, `finalize(through:)` it, a second input sequence replacing the first (which
    /// then ends) carrying the rest; `finalizeAndFinishThroughEndOfInput()` must wait for the second.
    case replacedInput = "replaced-input"
    /// Transcribers in two locales in one analyzer: more configurations than a device that holds
    /// one (the reference with SPEECH_HARNESS_MAX_ENGINE_INSTANCES=1) can run.
    case twoLocales = "two-locales"
    /// Two calls waiting (`finalize(through:)` the end, `finalizeAndFinishThroughEndOfInput()`)
    /// when a buffer in the wrong format fails the session: both must throw its error.
    case twoWaiters = "two-waiters"
    /// A `finalize(through:)` whose task is cancelled while it waits; the session goes on.
    case cancelledWaiter = "cancelled-waiter"
    /// A volatile range handler replaced by a second before input; two finalizes mid-stream move
    /// the range's start.
    case volatileRange = "volatile-range"
    /// SDK 27: the file's buffers in its own format through `AnalyzerInputConverter`, flushed, the
    /// input ended; then `finalizeAndFinishThroughEndOfInput()`.
    case converter
    /// SDK 27: `AssetInputSequenceProvider` over the file as an `AVURLAsset`, its sequence the
    /// input; then `finalizeAndFinishThroughEndOfInput()`.
    case assetProvider = "asset-provider"
}

struct RecordingFailure: Error, CustomStringConvertible {
    var description: String
}

/// Records scenarios over one audio file.
struct Recorder {
    let audio: URL
    let locale: Locale
    let platform: TraceLine.Platform
    /// A locale no engine here has assets for (the uninstalled-locale scenario).
    let missingLocale: Locale
    /// The two-locales scenario's second locale.
    let secondLocale: Locale
    /// How long after the session finished a result sequence may stay open before it is recorded
    /// as `open`.
    let openAfter: Double
    /// How buffers are given in the scenarios that stream them.
    let pacing: InputClock.Pacing
    /// The scenarios whose buffers a real-time pacing spaces out: those that give audio as a
    /// microphone would (not the analyzer reading a file, an input made whole before it is
    /// analysed, or the two buffers of the bad-input scenarios).
    static let pacedScenarios: Set<Scenario> = [
        .stream, .streamVolatile, .finalizeMidStream, .cancel, .dictation, .detector, .replacedInput,
        .twoLocales, .twoWaiters, .cancelledWaiter, .volatileRange,
    ]
    static let bufferFrames: AVAudioFrameCount = 4096
    var bufferFrames: AVAudioFrameCount { Self.bufferFrames }
    /// The audio's identity in every trace of it, worked out once.
    let info: TraceLine.Audio

    init(
        audio: URL, locale: Locale, platform: TraceLine.Platform, missingLocale: Locale, secondLocale: Locale,
        openAfter: Double = 10, pacing: InputClock.Pacing = .fast
    ) throws {
        self.openAfter = openAfter
        self.pacing = pacing
        self.audio = audio
        self.locale = locale
        self.platform = platform
        self.missingLocale = missingLocale
        self.secondLocale = secondLocale
        let file = try AVAudioFile(forReading: audio)
        let head = try Self.headBytes(of: audio)
        info = TraceLine.Audio(
            name: audio.lastPathComponent, sha256: SHA256.hex(try Data(contentsOf: audio)),
            headSHA256: SHA256.hex(Data(head)),
            headPrefixSHA256: stride(from: 3_200, through: head.count, by: 3_200).map { SHA256.hex(Data(head[..<$0])) },
            sampleRate: file.processingFormat.sampleRate, channels: Int(file.processingFormat.channelCount),
            frames: file.length)
    }

    func record(_ scenario: Scenario) async throws -> Data {
        // Real-time pacing starts its clock at the first buffer given; calls and results are timed
        // against it as the log takes them.
        let clock = InputClock(pacing: Self.pacedScenarios.contains(scenario) ? pacing : .fast)
        let log = TraceLog(clock: clock)
        let file = try AVAudioFile(forReading: audio)
        let described = makeModules(scenario)
        let modules = described.map(\.module)
        log.append(
            .session(
                .init(
                    scenario: scenario.rawValue, platform: platform, audio: info,
                    modules: described.map(\.description),
                    input: scenario == .file ? "file" : "stream",
                    bufferFrames: scenario == .file ? nil : Int(bufferFrames),
                    pacing: pacing == .realtime && Self.pacedScenarios.contains(scenario) ? "realtime" : nil)))
        let analyzer = SpeechAnalyzer(modules: modules)
        if scenario == .volatileRange {
            // Every report is traced with the handler that received it; the second replaces the first.
            for handler in 0..<2 {
                await analyzer.setVolatileRangeChangedHandler { range, changedStart, changedEnd in
                    log.append(
                        .volatileRange(
                            .init(
                                handler: handler, start: TraceLine.seconds(range.start.seconds),
                                duration: TraceLine.seconds(range.duration.seconds), changedStart: changedStart,
                                changedEnd: changedEnd)))
                }
                log.append(
                    .call(
                        .init(
                            name: "setVolatileRangeChangedHandler(_:)", arguments: ["handler": String(handler)],
                            inputSeconds: 0, outcome: "returned")))
            }
        }
        let readers = modules.enumerated().map { index, module in
            Task { await collect(module, index: index, into: log) }
        }
        var given = 0.0
        switch scenario {
        case .file:
            _ = await call("start(inputAudioFile:finishAfterFile:)", ["finishAfterFile": "true"], given, log) {
                try await analyzer.start(inputAudioFile: file, finishAfterFile: true)
            }
        case .converter, .assetProvider:
            // SDK 27 builds only: Apple's SDK 26 has neither helper (the harness's Speech has both).
            #if os(Linux) || compiler(>=6.4)
                if #available(macOS 27, iOS 27, *) {
                    try await recordHelper(scenario, analyzer, modules, file, log, &given)
                }
            #endif
        case .empty:
            let (inputs, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
            _ = await call("start(inputSequence:)", [:], given, log) { try await analyzer.start(inputSequence: inputs) }
            builder.finish()
            _ = await call("finalizeAndFinishThroughEndOfInput()", [:], given, log) {
                try await analyzer.finalizeAndFinishThroughEndOfInput()
            }
        case .analyzeSequence:
            let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules)
            let buffers = try analyzerBuffers(file, format: format ?? file.processingFormat)
            let (inputs, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
            for buffer in buffers {
                builder.yield(AnalyzerInput(buffer: buffer))
                given += Double(buffer.frameLength) / buffer.format.sampleRate
            }
            builder.finish()
            var last: CMTime?
            let analyzed = await call(
                "analyzeSequence(_:)", [:], given, log,
                value: { last.map { String(TraceLine.seconds($0.seconds)) } ?? "nil" }
            ) {
                last = try await analyzer.analyzeSequence(inputs)
            }
            if analyzed, let last {
                _ = await call(
                    "finalizeAndFinish(through:)", ["through": String(TraceLine.seconds(last.seconds))], given, log
                ) {
                    try await analyzer.finalizeAndFinish(through: last)
                }
            } else {
                await call("cancelAndFinishNow()", [:], given, log) { await analyzer.cancelAndFinishNow() }
            }
        case .replacedInput:
            let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules) ?? file.processingFormat
            let buffers = try analyzerBuffers(file, format: format)
            let half = buffers.count / 2
            let (first, firstBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
            let (second, secondBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
            guard
                await call("start(inputSequence:)", [:], given, log, { try await analyzer.start(inputSequence: first) })
            else {
                await abandon(analyzer, given, log)
                break
            }
            for buffer in buffers[..<half] { await give(buffer, to: firstBuilder, given: &given, clock: clock) }
            // Apple's advice before replacing an input: finalize what it gave, so that it is consumed.
            let through = CMTime(seconds: given, preferredTimescale: 1_000_000)
            _ = await call("finalize(through:)", ["through": String(TraceLine.seconds(given))], given, log) {
                try await analyzer.finalize(through: through)
            }
            _ = await call("start(inputSequence:)", ["replacing": "true"], given, log) {
                try await analyzer.start(inputSequence: second)
            }
            firstBuilder.finish()
            // The rest comes on the second sequence while the program waits for the end of input.
            let rest = Array(buffers[half...])
            let feeder = Task { [given] in
                var fed = given
                for buffer in rest { await give(buffer, to: secondBuilder, given: &fed, clock: clock) }
                secondBuilder.finish()
            }
            given += rest.reduce(0) { $0 + Double($1.frameLength) / $1.format.sampleRate }
            _ = await call("finalizeAndFinishThroughEndOfInput()", [:], given, log) {
                try await analyzer.finalizeAndFinishThroughEndOfInput()
            }
            await feeder.value
        case .twoWaiters, .cancelledWaiter:
            let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules) ?? file.processingFormat
            let buffers = try analyzerBuffers(file, format: format)
            let total = buffers.reduce(0) { $0 + Double($1.frameLength) / $1.format.sampleRate }
            let end = CMTime(seconds: total, preferredTimescale: 1_000_000)
            let (inputs, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
            guard
                await call(
                    "start(inputSequence:)", [:], given, log, { try await analyzer.start(inputSequence: inputs) })
            else {
                await abandon(analyzer, given, log)
                break
            }
            let through = ["through": String(TraceLine.seconds(total))]
            if scenario == .cancelledWaiter {
                // The waiting call's own task is cancelled before any audio comes: that call ends
                // with cancellation; the analyzer goes on with the input.
                let waiter = Task { await Self.outcome { try await analyzer.finalize(through: end) } }
                waiter.cancel()
                log.append(
                    .call(
                        Self.callLine(
                            "finalize(through:)", through.merging(["cancelled": "true"]) { $1 }, given,
                            await waiter.value)))
                for buffer in buffers { await give(buffer, to: builder, given: &given, clock: clock) }
                builder.finish()
                _ = await call("finalizeAndFinishThroughEndOfInput()", [:], given, log) {
                    try await analyzer.finalizeAndFinishThroughEndOfInput()
                }
                break
            }
            // Both calls wait for audio that a wrongly formatted buffer stops; their lines are
            // written in the order the calls were made, once both have returned.
            let finalizing = Task { await Self.outcome { try await analyzer.finalize(through: end) } }
            let finishing = Task { await Self.outcome { try await analyzer.finalizeAndFinishThroughEndOfInput() } }
            for buffer in buffers[..<(buffers.count / 2)] {
                await give(buffer, to: builder, given: &given, clock: clock)
            }
            if let odd = Self.wronglyFormattedBuffer() {
                builder.yield(AnalyzerInput(buffer: odd))
                given += 0.1
            }
            builder.finish()
            let (first, second) = (await finalizing.value, await finishing.value)
            log.append(.call(Self.callLine("finalize(through:)", through, given, first)))
            log.append(.call(Self.callLine("finalizeAndFinishThroughEndOfInput()", [:], given, second)))
        case .overlappingInput, .wrongFormat:
            let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules) ?? file.processingFormat
            let buffers = try analyzerBuffers(file, format: format)
            let (inputs, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
            _ = await call("start(inputSequence:)", [:], given, log) { try await analyzer.start(inputSequence: inputs) }
            if scenario == .overlappingInput, buffers.count >= 2 {
                let first = buffers[0], second = buffers[1]
                let length = Double(first.frameLength) / first.format.sampleRate
                builder.yield(
                    AnalyzerInput(buffer: first, bufferStartTime: CMTime(seconds: 0, preferredTimescale: 16_000)))
                builder.yield(
                    AnalyzerInput(
                        buffer: second, bufferStartTime: CMTime(seconds: length / 2, preferredTimescale: 16_000)))
                given = length * 1.5
            } else if let odd = Self.wronglyFormattedBuffer() {
                builder.yield(AnalyzerInput(buffer: odd))
                given = 0.1
            }
            builder.finish()
            _ = await call("finalizeAndFinishThroughEndOfInput()", [:], given, log) {
                try await analyzer.finalizeAndFinishThroughEndOfInput()
            }
        default:
            let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules)
            log.append(
                .call(
                    .init(
                        name: "bestAvailableAudioFormat(compatibleWith:)", arguments: [:],
                        inputSeconds: 0, outcome: "returned", value: format.map(Self.describe) ?? "nil")))
            let buffers = try analyzerBuffers(file, format: format ?? file.processingFormat)
            let (inputs, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
            let started = await call("start(inputSequence:)", [:], given, log) {
                try await analyzer.start(inputSequence: inputs)
            }
            guard started else {
                builder.finish()
                await abandon(analyzer, given, log)
                break
            }
            if scenario == .volatileRange {
                // Finalize a third and two thirds through, so that the range's start moves twice.
                for third in [buffers[..<(buffers.count / 3)], buffers[(buffers.count / 3)..<(2 * buffers.count / 3)]] {
                    for buffer in third { await give(buffer, to: builder, given: &given, clock: clock) }
                    let through = CMTime(seconds: given, preferredTimescale: 1_000_000)
                    _ = await call("finalize(through:)", ["through": String(TraceLine.seconds(given))], given, log) {
                        try await analyzer.finalize(through: through)
                    }
                }
                for buffer in buffers[(2 * buffers.count / 3)...] {
                    await give(buffer, to: builder, given: &given, clock: clock)
                }
            }
            let half =
                scenario == .cancel || scenario == .finalizeMidStream
                ? buffers.count / 2 : scenario == .volatileRange ? 0 : buffers.count
            for buffer in buffers[..<half] { await give(buffer, to: builder, given: &given, clock: clock) }
            if scenario == .cancel {
                await call("cancelAndFinishNow()", [:], given, log) { await analyzer.cancelAndFinishNow() }
                builder.finish()
                break
            }
            if scenario == .finalizeMidStream {
                let through = CMTime(seconds: given, preferredTimescale: 1_000_000)
                _ = await call("finalize(through:)", ["through": String(TraceLine.seconds(given))], given, log) {
                    try await analyzer.finalize(through: through)
                }
                for buffer in buffers[half...] { await give(buffer, to: builder, given: &given, clock: clock) }
            }
            builder.finish()
            _ = await call("finalizeAndFinishThroughEndOfInput()", [:], given, log) {
                try await analyzer.finalizeAndFinishThroughEndOfInput()
            }
        }
        // Every result sequence must end once the session has finished; one still open after
        // `openAfter` seconds is recorded as open (and no longer waited for).
        var endings: [String] = []
        for reader in readers { endings.append(await Self.ending(of: reader, within: openAfter)) }
        log.append(.end(.init(results: log.resultCount, streams: endings)))
        return try log.encoded()
    }
}

#if os(Linux) || compiler(>=6.4)
    extension Recorder {
        /// The SDK 27 scenarios: the converter over the file's own buffers, or the asset provider.
        @available(macOS 27, iOS 27, *)
        func recordHelper(
            _ scenario: Scenario, _ analyzer: SpeechAnalyzer, _ modules: [any SpeechModule], _ file: AVAudioFile,
            _ log: TraceLog, _ given: inout Double
        ) async throws {
            if scenario == .converter {
                let converter = try await AnalyzerInputConverter.converter(compatibleWith: modules)
                let (inputs, builder) = AsyncStream.makeStream(of: AnalyzerInput.self)
                while file.framePosition < file.length {
                    // A new buffer each time: the converter may keep one until later audio arrives.
                    guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: bufferFrames)
                    else { break }
                    try file.read(into: buffer)
                    given += Double(buffer.frameLength) / buffer.format.sampleRate
                    for input in try converter.convert(buffer, at: nil) { builder.yield(input) }
                }
                for input in try converter.flush() { builder.yield(input) }
                builder.finish()
                _ = await call("start(inputSequence:)", [:], given, log) {
                    try await analyzer.start(inputSequence: inputs)
                }
            } else {
                let provider = try await AssetInputSequenceProvider.provider(
                    from: AVURLAsset(url: audio), compatibleWith: modules)
                given = Double(file.length) / file.processingFormat.sampleRate
                _ = await call("start(inputSequence:)", [:], given, log) {
                    try await analyzer.start(inputSequence: provider.analyzerInputs)
                }
            }
            _ = await call("finalizeAndFinishThroughEndOfInput()", [:], given, log) {
                try await analyzer.finalizeAndFinishThroughEndOfInput()
            }
        }
    }
#endif
