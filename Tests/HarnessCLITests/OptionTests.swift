import Metrics
import Testing

@testable import HarnessCLI

/// Options are declared once with their type: a command reads `arguments[option]` as `Int`, an
/// enum or an array, and parsing refuses a value of the wrong kind with the allowed values.
@Suite("Typed options")
struct OptionTests {
    static func spec(_ path: String) -> CommandSpec {
        (BenchRunCommand.specs + EnrollCommand.specs + ScoreCommand.specs).first { $0.path == path }!
    }

    @Test func valuesComeBackTyped() throws {
        let parsed = try ParsedArguments.parse(
            [
                "--backend", "scripted", "--engine", "whisper", "--manifest", "a.jsonl", "--jobs", "3", "--normalizer",
                "whisper-en", "--split", "test", "--word-times",
            ], spec: Self.spec("bench"))
        let bench = BenchRunCommand.Bench.self
        #expect(parsed[bench.engine] == ["scripted", "whisper"], "--backend is --engine's alias")
        #expect(parsed[bench.jobs] == 3)
        #expect(parsed[bench.normalizer] == .whisperEnglish)
        #expect(parsed[bench.split] == .test)
        #expect(parsed[bench.wordTimes] && !parsed[bench.resume])
        #expect(parsed[bench.limit] == nil)
    }

    /// Each message whole: what the option takes, and what was given.
    @Test(arguments: [
        (
            "bench", ["--engine", "e", "--manifest", "m", "--normalizer", "fancy"],
            "--normalizer expects one of none, basic, english, whisper-en, whisper-basic, digits, spoken-es, spoken-fr, spoken-it, spoken-ru; got 'fancy'"
        ),
        (
            "bench", ["--engine", "e", "--manifest", "m", "--jobs", "0"],
            "--jobs expects a whole number from 1 to 64, got '0'"
        ),
        ("bench", ["--engine", "e"], "--manifest is required"),
        ("engine enroll", ["--warp", "3"], "--warp expects a number from 0.5 to 2, got '3'"),
        ("engine enroll", ["--beam", "-1"], "--beam expects a number ≥ 0, got '-1'"),
        ("score", ["--alignment", "dtw", "r", "h"], "--alignment expects one of sclite, levenshtein; got 'dtw'"),
    ])
    func aValueOfTheWrongKindIsRefusedWithWhatIsAllowed(path: String, arguments: [String], message: String) {
        #expect {
            _ = try ParsedArguments.parse(arguments, spec: Self.spec(path))
        } throws: { error in
            "\(error)" == message
        }
    }

    @Test func helpComesFromTheSameDeclarations() {
        let help = Self.spec("engine enroll").helpText()
        #expect(help.contains("  --warp <W>") && help.contains("(repeatable)"))
        #expect(Self.spec("bench").helpText().contains("(also --backend)"))
    }
}
