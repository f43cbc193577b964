import EngineCore
import Foundation
import MigrationDiff
import Records
import Reports
import SpeechCore
import TestSupport
import Testing

/// Both APIs over the scripted engine on a real file: agreement, the emulated one-minute limit,
/// "no speech detected", and the reports.
@Suite("Migration run", .serialized)
struct MigrationRunTests {
    static func silence(_ seconds: Double, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("silence-\(Int(seconds)).wav")
        try AudioIOBridge.write([Float](repeating: 0, count: Int(seconds * 16_000)), to: path)
        return path
    }

    @Test func sameEngineSameTranscriptAndTimes() async throws {
        let directory = try TemporaryDirectory()
        let engine = ScriptedEngine(script: .evenlySpaced("turn the lights on", latency: 0.1, endpointSilence: nil))
        let diff = try await MigrationRun(engine: engine).run(
            id: "u1", audioPath: try Self.silence(3, in: directory), locale: "en-US")
        #expect(diff.legacy.finalText == "turn the lights on")
        #expect(diff.analyzer.finalText == "turn the lights on")
        #expect(diff.transcript.errors == 0 && diff.matchedWords == 4)
        #expect(diff.maximumTimeShift! < 1e-6)
        #expect(diff.legacy.eventOrder.hasPrefix("partial") && diff.legacy.eventOrder.hasSuffix("final end"))
        #expect(diff.legacy.events.last!.audioTime == 3)
        #expect(diff.analyzer.error == nil && diff.legacy.error == nil)
    }

    @Test func oneMinuteLimitIsALegacyOnlyBehaviour() async throws {
        let directory = try TemporaryDirectory()
        let script = EngineScript(
            words: [.init("early", start: 1, end: 1.5), .init("late", start: 62, end: 62.5)], endpointSilence: nil)
        let path = try Self.silence(64, in: directory)
        let onDevice = try await MigrationRun(engine: ScriptedEngine(script: script)).run(
            id: "u", audioPath: path, locale: "en-US")
        #expect(onDevice.isSame)
        let server = try await MigrationRun(engine: ScriptedEngine(script: script), serverRequests: true).run(
            id: "u", audioPath: path, locale: "en-US")
        #expect(server.legacy.finalText == "early" && server.analyzer.finalText == "early late")
        #expect(
            server.differences.contains("final transcript differs: 0 substituted, 0 only in legacy, 1 only in analyzer")
        )
        #expect(
            server.differences.contains {
                $0.hasPrefix("legacy only: stopped listening at the 60 s server-request limit; 4.000 s")
            })
    }

    @Test func noSpeechIsAnErrorOnlyForLegacy() async throws {
        let directory = try TemporaryDirectory()
        let diff = try await MigrationRun(engine: ScriptedEngine(script: EngineScript(words: [])))
            .run(id: "quiet", audioPath: try Self.silence(1, in: directory), locale: "en-US")
        #expect(diff.differences.count == 1)
        #expect(diff.differences[0].hasPrefix("only legacy fails: kAFAssistantErrorDomain 1110"))
        #expect(diff.analyzer.eventOrder == "end")
    }

    @Test func reportsAreValidAndEscaped() async throws {
        let directory = try TemporaryDirectory()
        let engine = ScriptedEngine(script: .evenlySpaced("a <b> | c", latency: 0.1, endpointSilence: nil))
        let diff = try await MigrationRun(engine: engine).run(
            id: "id|<x>", audioPath: try Self.silence(3, in: directory), locale: "en-US")
        let quiet = try await MigrationRun(engine: ScriptedEngine(script: EngineScript(words: [])))
            .run(id: "quiet", audioPath: try Self.silence(1, in: directory), locale: "en-US")
        let summary = MigrationSummary(
            engine: "scripted", manifest: "Corpus/x/manifest.jsonl", utterances: [diff, quiet],
            problems: ["bad.wav: truncated"])
        let junit = directory.path("diff.xml")
        try JUnitWriter.write(MigrationReport.junit(summary), to: junit)
        #expect(JUnitWriter.validate(path: junit) == [])
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"classname="migrate-diff.scripted.x" name="quiet""#))
        #expect(xml.contains("<failure") && xml.contains("<error"))
        let markdown = MigrationReport.markdown(summary)
        #expect(
            markdown.contains(
                "2 utterances · 1 with differences a user would notice · 0 with only the new API's expected differences · 1 could not be run"
            ), "\(markdown)")
        #expect(!markdown.contains("<b>") && !markdown.contains("id|<x>"))
    }
}
