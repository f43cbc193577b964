// SDK 27's input helpers, the way the SpeechAnalyzer overview shows them: a converter feeding an
// input stream, an asset provider over an audio file, and a capture provider with its own session
// over the default microphone. Builds against `import Speech` on Linux as on Apple's platforms 27.
// Usage: example-sdk27-inputs converter FILE | asset FILE | capture SECONDS
import Speech

let arguments = CommandLine.arguments.dropFirst()
guard let mode = arguments.first, ["converter", "asset", "capture"].contains(mode), arguments.count == 2 else {
    print("usage: example-sdk27-inputs converter FILE | asset FILE | capture SECONDS")
    exit(2)
}
let argument = arguments.dropFirst().first!

// The module, with its assets installed.
guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "en-US")) else {
    print("this language is not supported")
    exit(1)
}
let transcriber = SpeechTranscriber(locale: locale, preset: .transcription)
if let installationRequest = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
    try await installationRequest.downloadAndInstall()
}
let analyzer = SpeechAnalyzer(modules: [transcriber])
let transcript = Task {
    var finals: [String] = []
    for try await result in transcriber.results where result.isFinal {
        finals.append(String(result.text.characters))
    }
    return finals.joined(separator: " ")
}

switch mode {
case "converter":
    // Buffers in the file's format, converted to the analyzer's and yielded to an input stream.
    let file = try AVAudioFile(forReading: URL(fileURLWithPath: argument))
    let converter = try await AnalyzerInputConverter.converter(compatibleWith: [transcriber])
    let (inputSequence, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
    try await analyzer.start(inputSequence: inputSequence)
    while file.framePosition < file.length {
        // A new buffer each time: the converter may keep one until later audio arrives.
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 4096)!
        try file.read(into: buffer)
        for input in try converter.convert(buffer, at: nil) { inputBuilder.yield(input) }
    }
    for input in try converter.flush() { inputBuilder.yield(input) }
    inputBuilder.finish()
    try await analyzer.finalizeAndFinishThroughEndOfInput()
case "asset":
    // The file's audio track, read and converted by the provider; its sequence ends with the track.
    let asset = AVURLAsset(url: URL(fileURLWithPath: argument))
    let provider = try await AssetInputSequenceProvider.provider(from: asset, compatibleWith: [transcriber])
    try await analyzer.start(inputSequence: provider.analyzerInputs)
    try await analyzer.finalizeAndFinishThroughEndOfInput()
default:
    // The default microphone in a session of the provider's own, started, then stopped once the
    // given seconds of audio have been analysed. The sequence stays open after stopRunning(), so
    // the analysis is finalized and finished explicitly.
    guard let seconds = Double(argument), let device = AVCaptureDevice.default(for: .audio) else {
        print("no microphone")
        exit(1)
    }
    let provider = try await CaptureInputSequenceProvider.providerWithSession(
        from: device, compatibleWith: [transcriber])
    try await analyzer.start(inputSequence: provider.analyzerInputs)
    provider.captureSession.startRunning()
    try await analyzer.finalize(through: CMTime(seconds: seconds, preferredTimescale: 48_000))
    provider.captureSession.stopRunning()
    try await analyzer.finalize(through: nil)
    await analyzer.cancelAndFinishNow()
}
print("final: \(try await transcript.value)")
