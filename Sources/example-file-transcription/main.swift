// File transcription in the style of the migration guide: reserve the locale, install assets,
// start analysis of the file with finishAfterFile, consume results in a task group, release only
// the reservation this run made. Usage: example-file-transcription <audio-file>
import Speech

enum TranscriptionFailure: Error { case unsupportedLocale, unavailable }

func transcribe(fileAt url: URL) async throws -> String {
    guard SpeechTranscriber.isAvailable else { throw TranscriptionFailure.unavailable }
    guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "en-US")) else {
        throw TranscriptionFailure.unsupportedLocale
    }
    let reservedHere = try await AssetInventory.reserve(locale: locale)
    do {
        let transcript = try await transcribe(fileAt: url, locale: locale)
        if reservedHere { await AssetInventory.release(reservedLocale: locale) }
        return transcript
    } catch {
        if reservedHere { await AssetInventory.release(reservedLocale: locale) }
        throw error
    }
}

func transcribe(fileAt url: URL, locale: Locale) async throws -> String {
    let transcriber = SpeechTranscriber(locale: locale, preset: .transcription)
    if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
        try await request.downloadAndInstall()
    }
    let file = try AVAudioFile(forReading: url)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    return try await withThrowingTaskGroup(of: String.self) { group in
        group.addTask {
            var text = ""
            for try await result in transcriber.results where result.isFinal {
                text += (text.isEmpty ? "" : " ") + String(result.text.characters)
            }
            return text
        }
        try await analyzer.start(inputAudioFile: file, finishAfterFile: true)
        let transcript = try await group.next() ?? ""
        group.cancelAll()
        return transcript
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: example-file-transcription <audio-file>")
    exit(2)
}
do {
    print(try await transcribe(fileAt: URL(fileURLWithPath: arguments[1])))
} catch {
    print("transcription failed: \(error)")
    exit(1)
}
