import AudioIO
import Foundation
import Metrics
import MigrationDiff
import Records
import Reports
import SpeechCore
import TestSupport
import Testing

/// Two programs of the app's own, old and new, on the same microphone input.
@Suite("Program diff")
struct ProgramDiffTests {
    /// Whether the example programs are built; records an issue when not.
    static func built(_ programs: String...) -> Bool {
        guard programs.allSatisfy(PackageProgram.isBuilt) else {
            Issue.record("the example programs were not built; run swift build first")
            return false
        }
        return true
    }

    /// A folder with the microphone's clip: 2.5 s of tone (the scripted engine never listens).
    static func clip() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let audio = directory.path("clip.wav")
        try AudioFileWriter.writeMono(
            Signal.sine(frequency: 200, sampleRate: 16_000, seconds: 2.5), sampleRate: 16_000, to: audio)
        return (directory, audio)
    }

    @Test func tracesBecomeWhatEachAPIShowed() {
        let w = { (text: String, start: Double) in APICallTrace.Word(word: text, start: start, end: start + 0.3) }
        let legacy = ProgramDiff.apiTrace(
            [
                .init(api: "legacy", kind: "partial", audioTime: 0.5, words: [w("won", 0.2)]),
                .init(api: "legacy", kind: "final", audioTime: 1.2, words: [w("one", 0.2), w("two", 0.6)]),
                .init(api: "legacy", kind: "end", audioTime: 1.2, words: []),
            ], program: ["/bin/old"], audioSeconds: 1.2)
        #expect(legacy.finalText == "one two" && legacy.revisions == 1 && legacy.eventOrder == "partial final end")
        let analyzer = ProgramDiff.apiTrace(
            [
                .init(api: "analyzer", kind: "partial", audioTime: 0.5, words: [w("one", 0.2)]),
                .init(api: "analyzer", kind: "final", audioTime: 0.7, words: [w("one", 0.2)]),
                .init(api: "analyzer", kind: "partial", audioTime: 1.0, words: [w("two", 0.6)]),
                .init(api: "analyzer", kind: "final", audioTime: 1.2, words: [w("two", 0.6)]),
                .init(api: "analyzer", kind: "end", audioTime: -1, words: []),
            ], program: ["/bin/new"], audioSeconds: 1.2)
        #expect(analyzer.events.map(\.shown) == [["one"], ["one"], ["one", "two"], ["one", "two"], ["one", "two"]])
        #expect(analyzer.finalText == "one two" && analyzer.api == "new (analyzer)")
        let diff = MigrationComparison.compare(id: "u", legacy: legacy, analyzer: analyzer)
        #expect(diff.noticeable.isEmpty)
        #expect(diff.expected.contains("final results before the end of audio: legacy 0, analyzer 1"))
    }

    @Test func theLiveExamplesAgreeOnTheScriptedEngine() throws {
        guard Self.built("example-live-dictation", "example-live-analyzer") else { return }
        let (directory, audio) = try Self.clip()
        let script = try directory.write(
            "script.json",
            bytes: Array(
                #"{"words":[{"text":"open","start":0.3,"end":0.7},{"text":"the","start":0.8,"end":0.9},{"text":"door","start":1.0,"end":1.4}],"latency":0.1}"#
                    .utf8))
        let binaries = PackageProgram.binaries.path
        let programs = ProgramDiff(
            oldProgram: [binaries + "/example-live-dictation"], newProgram: [binaries + "/example-live-analyzer"],
            engine: "scripted", timeout: 60,
            environment: ["SPEECH_HARNESS_SCRIPT": script, "SPEECH_HARNESS_ASSETS": directory.path("assets")])
        let diff = try programs.run(id: "clip", microphone: audio, audioSeconds: 2.5)
        #expect(diff.legacy.finalText == "open the door", "\(diff.legacy.events)")
        #expect(diff.analyzer.finalText == "open the door", "\(diff.analyzer.events)")
        #expect(diff.noticeable.isEmpty, "\(diff.noticeable)")
        #expect(
            diff.legacy.api == "example-live-dictation (legacy)"
                && diff.analyzer.api == "example-live-analyzer (analyzer)")
        let markdown = MigrationReport.markdown(
            MigrationSummary(engine: "scripted", manifest: "m", utterances: [diff], problems: []))
        #expect(
            markdown.hasPrefix(
                "## Migration diff: example-live-dictation (legacy) vs example-live-analyzer (analyzer) on scripted"))
    }

    /// The early guide's stop (input finished, analyzer dropped) against finalizing through the end
    /// of the input, with an engine that finalizes only when asked: the first loses every word.
    @Test func stoppingWithoutFinalizingLosesTheTail() throws {
        guard Self.built("example-live-analyzer") else { return }
        let (directory, audio) = try Self.clip()
        let words = [
            TimedWord(word: "open", start: 0.3, end: 0.7), TimedWord(word: "the", start: 0.8, end: 0.9),
            TimedWord(word: "door", start: 1.0, end: 1.4),
        ]
        let script = try directory.write(
            "script.json",
            bytes: Array(
                #"{"words":[{"text":"open","start":0.3,"end":0.7},{"text":"the","start":0.8,"end":0.9},{"text":"door","start":1.0,"end":1.4}],"endpointSilence":null}"#
                    .utf8))
        let program = PackageProgram.binaries.path + "/example-live-analyzer"
        let programs = ProgramDiff(
            oldProgram: [program, "--stop-without-finalize"], newProgram: [program], engine: "scripted", timeout: 60,
            environment: ["SPEECH_HARNESS_SCRIPT": script, "SPEECH_HARNESS_ASSETS": directory.path("assets")])
        let diff = try programs.run(id: "clip", microphone: audio, audioSeconds: 2.5, reference: words)
        #expect(diff.legacy.finalText == "" && diff.analyzer.finalText == "open the door")
        // The tail is the last 2 s (from 0.5 s): all three words end in it.
        #expect(diff.legacyTail == TailLoss(words: 3, lost: 3) && diff.analyzerTail == TailLoss(words: 3, lost: 0))
        #expect(diff.legacy.api == "example-live-analyzer --stop-without-finalize (analyzer)")
        let markdown = MigrationReport.markdown(
            MigrationSummary(engine: "scripted", manifest: "m", utterances: [diff], problems: []))
        #expect(markdown.contains("example-live-analyzer --stop-without-finalize (analyzer) 3 of 3"))
    }

    @Test func aProgramThatUsesNoSpeechAPIIsAnError() throws {
        let programs = ProgramDiff(
            oldProgram: ["/bin/true"], newProgram: ["/bin/true"], engine: "scripted", timeout: 10)
        #expect(throws: ProgramDiff.ProgramError.self) {
            try programs.run(id: "u", microphone: "silence", audioSeconds: 1)
        }
    }
}
