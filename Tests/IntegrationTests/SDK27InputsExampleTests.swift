import Foundation
import TestSupport
import Testing

/// The SDK 27 example (a converter feeding a stream, an asset provider, a capture provider with its
/// own session over the default microphone), compiled unchanged against `import Speech`, heard by
/// PocketSphinx from a LibriVox recording.
@Suite("SDK 27 input helpers in an Apple-style program")
struct SDK27InputsExampleTests {
    static let recording = LiveExampleTests.recording

    @Test(
        .enabled(if: SystemFixture.available(recording), "the recording \(recording) is missing"),
        .enabled(if: PackageProgram.available("example-sdk27-inputs"), "example-sdk27-inputs is not built"),
        arguments: [["converter", recording], ["asset", recording], ["capture", "4"]])
    func eachHelperTranscribesTheRecording(arguments: [String]) throws {
        // The microphone plays the recording, then silence (the capture stops after 4 s analysed).
        let (status, output) = try PackageProgram.run(
            "example-sdk27-inputs", arguments,
            environment: LiveExampleTests.environment(
                "pocketsphinx", extra: ["SPEECH_HARNESS_MICROPHONE_END": "silence"]))
        #expect(status == 0, "\(output)")
        #expect(LiveExampleTests.finalLine(output).hasPrefix("he might even have been made"), "\(output)")
    }
}
