import Foundation
import TestSupport
import Testing

/// The live example programs (AVAudioSession, an AVAudioEngine tap, the legacy buffer request or
/// SpeechAnalyzer) on the virtual microphone playing a real recording, with real engines.
@Suite("Live examples on the virtual microphone", .serialized)
struct LiveExampleTests {
    /// LibriVox read speech shipped by pocketsphinx-testdata: "he might even have been made amiable himself".
    static let recording = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav"

    static func environment(
        _ engine: String, microphone: String = recording, extra: [String: String] = [:]
    ) -> [String: String] {
        [
            "SPEECH_HARNESS_ENGINE": engine, "SPEECH_HARNESS_MICROPHONE": microphone,
            "SPEECH_HARNESS_MICROPHONE_PACING": "fast",
            "SPEECH_HARNESS_MICROPHONE_END": "1", "SPEECH_HARNESS_ROOT": SystemFixture.packageRoot,
            "LANG": "en_US.UTF-8",
        ]
        .merging(extra) { $1 }
    }

    static func finalLine(_ output: String) -> String {
        output.split(separator: "\n").last { $0.hasPrefix("final: ") }.map { String($0.dropFirst(7)).lowercased() }
            ?? ""
    }

    @Test(
        .enabled(if: SystemFixture.available(recording), "the recording \(recording) is missing"),
        .enabled(
            if: PackageProgram.available("example-live-dictation") && PackageProgram.available("example-live-analyzer"),
            "the examples are not built"),
        arguments: ["example-live-dictation", "example-live-analyzer"], ["pocketsphinx", "whisper"])
    func theSpokenWordsArePrinted(program: String, engine: String) throws {
        let (status, output) = try PackageProgram.run(program, environment: Self.environment(engine))
        #expect(status == 0, "\(output)")
        #expect(Self.finalLine(output).hasPrefix("he might even have been made"), "\(output)")
        if program == "example-live-dictation" {
            // The legacy result's metadata, measured from the words and the audio.
            #expect(output.contains("metadata: ") && output.contains("voice analytics: "), "\(output)")
        }
    }

    /// An engine id nobody registered reaches the app as its recognition task's error, naming the
    /// id and the known ids (not "locale not supported"); the library does not end the process, the
    /// app's own error path does.
    @Test(.enabled(if: PackageProgram.available("example-live-dictation"), "example-live-dictation is not built"))
    func anUnknownEngineIsNamedWithTheKnownOnes() throws {
        let (status, output) = try PackageProgram.run(
            "example-live-dictation", environment: Self.environment("nonsense"))
        #expect(status == 1, "\(output)")
        #expect(output.contains("error: unknown engine"), "\(output)")
        #expect(output.contains("unknown engine 'nonsense' (known engines: "), "\(output)")
        #expect(output.contains("pocketsphinx-digits") && output.contains("scripted"), "\(output)")
    }

    @Test(.enabled(if: PackageProgram.available("example-live-dictation"), "example-live-dictation is not built"))
    func deniedMicrophoneAccessIsTheAppsDeniedPath() throws {
        let (status, output) = try PackageProgram.run(
            "example-live-dictation",
            environment: Self.environment(
                "scripted", extra: ["SPEECH_HARNESS_RECORD_PERMISSION": "denied"]))
        #expect(status == 1)
        #expect(output.contains("microphone access denied"))
    }

    @Test(.enabled(if: PackageProgram.available("example-live-dictation"), "example-live-dictation is not built"))
    func deniedSpeechRecognitionIsTheAppsDeniedPath() throws {
        let (status, output) = try PackageProgram.run(
            "example-live-dictation",
            environment: Self.environment(
                "scripted", extra: ["SPEECH_HARNESS_AUTHORIZATION": "restricted"]))
        #expect(status == 1)
        #expect(output.contains("speech recognition not authorized: restricted"))
    }

    @Test(.enabled(if: PackageProgram.available("example-live-analyzer"), "example-live-analyzer is not built"))
    func aMachineWithoutMicrophoneStopsTheAppAsADeviceWould() throws {
        let (status, output) = try PackageProgram.run(
            "example-live-analyzer", environment: Self.environment("scripted", microphone: "none"))
        #expect(status != 0)
        #expect(
            output.contains("required condition is false: IsFormatSampleRateAndChannelCountValid(format)"), "\(output)")
    }
}
