import AudioIO
import Foundation
@_spi(Harness) import LegacySpeech
import PocketSphinx
@_spi(Harness) import Speech
import TestSupport
import Testing

/// `SFCustomLanguageModelData` → `export(to:)` → `prepareCustomLanguageModel` → a request's
/// `customizedLanguageModel`, with PocketSphinx using the phrases.
@Suite("Legacy custom language models", .isolatedResources)
struct LegacyLanguageModelTests {
    static func data() -> SFCustomLanguageModelData {
        SFCustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "com.example.home", version: "1.0") {
            SFCustomLanguageModelData.PhraseCount(phrase: "call mom at home", count: 10)
            SFCustomLanguageModelData.PhraseCountsFromTemplates(classes: [
                "device": ["lights", "heater"], "state": ["on", "off"],
            ]) {
                SFCustomLanguageModelData.TemplatePhraseCountGenerator.Template("turn the <device> <state>", count: 40)
            }
            SFCustomLanguageModelData.CustomPronunciation(grapheme: "Zyxel", phonemes: ["z", "aI", "k", "s", "E", "l"])
        }
    }

    @Test func theBuilderExpandsTemplatesAndExportsARealFile() async throws {
        let data = Self.data()
        #expect(
            data.phraseCounts.map(\.description) == [
                "call mom at home (10)", "turn the lights on (10)", "turn the lights off (10)",
                "turn the heater on (10)", "turn the heater off (10)",
            ])
        #expect(data.pronunciations.map(\.grapheme) == ["Zyxel"])
        let directory = try TemporaryDirectory()
        let asset = URL(fileURLWithPath: directory.path("home.bin"))
        try await data.export(to: asset)
        let exported = try JSONSerialization.jsonObject(with: Data(contentsOf: asset)) as? [String: Any]
        #expect(exported?["identifier"] as? String == "com.example.home")
        let configuration = SFSpeechLanguageModel.Configuration(
            languageModel: URL(fileURLWithPath: directory.path("lm")),
            vocabulary: URL(fileURLWithPath: directory.path("vocab")))
        try await SFSpeechLanguageModel.prepareCustomLanguageModel(
            for: asset, clientIdentifier: "com.example", configuration: configuration)
        let vocabulary = try String(contentsOfFile: directory.path("vocab"), encoding: .utf8)
        #expect(vocabulary.split(separator: "\n").contains("heater") && vocabulary.contains("Zyxel"))
        // A file that was not exported by the builder is a named error.
        let junk = try directory.write("junk.bin", bytes: [1, 2, 3])
        await #expect(throws: SFSpeechLanguageModel.ModelError.self) {
            try await SFSpeechLanguageModel.prepareCustomLanguageModel(
                for: URL(fileURLWithPath: junk), clientIdentifier: "c", configuration: configuration)
        }
    }

    @Test func pocketSphinxHearsTheCustomPhrases() async throws {
        guard SystemFixture.available("/usr/bin/flite"), PocketSphinxEngine().isInstalled(locale: "en-US") else {
            return
        }
        let directory = try TemporaryDirectory()
        let spoken = directory.path("spoken.wav")
        func say(_ phrase: String, voice: String) throws {
            let flite = Process()
            flite.executableURL = URL(fileURLWithPath: "/usr/bin/flite")
            flite.arguments = ["-voice", voice, "-t", phrase, "-o", spoken]
            try flite.run()
            flite.waitUntilExit()
        }
        let asset = URL(fileURLWithPath: directory.path("home.bin"))
        try await Self.data().export(to: asset)
        let configuration = SFSpeechLanguageModel.Configuration(
            languageModel: URL(fileURLWithPath: directory.path("lm")))
        try await SFSpeechLanguageModel.prepareCustomLanguageModel(
            for: asset, clientIdentifier: "com.example", configuration: configuration)

        func transcribe(_ model: SFSpeechLanguageModel.Configuration?) async -> String {
            let recognizer = SFSpeechRecognizer(
                locale: Locale(identifier: "en-US"), engine: PocketSphinxEngine(decoding: .wholeUtterance))
            let request = SFSpeechURLRecognitionRequest(url: URL(fileURLWithPath: spoken))
            request.requiresOnDeviceRecognition = true
            request.customizedLanguageModel = model
            let text = Locked("")
            let task = recognizer.recognitionTask(with: request) { result, _ in
                if let result, result.isFinal { text.withLock { $0 = result.bestTranscription.formattedString } }
            }
            await task.waitUntilCompleted()
            return text.withLock { $0 }
        }
        // Two flite voices the general model often mishears (measured: 5 of these 6 wrong without the model).
        var withModel = 0, without = 0
        for voice in ["kal", "awb"] {
            for phrase in ["turn the heater off", "call mom at home", "turn the lights on"] {
                try say(phrase, voice: voice)
                if await transcribe(configuration) == phrase { withModel += 1 }
                if await transcribe(nil) == phrase { without += 1 }
            }
        }
        #expect(withModel == 6)
        #expect(without < 6)
    }
}
