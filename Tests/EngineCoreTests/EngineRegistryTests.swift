import Foundation
import SpeechCore
import Testing

@testable import EngineCore

@Suite("Engine registry and scripts")
struct EngineRegistryTests {
    @Test func environmentAndConfigurationFileChooseTheEngine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(
            try EngineRegistry.configuredEngineID(
                environment: ["SPEECH_HARNESS_ENGINE": "dsp"], directory: directory.path) == "dsp")
        #expect(try EngineRegistry.configuredEngineID(environment: [:], directory: directory.path) == nil)
        try Data(#"{"engine": "pocketsphinx"}"#.utf8).write(
            to: directory.appendingPathComponent(".speech-harness.json"))
        #expect(try EngineRegistry.configuredEngineID(environment: [:], directory: directory.path) == "pocketsphinx")
        // The environment wins over the file.
        #expect(
            try EngineRegistry.configuredEngineID(
                environment: ["SPEECH_HARNESS_ENGINE": "scripted"], directory: directory.path) == "scripted")
        // A file that does not say which engine in the expected shape is an error naming it.
        try Data(#"{"engine": ["dsp"]}"#.utf8).write(to: directory.appendingPathComponent(".speech-harness.json"))
        #expect {
            try EngineRegistry.configuredEngineID(environment: [:], directory: directory.path)
        } throws: { error in
            "\(error)" == "\(directory.path)/.speech-harness.json: field 'engine': expected a string, got a list"
        }
    }

    /// Engines are made from the command's environment, a value: the process's own is not changed.
    @Test func enginesAreMadeFromTheCommandsEnvironment() throws {
        let environment = HarnessContext.current.environment.setting("SPEECH_HARNESS_WHISPER_SEED", to: "3")
        let name = try HarnessContext.$current.withValue(HarnessContext.current.with(\.environment, environment)) {
            try EngineRegistry.shared.make("whisper").name
        }
        #expect(name == "whisper[tiny.en,int8,beam1,t1,seed3]")
        #expect(ProcessInfo.processInfo.environment["SPEECH_HARNESS_WHISPER_SEED"] == nil)
        #expect(try EngineRegistry.shared.make("whisper").name == "whisper[tiny.en,int8,beam1,t1]")
    }

    /// A context handed to `make(_:in:)` is the one the factory reads; a bad setting in it is the
    /// engine's error, and the next engine made without it is unaffected.
    @Test func anEngineIsMadeWithTheContextItIsHanded() throws {
        var context = HarnessContext.current
        context.environment = context.environment.setting("SPEECH_HARNESS_WHISPER_BEAM_SIZE", to: "4")
        #expect(try EngineRegistry.shared.make("whisper", in: context).name == "whisper[tiny.en,int8,beam4,t1]")
        context.environment = context.environment.setting("SPEECH_HARNESS_WHISPER_BEAM_SIZE", to: "40")
        #expect(throws: EngineError.self) { try EngineRegistry.shared.make("whisper", in: context) }
        #expect(try EngineRegistry.shared.make("whisper").name == "whisper[tiny.en,int8,beam1,t1]")
    }

    @Test func unknownEnginesAreTypedErrors() {
        #expect(throws: EngineError.unknownEngine("nope", known: EngineRegistry.shared.knownNames)) {
            try EngineRegistry.shared.make("nope")
        }
        // Families are listed by their pattern, and a member of one is known.
        #expect(EngineRegistry.shared.knownNames.last == "replay:DIR")
        #expect(EngineRegistry.shared.knows("replay:/some/folder") && !EngineRegistry.shared.knows("replay:"))
        #expect(throws: EngineError.self) { try EngineRegistry.shared.make("replay:/no/such/folder") }
        #expect(
            "\(EngineError.unknownEngine("nope", known: ["scripted", "dsp"]))"
                == "unknown engine 'nope' (known engines: scripted, dsp)")
        #expect(EngineRegistry.shared.ids.contains("scripted"))
    }

    /// Settings in brackets make the engine with them: every Whisper engine takes the model (and
    /// the worker's other settings), and the name it prints makes it again. An engine that takes
    /// no settings, a setting it does not take, and unclosed brackets are errors naming them.
    @Test func settingsInBracketsMakeTheEngineWithThem() throws {
        let registry = EngineRegistry.shared
        #expect(try registry.make("whisper[base]").name == "whisper[base,int8,beam1,t1]")
        #expect(registry.knows("whisper[base]") && registry.variants.contains("whisper-streaming-la2[base]"))
        for id in registry.ids where id.hasPrefix("whisper") {
            let engine = try registry.make(id + "[base]")
            #expect(EngineName.settings(of: engine.name).contains("base"), "\(engine.name)")
            #expect(try registry.make(engine.name).name == engine.name)
            #expect(engine.capabilities.locales.contains("it-IT"))
        }
        func message(_ name: String) -> String {
            do {
                _ = try registry.make(name)
                return "made"
            } catch { return "\(error)" }
        }
        #expect(message("pocketsphinx[base]") == "engine pocketsphinx: setting '[base]': this engine takes no settings")
        #expect(message("whisper[large]").hasPrefix("engine whisper: setting 'large': not a model (tiny.en, base)"))
        #expect(message("whisper[base").contains("settings are written in brackets after the id"))
        #expect(message("whisper[]").contains("settings are written in brackets after the id"))
        #expect(!registry.knows("pocketsphinx-nope[base]"))
    }

    @Test func programmaticOverrideWins() throws {
        let engine = ScriptedEngine(script: .evenlySpaced("x"))
        let chosen = try HarnessContext.$current.withValue(HarnessContext.current.with(\.engine, engine)) {
            try EngineRegistry.shared.defaultEngine(for: "en-US")
        }
        #expect(chosen.id == "scripted")
    }

    @Test func scriptsLoadFromScriptFilesAndManifestLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("s.json")
        try Data(#"{"words":[{"text":"hi","start":0.1,"end":0.3}],"latency":0.2,"endpointSilence":null}"#.utf8).write(
            to: script)
        let loaded = try EngineScript.load(path: script.path)
        #expect(loaded.words.map(\.text) == ["hi"] && loaded.latency == 0.2 && loaded.endpointSilence == nil)
        let manifest = directory.appendingPathComponent("m.jsonl")
        try Data(
            """
            {"id":"a","words":[{"word":"one","start":0,"end":0.5}]}
            {"id":"b","words":[{"word":"two","start":0,"end":0.5}]}
            """.utf8
        ).write(to: manifest)
        #expect(try EngineScript.load(path: manifest.path + "#b").words.map(\.text) == ["two"])
        #expect(throws: EngineError.self) { try EngineScript.load(path: manifest.path + "#c") }
        #expect(throws: EngineError.self) {
            try EngineScript.load(path: directory.appendingPathComponent("none.json").path)
        }
        // A malformed script names the file and the field.
        try Data(#"{"words":[{"text":"hi","start":"soon","end":0.3}]}"#.utf8).write(to: script)
        #expect {
            try EngineScript.load(path: script.path)
        } throws: { error in
            "\(error)"
                == "\(script.path): invalid engine script: field 'words[0].start': expected a number, got a string"
        }
    }

    /// The scripted recogniser on its own: endpoints, latency, explicit finalisation, cancellation.
    @Test func scriptedRecognizerRules() {
        let script = EngineScript(
            words: [
                .init("a", start: 0.1, end: 0.3), .init("b", start: 0.4, end: 0.6), .init("c", start: 1.5, end: 1.7),
            ],
            latency: 0.1, endpointSilence: 0.5)
        var recognizer = ScriptedRecognizer(script: script, configuration: EngineSessionConfiguration(locale: "en-US"))
        #expect(recognizer.hear(from: 0, through: 0.35).volatile == nil)  // "a" not yet past its latency
        #expect(recognizer.hear(from: 0.35, through: 0.45).volatile?.text == "a")
        let endpoint = recognizer.hear(from: 0.45, through: 1.25)  // 0.6 + 0.5 silence + 0.1 latency
        #expect(endpoint.finalized.map(\.text) == ["a b"])
        #expect(endpoint.finalizedThrough == ScriptedRecognizer.time(1.1))
        #expect(recognizer.hear(from: 1.25, through: 1.6).volatile == nil)
        // Finalising through 1.6 cuts "c" (not heard in full): nothing final, and "c" is gone.
        let cut = recognizer.finalize(through: 1.6)
        #expect(cut.finalized.isEmpty && cut.finalizedThrough == ScriptedRecognizer.time(1.6))
        #expect(recognizer.hear(from: 1.6, through: 2.5).volatile == nil)
    }
}
