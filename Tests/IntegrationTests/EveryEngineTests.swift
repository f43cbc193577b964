import Foundation
import TestSupport
import Testing

/// Every engine id the command line lists works in an `import Speech` program chosen by
/// `SPEECH_HARNESS_ENGINE` or `.speech-harness.json`: the program and the tool link the same
/// composition point, so neither knows an engine the other does not.
@Suite("Every engine from import Speech", .serialized)
struct EveryEngineTests {
    static let recording = LiveExampleTests.recording

    struct ListedEngine: Decodable {
        var id: String
        var installedLocales: [String]
    }

    /// What `speech-harness engines --json` lists, in this process's environment.
    static func listed() throws -> [ListedEngine] {
        let (status, output) = try PackageProgram.run("speech-harness", ["engines", "--json"], environment: [:])
        try #require(status == 0, "\(output)")
        return try JSONDecoder().decode([ListedEngine].self, from: Data(output.utf8))
    }

    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["SPEECH_HARNESS_ROOT": SystemFixture.packageRoot, "SPEECH_HARNESS_FAULT_MODE": "ok", "LANG": "en_US.UTF-8"]
            .merging(extra) { $1 }
    }

    /// The transcript line the example prints last.
    static func transcript(_ output: String) -> String {
        output.split(separator: "\n").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
    }

    @Test(
        .enabled(if: SystemFixture.available(recording), "the recording \(recording) is missing"),
        .enabled(
            if: PackageProgram.available("example-file-transcription") && PackageProgram.available("speech-harness"),
            "the example and the tool are not built"))
    func everyListedIdTranscribesTheRecording() throws {
        let engines = try Self.listed()
        // The Whisper-style policies are part of the list, not only of the tool.
        for id in ["whisper-streaming", "whisper-cpp-stream", "whisper-cpp-stream-vad", "whisperkit-stream"] {
            #expect(engines.contains { $0.id == id }, "\(id) is not listed")
        }
        let scripts = try TemporaryDirectory()
        let script = scripts.path("script.json")
        try Data(#"{"words":[{"text":"scripted","start":0.5,"end":0.9},{"text":"words","start":1.0,"end":1.4}]}"#.utf8)
            .write(to: URL(fileURLWithPath: script))
        for engine in engines {
            let (status, output) = try PackageProgram.run(
                "example-file-transcription", [Self.recording],
                environment: Self.environment(["SPEECH_HARNESS_ENGINE": engine.id, "SPEECH_HARNESS_SCRIPT": script]))
            let text = Self.transcript(output)
            guard engine.installedLocales.contains("en-US") else {
                // A known engine without assets keeps the locale error.
                #expect(status == 1, "\(engine.id): \(output)")
                #expect(
                    text.contains("assets for en-US are not installed (engine \(engine.id))"), "\(engine.id): \(text)")
                continue
            }
            #expect(status == 0, "\(engine.id): \(output)")
            switch engine.id {
            case "scripted": #expect(text == "scripted words")
            case "fault-worker": #expect(text == "ok", "\(engine.id): \(text)")
            case let id where id.hasPrefix("whisper") || id == "pocketsphinx" || id == "pocketsphinx-batch":
                #expect(text.lowercased().hasPrefix("he might even"), "\(engine.id): \(text)")
            default:
                // Digit and command vocabularies hear this speech as their own words.
                #expect(!text.isEmpty && !text.hasPrefix("transcription failed"), "\(engine.id): \(text)")
            }
        }
    }

    /// The configuration file a team commits picks an adapter engine too.
    @Test(
        .enabled(if: SystemFixture.available(recording), "the recording \(recording) is missing"),
        .enabled(if: PackageProgram.available("example-file-transcription"), "the example is not built"))
    func theConfigurationFileNamesAnAdapterEngine() throws {
        let directory = try TemporaryDirectory()
        let script = directory.path("script.json")
        try Data(#"{"words":[{"text":"configured","start":0.5,"end":0.9}]}"#.utf8).write(
            to: URL(fileURLWithPath: script))
        try Data(#"{"engine": "scripted"}"#.utf8).write(
            to: URL(fileURLWithPath: directory.path(".speech-harness.json")))
        var (status, output) = try PackageProgram.run(
            "example-file-transcription", [Self.recording],
            environment: Self.environment(["SPEECH_HARNESS_SCRIPT": script]),
            directory: directory.url.path)
        #expect(status == 0 && Self.transcript(output) == "configured", "\(output)")

        try Data(#"{"engine": "whisper-cpp-stream-vad"}"#.utf8).write(
            to: URL(fileURLWithPath: directory.path(".speech-harness.json")))
        (status, output) = try PackageProgram.run(
            "example-file-transcription", [Self.recording], environment: Self.environment(),
            directory: directory.url.path)
        #expect(status == 0, "\(output)")
        #expect(Self.transcript(output).lowercased().hasPrefix("he might even"), "\(output)")
    }
}
