// Live transcription with SpeechAnalyzer, written the way Apple's sample app does it: an audio
// session, an AVAudioEngine tap in the hardware format, each buffer converted with
// AVAudioConverter to the analyzer's format and yielded as AnalyzerInput, volatile results
// replaced by finalized ones. On Linux the microphone is the harness's virtual one
// (SPEECH_HARNESS_MICROPHONE); recording stops when the input goes away (the engine's
// configuration-change notification) or, with --stop-after, when a timer fires — a button in an
// app. With --stop-without-finalize it stops as an early migration guide's code did: the input
// finished and the analyzer dropped, never finalized (the tail still volatile is lost).
// Usage: example-live-analyzer [locale] [--stop-after SECONDS] [--stop-without-finalize]
import Speech

/// Converts tap buffers to the analyzer's format, as Apple's sample does.
final class BufferConverter {
    enum Error: Swift.Error {
        case failedToCreateConverter
        case failedToCreateConversionBuffer
        case conversionFailed(NSError?)
    }

    private var converter: AVAudioConverter?

    func convertBuffer(_ buffer: AVAudioPCMBuffer, to format: AVAudioFormat) throws -> AVAudioPCMBuffer {
        let inputFormat = buffer.format
        guard inputFormat != format else { return buffer }
        if converter == nil || converter?.outputFormat != format {
            converter = AVAudioConverter(from: inputFormat, to: format)
            converter?.primeMethod = .none
        }
        guard let converter else { throw Error.failedToCreateConverter }
        let sampleRateRatio = converter.outputFormat.sampleRate / converter.inputFormat.sampleRate
        let scaledInputFrameLength = Double(buffer.frameLength) * sampleRateRatio
        let frameCapacity = AVAudioFrameCount(scaledInputFrameLength.rounded(.up))
        guard let conversionBuffer = AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: frameCapacity)
        else {
            throw Error.failedToCreateConversionBuffer
        }
        var nsError: NSError?
        var bufferProcessed = false
        let status = converter.convert(to: conversionBuffer, error: &nsError) { _, inputStatusPointer in
            defer { bufferProcessed = true }
            inputStatusPointer.pointee = bufferProcessed ? .noDataNow : .haveData
            return bufferProcessed ? nil : buffer
        }
        guard status != .error else { throw Error.conversionFailed(nsError) }
        return conversionBuffer
    }
}

actor LiveTranscriber {
    private var inputBuilder: AsyncStream<AnalyzerInput>.Continuation?
    private var analyzer: SpeechAnalyzer?
    private var analyzerFormat: AVAudioFormat?
    private var resultsTask: Task<Void, Never>?
    private let converter = BufferConverter()
    private(set) var finalizedTranscript = ""

    func setUp(locale: Locale) async throws {
        guard let supported = await SpeechTranscriber.supportedLocale(equivalentTo: locale) else {
            throw NSError(
                domain: "example", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "locale \(locale.identifier) is not supported"])
        }
        let transcriber = SpeechTranscriber(
            locale: supported, transcriptionOptions: [], reportingOptions: [.volatileResults],
            attributeOptions: [.audioTimeRange])
        if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await request.downloadAndInstall()
        }
        guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]) else {
            throw NSError(
                domain: "example", code: 2,
                userInfo: [NSLocalizedDescriptionKey: "no audio format: the transcriber's assets are missing"])
        }
        analyzerFormat = format
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        self.analyzer = analyzer
        let (inputSequence, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
        self.inputBuilder = inputBuilder
        resultsTask = Task {
            do {
                for try await result in transcriber.results {
                    let text = String(result.text.characters)
                    if result.isFinal {
                        print("final: \(text)")
                        self.appendFinal(text)
                    } else {
                        print("volatile: \(text)")
                    }
                }
            } catch {
                print("results failed: \(error)")
            }
        }
        try await analyzer.start(inputSequence: inputSequence)
    }

    private func appendFinal(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        finalizedTranscript += finalizedTranscript.isEmpty ? trimmed : " " + trimmed
    }

    func stream(_ buffer: AVAudioPCMBuffer) throws {
        guard let analyzerFormat else { return }
        let converted = try converter.convertBuffer(buffer, to: analyzerFormat)
        inputBuilder?.yield(AnalyzerInput(buffer: converted))
    }

    func finish() async throws {
        inputBuilder?.finish()
        try await analyzer?.finalizeAndFinishThroughEndOfInput()
        await resultsTask?.value
    }

    /// The early guide's stop: the input ends and the analyzer and its results are let go.
    func dropWithoutFinalizing() {
        inputBuilder?.finish()
        inputBuilder = nil
        analyzer = nil
        resultsTask?.cancel()
        resultsTask = nil
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
let finalizes = !arguments.contains("--stop-without-finalize")
arguments.removeAll { $0 == "--stop-without-finalize" }
let stopFlag = arguments.firstIndex(of: "--stop-after")
let stopAfter = stopFlag.flatMap { $0 + 1 < arguments.count ? Double(arguments[$0 + 1]) : nil }
let positional = stopFlag.map { Array(arguments[..<$0] + arguments[min($0 + 2, arguments.count)...]) } ?? arguments
let locale = positional.first.map { Locale(identifier: $0) } ?? Locale(identifier: "en-US")
guard await AVAudioApplication.requestRecordPermission() else {
    print("microphone access denied")
    exit(1)
}

let audioSession = AVAudioSession.sharedInstance()
try audioSession.setCategory(.playAndRecord, mode: .spokenAudio)
try audioSession.setActive(true, options: .notifyOthersOnDeactivation)

let transcriber = LiveTranscriber()
try await transcriber.setUp(locale: locale)

let audioEngine = AVAudioEngine()
let (buffers, bufferSink) = AsyncStream.makeStream(of: AVAudioPCMBuffer.self, bufferingPolicy: .unbounded)
let inputNode = audioEngine.inputNode
inputNode.installTap(onBus: 0, bufferSize: 4096, format: inputNode.outputFormat(forBus: 0)) { @Sendable buffer, _ in
    bufferSink.yield(buffer)
}
let stopped = NotificationCenter.default.addObserver(
    forName: .AVAudioEngineConfigurationChange, object: audioEngine, queue: nil
) { _ in
    bufferSink.finish()
}
audioEngine.prepare()
try audioEngine.start()
print("listening…")
if let stopAfter {
    Task {
        try await Task.sleep(for: .seconds(stopAfter))
        print("stopping")
        bufferSink.finish()
    }
}

for await buffer in buffers {
    try await transcriber.stream(buffer)
}
audioEngine.stop()
inputNode.removeTap(onBus: 0)
NotificationCenter.default.removeObserver(stopped)
if finalizes {
    try await transcriber.finish()
} else {
    await transcriber.dropWithoutFinalizing()
}
print("transcript: \(await transcriber.finalizedTranscript)")
