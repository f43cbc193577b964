// Apple's "Perform analysis" steps for SpeechAnalyzer, written the way an app would, with the
// placeholders filled by reading a WAV file. Builds against `import Speech` on Linux as on Apple
// platforms. Usage: example-perform-analysis <audio-file>
import Speech

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: example-perform-analysis <audio-file>")
    exit(2)
}
let audioFile = try AVAudioFile(forReading: URL(fileURLWithPath: arguments[1]))

// 1. Create the module for a locale the transcriber supports.
guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: Locale.current) else {
    print("this language is not supported")
    exit(1)
}
let transcriber = SpeechTranscriber(locale: locale, preset: .transcription)

// 2. Make sure its assets are installed.
if let installationRequest = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
    try await installationRequest.downloadAndInstall()
}

// 3. The input sequence and its builder.
let (inputSequence, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)

// 4. The analyzer, and a converter to the format it wants (SDK 27).
let analyzer = SpeechAnalyzer(modules: [transcriber])
let converter = try await AnalyzerInputConverter.converter(compatibleWith: [transcriber])

// 5. Feed audio, converted to the analyzer's format. The converter may keep a buffer until later
// audio arrives, so each read goes into a new one.
Task {
    while audioFile.framePosition < audioFile.length {
        let chunk = AVAudioPCMBuffer(pcmFormat: audioFile.processingFormat, frameCapacity: 4096)!
        try audioFile.read(into: chunk)
        for input in try converter.convert(chunk, at: nil) {
            inputBuilder.yield(input)
        }
    }
    for input in try converter.flush() {
        inputBuilder.yield(input)
    }
    inputBuilder.finish()
}

// 7. Print results as they come.
let printer = Task {
    do {
        for try await result in transcriber.results {
            let text = result.text
            print(String(text.characters))
        }
    } catch {
        print("results failed: \(error)")
    }
}

// 6. Analyse, then 8. finish.
let lastSampleTime = try await analyzer.analyzeSequence(inputSequence)
if let lastSampleTime {
    try await analyzer.finalizeAndFinish(through: lastSampleTime)
} else {
    await analyzer.cancelAndFinishNow()
}
await printer.value
