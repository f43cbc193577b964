import Foundation
import Records
import SpeechCore
import TestSupport
import Testing

@testable import HarnessCLI

/// `bench long-stream` end to end on a tiny corpus and the scripted engine: the stream, each
/// engine's record and trace, the reports; and the usage errors a newcomer meets first.
@Suite("bench long-stream command", .isolatedResources)
struct LongStreamCommandTests {
    @Test func aShortStreamWritesEveryReport() async throws {
        let dir = try TemporaryDirectory()
        var lines: [String] = []
        for i in 0..<3 {
            try AudioIOBridge.write(
                Signal.sine(frequency: 220, sampleRate: 16_000, seconds: 1, amplitude: 0.1), to: dir.path("u\(i).wav"))
            lines.append(
                #"{"id":"u\#(i)","audio":"u\#(i).wav","reference":"one two","locale":"en-US","speaker":"s","task":"digits","duration":1.0,"words":[{"word":"one","start":0.2,"end":0.4},{"word":"two","start":0.5,"end":0.7}]}"#
            )
        }
        let manifest = try dir.write("manifest.jsonl", bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        let out = dir.path("out")
        let captured = Captured()
        let status = await SpeechHarnessTool.run(
            ["bench", "long-stream", "--engine", "scripted", "--manifest", manifest, "--minutes", "0.1", "--out", out],
            console: captured.console)
        #expect(status == 0, "\(captured.stderr)")
        for file in [
            "stream.wav", "long-stream.json", "summary.md", "long-stream.html", "engines/scripted.json",
            "engines/scripted.trace.json",
        ] {
            #expect(FileManager.default.fileExists(atPath: out + "/" + file), "\(file) missing")
        }
        #expect(captured.stderr.contains("0.1 min, 4 recordings, 8 words (8 with times)"), "\(captured.stderr)")
        #expect(captured.stdout.contains("| scripted | 100.0% → 100.0% |"), "\(captured.stdout)")
    }

    /// `--resume` finds an engine's record under its name, which carries its settings: an engine
    /// run before is not run again.
    @Test func resumeKeepsEnginesByTheirNames() throws {
        let name = try EngineRegistry.shared.make("whisper").name  // whisper[tiny.en,int8,beam1,t1]
        #expect(name != "whisper")
        let record = LongStreamRecord(
            engine: name, stream: "s.wav", audioSeconds: 60, pieces: 1, pacing: "simulated",
            policy: "english")
        #expect(try LongStreamCommand.pending(["whisper", "scripted"], kept: [record.engine: record]) == ["scripted"])
    }

    @Test func aMissingManifestOrEngineIsAUsageError() async throws {
        let captured = Captured()
        let missing = await SpeechHarnessTool.run(
            ["bench", "long-stream", "--engine", "scripted", "--manifest", "/nonexistent/manifest.jsonl"],
            console: captured.console)
        #expect(missing == 2 && captured.stderr.contains("--manifest /nonexistent/manifest.jsonl: no such file"))
        let unknown = await SpeechHarnessTool.run(
            ["bench", "long-stream", "--engine", "no-such-engine"], console: captured.console)
        #expect(unknown == 2 && captured.stderr.contains("unknown engine 'no-such-engine'"))
    }
}
