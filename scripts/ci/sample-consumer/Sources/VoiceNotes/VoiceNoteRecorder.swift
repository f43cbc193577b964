// A team's code in the shape the action is for: a voice note recorded from the microphone and
// transcribed with SpeechAnalyzer, written against Apple's API only.
import Speech

public enum VoiceNoteError: Error {
    case unsupportedLocale(String)
    case noAudioFormat
    case microphoneDenied
}

/// Records from the microphone until the input goes away, and returns what was said.
public actor VoiceNoteRecorder {
    private var finals: [String] = []

    public init() {}

    public func record(locale: Locale = .current) async throws -> String {
        guard await AVAudioApplication.requestRecordPermission() else { throw VoiceNoteError.microphoneDenied }
        guard let supported = await SpeechTranscriber.supportedLocale(equivalentTo: locale) else {
            throw VoiceNoteError.unsupportedLocale(locale.identifier)
        }
        let transcriber = SpeechTranscriber(locale: supported, preset: .progressiveTranscription)
        if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await request.downloadAndInstall()
        }
        guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]) else {
            throw VoiceNoteError.noAudioFormat
        }
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let (input, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let results = Task {
            var texts: [String] = []
            for try await result in transcriber.results where result.isFinal {
                texts.append(String(result.text.characters))
            }
            return texts
        }
        try await analyzer.start(inputSequence: input)

        let engine = AVAudioEngine()
        let node = engine.inputNode
        let (buffers, sink) = AsyncStream.makeStream(of: AVAudioPCMBuffer.self, bufferingPolicy: .unbounded)
        node.installTap(onBus: 0, bufferSize: 4096, format: node.outputFormat(forBus: 0)) { @Sendable buffer, _ in
            sink.yield(buffer)
        }
        let gone = NotificationCenter.default.addObserver(
            forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil
        ) { _ in sink.finish() }
        defer { NotificationCenter.default.removeObserver(gone) }
        try engine.start()
        let converter = AnalyzerInputConverter(analyzerFormat: format)
        for await buffer in buffers {
            for converted in try converter.convert(buffer, at: nil) { inputBuilder.yield(converted) }
        }
        for converted in try converter.flush() { inputBuilder.yield(converted) }
        engine.stop()
        inputBuilder.finish()
        try await analyzer.finalizeAndFinishThroughEndOfInput()
        finals = try await results.value
        return finals.joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }
}
