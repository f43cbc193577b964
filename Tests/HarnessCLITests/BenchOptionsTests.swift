import SpeechCore
import Testing
import Workers

@testable import HarnessCLI

/// The bench's Whisper options reach the engines as typed settings, over the environment's.
@Suite("Bench options")
struct BenchOptionsTests {
    static let spec = BenchRunCommand.specs.first { $0.path == "bench" }!

    @Test func whisperOptionsOverrideTheEnvironmentsSettings() throws {
        let parsed = try ParsedArguments.parse(
            ["--engine", "whisper", "--manifest", "m.jsonl", "--whisper-beam", "4", "--whisper-seed", "7"],
            spec: Self.spec)
        let environment = HarnessEnvironment([
            "SPEECH_HARNESS_WHISPER_THREADS": "2", "SPEECH_HARNESS_WHISPER_BEAM_SIZE": "3",
        ])
        let settings = try HarnessContext.$current.withValue(HarnessContext.current.with(\.environment, environment)) {
            try BenchRunCommand.whisperSettings(parsed, command: "bench")
        }
        #expect(settings.beamSize == 4 && settings.seed == 7 && settings.threads == 2 && settings.computeType == "int8")
        // The engines made under them take them, whatever the environment says.
        let made = try HarnessContext.$current.withValue(HarnessContext.current.with(\.whisperSettings, settings)) {
            try WhisperWorker.Settings.current()
        }
        #expect(made == settings)
    }

    @Test func aBadOptionIsAUsageErrorNamingIt() {
        #expect {
            _ = try ParsedArguments.parse(
                ["--engine", "whisper", "--manifest", "m.jsonl", "--whisper-compute-type", "fp4"], spec: Self.spec)
        } throws: { error in
            "\(error)".contains("whisper-compute-type")
        }
    }

    @Test func aBadEnvironmentValueIsAUsageErrorNamingTheVariable() throws {
        let parsed = try ParsedArguments.parse(["--engine", "whisper", "--manifest", "m.jsonl"], spec: Self.spec)
        #expect {
            try HarnessContext.$current.withValue(
                HarnessContext.current.with(\.environment, HarnessEnvironment(["SPEECH_HARNESS_WHISPER_SEED": "-1"]))
            ) {
                _ = try BenchRunCommand.whisperSettings(parsed, command: "bench")
            }
        } throws: { error in
            (error as? UsageError)?.message.contains("SPEECH_HARNESS_WHISPER_SEED") == true
        }
    }
}
