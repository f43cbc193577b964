import Foundation
import SpeechCore
import Testing

@testable import HarnessCLI

/// Runs the tool in process and keeps what it printed.
final class Captured: Sendable {
    let out = Locked<[String]>([])
    let err = Locked<[String]>([])
    var console: Console {
        Console(
            out: { text in self.out.withLock { $0.append(text) } },
            err: { text in self.err.withLock { $0.append(text) } })
    }
    var stdout: String { out.withLock { $0.joined(separator: "\n") } }
    var stderr: String { err.withLock { $0.joined(separator: "\n") } }
}

@Suite("Command line")
struct SpeechHarnessToolTests {
    func run(_ arguments: [String]) async -> (Int32, Captured) {
        let captured = Captured()
        return (await SpeechHarnessTool.run(arguments, console: captured.console), captured)
    }

    @Test func helpAndVersion() async {
        let (status, c) = await run(["--help"])
        #expect(status == 0)
        for command in SpeechHarnessTool.commands { #expect(c.stdout.contains(command.path)) }
        let (v, cv) = await run(["--version"])
        #expect(v == 0 && cv.stdout == "speech-harness \(SpeechHarnessTool.version)")
    }

    /// Synopsis and help come from each command's one declaration: its arguments, required options
    /// and option kinds.
    @Test func synopsisAndHelpFollowTheDeclaration() async {
        let synopses = Dictionary(uniqueKeysWithValues: SpeechHarnessTool.commands.map { ($0.path, $0.synopsis) })
        #expect(synopses["score"] == "<reference> <hypothesis> [options]")
        #expect(synopses["bench"] == "--manifest <file>... [options]")
        #expect(synopses["merge"] == "<dir>... --out <dir> [options]")
        #expect(synopses["corpus stats"] == "[<manifest>...] [options]")
        #expect(synopses["bench scoring"] == "<references.txt> <hypotheses.txt>")
        #expect(synopses["bench overhead"] == "--engine <E> --alone <COMMAND> --manifest <M>... [options]")
        let (_, c) = await run(["score", "--help"])
        #expect(c.stdout.hasPrefix("Usage: speech-harness score <reference> <hypothesis> [options]"))
        #expect(c.stdout.contains("--alignment <sclite|levenshtein>"))
        let (_, b) = await run(["bench", "--help"])
        #expect(b.stdout.contains("--manifest <file>") && b.stdout.contains("(required) (repeatable)"))
        #expect(b.stdout.contains("--pacing <simulated|realtime>"))
    }

    @Test func everyCommandHasHelp() async {
        for command in SpeechHarnessTool.commands {
            let (status, c) = await run(command.path.split(separator: " ").map(String.init) + ["--help"])
            #expect(status == 0)
            #expect(c.stdout.hasPrefix("Usage: speech-harness \(command.path)"))
        }
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["corpus"], "'corpus' needs a command"),
        (["corpus", "shuffle"], "unknown corpus command 'shuffle'"),
        (["corpus", "validate"], "expected at least 1 argument"),
        (["corpus", "validate", "m.jsonl", "--colour"], "unknown option '--colour'"),
        (["corpus", "validate", "m.jsonl", "--format", "csv"], "--format expects one of jsonl, kaldi, librispeech"),
        (
            ["score", "r.txt", "h.txt", "--alignment", "dtw"],
            "--alignment expects one of sclite, levenshtein; got 'dtw'"
        ),
        (["bench", "--engine", "scripted"], "--manifest is required"),
        (["bench", "--manifest", "m.jsonl"], "give at least one --engine"),
        (["bench", "--engine", "scripted", "--manifest", "m.jsonl", "--pacing", "slow"], "--pacing expects one of"),
        (
            ["bench", "--engine", "scripted", "--manifest", "m.jsonl", "--jobs", "65"],
            "--jobs expects a whole number from 1 to 64, got '65'"
        ),
        (["bench", "soak", "--max-growth-mb", "-1"], "--max-growth-mb expects a positive number, got '-1'"),
        (["merge", "part0"], "--out is required"),
        (["corpus", "build", "--tier", "real-xx"], "unknown tier 'real-xx'"),
        (["bench", "stream-io", "a.wav", "--chunk-ms", "0"], "--chunk-ms expects a whole number"),
        (["bench", "stream-io", "a.wav", "--chunk-ms"], "--chunk-ms needs a value"),
        (["audio", "info", "a.wav", "--raw", "16k"], "--raw expects rate:channels:encoding"),
        (["audio", "convert", "a.wav"], "expected 2 arguments"),
    ])
    func usageErrorsExitTwoWithAMessage(arguments: [String], message: String) async {
        let (status, c) = await run(arguments)
        #expect(status == 2)
        #expect(c.stderr.contains(message), "stderr was: \(c.stderr)")
    }

    @Test func failuresExitOneAndNameTheFile() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bogus = dir.appendingPathComponent("bogus.wav").path
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: bogus))
        let (status, c) = await run(["audio", "info", bogus])
        #expect(status == 1)
        #expect(c.stderr.contains("bogus.wav: not an audio file"))

        let manifest = dir.appendingPathComponent("m.jsonl").path
        try Data((#"{"id":"a","audio":"bogus.wav","reference":"x","locale":"en","duration":1}"# + "\n{broken").utf8)
            .write(to: URL(fileURLWithPath: manifest))
        let (vs, vc) = await run(["corpus", "validate", manifest])
        #expect(vs == 1)
        #expect(vc.stdout.contains("m.jsonl:1: [a] audio unreadable"))
        #expect(vc.stdout.contains("m.jsonl:2: malformed JSON"))
        #expect(vc.stdout.contains("0 valid, 2 problems"))
    }

    /// `audio compare`: 0 for the same audio (here two conversions of one file), 1 with the first
    /// difference for other audio, 2 naming a file that cannot be read.
    @Test func audioCompareSaysWhetherTwoFilesHoldTheSameAudio() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("in.raw").path
        let samples = (0..<8_000).map { Int16(8000 * sin(Double($0) * 0.1)) }
        try Data(samples.flatMap { v in withUnsafeBytes(of: v.littleEndian) { Array($0) } }).write(
            to: URL(fileURLWithPath: raw))
        let (a, b, c) = (
            dir.appendingPathComponent("a.wav").path, dir.appendingPathComponent("b.wav").path,
            dir.appendingPathComponent("c.wav").path
        )
        #expect(await run(["audio", "convert", raw, a, "--raw", "8000:1:s16"]).0 == 0)
        #expect(await run(["audio", "convert", raw, b, "--raw", "8000:1:s16"]).0 == 0)
        #expect(await run(["audio", "convert", raw, c, "--raw", "8000:1:s16", "--rate", "16000"]).0 == 0)
        let (same, sameOutput) = await run(["audio", "compare", a, b])
        #expect(same == 0 && sameOutput.stdout.contains("hold the same audio"), "\(sameOutput.stdout)")
        let (other, otherOutput) = await run(["audio", "compare", a, c])
        #expect(other == 1 && otherOutput.stdout.contains("formats differ"), "\(otherOutput.stdout)")
        let gone = dir.appendingPathComponent("gone.wav").path
        let (missing, missingOutput) = await run(["audio", "compare", a, gone])
        #expect(missing == 2 && missingOutput.stderr.contains(gone), "\(missingOutput.stderr)")
    }

    @Test func streamIOReportsWhatItRead() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("in.wav").path
        // 1.25 s of a tone at 8 kHz, written by the harness's own converter path.
        let raw = dir.appendingPathComponent("in.raw").path
        let samples = (0..<10_000).map { Int16(8000 * sin(Double($0) * 0.1)) }
        try Data(samples.flatMap { v in withUnsafeBytes(of: v.littleEndian) { Array($0) } }).write(
            to: URL(fileURLWithPath: raw))
        #expect(await run(["audio", "convert", raw, wav, "--raw", "8000:1:s16"]).0 == 0)
        let (status, c) = await run(["bench", "stream-io", wav, "--chunk-ms", "100", "--rate", "16000"])
        #expect(status == 0)
        #expect(c.stdout.contains("audio: 1.2 s at 16000 Hz in 13 chunks of 100 ms"), "\(c.stdout)")
        #expect(c.stdout.contains("peak RSS:"))
    }
}
