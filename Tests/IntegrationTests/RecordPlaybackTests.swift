import AudioIO
import Foundation
import TestSupport
import Testing

/// The record-then-play-back program (a voice-memo app's Recorder, written against AVFoundation
/// only) on the virtual microphone and speaker: what the speaker played must be the file the
/// program recorded, sample for sample.
@Suite("Record and play back on the virtual device")
struct RecordPlaybackTests {
    static let recording = LiveExampleTests.recording

    @Test(
        .enabled(if: SystemFixture.available(recording), "the recording \(recording) is missing"),
        .enabled(if: PackageProgram.available("example-record-playback"), "example-record-playback is not built"))
    func theSpeakerPlaysBackExactlyWhatWasRecorded() throws {
        let directory = try TemporaryDirectory()
        let speaker = directory.path("speaker.wav")
        let (status, output) = try PackageProgram.run(
            "example-record-playback", ["1.5", directory.path("")],
            environment: [
                "SPEECH_HARNESS_MICROPHONE": Self.recording, "SPEECH_HARNESS_MICROPHONE_PACING": "fast",
                "SPEECH_HARNESS_SPEAKER": speaker,
            ])
        #expect(status == 0, "\(output)")
        #expect(output.contains("recorded 1.50 s to recording.wav"), "\(output)")
        #expect(output.contains("(dataPlayedBack)"), "\(output)")
        let recorded = try AudioFileReader(path: directory.path("recording.wav"))
        let played = try AudioFileReader(path: speaker)
        // The input node's settings: 48 kHz mono Float32, kept as is by the file and the speaker.
        #expect(recorded.info.format.sampleRate == 48_000 && recorded.info.encoding.contains("float"))
        #expect(played.info.format == recorded.info.format)
        let recordedSamples = try #require(try recorded.read(maxFrames: 1 << 22)).floatChannels[0]
        let playedSamples = try #require(try played.read(maxFrames: 1 << 22)).floatChannels[0]
        #expect(recordedSamples.count == 72_000)
        #expect(Array(playedSamples.prefix(recordedSamples.count)) == recordedSamples)
        #expect(playedSamples.dropFirst(recordedSamples.count).allSatisfy { $0 == 0 })
        // Real speech, not silence: the microphone played the recording into the file.
        #expect(recordedSamples.contains { abs($0) > 0.1 })
    }

    @Test(.enabled(if: PackageProgram.available("example-record-playback"), "example-record-playback is not built"))
    func aDeniedMicrophoneIsTheAppsDeniedPath() throws {
        let (status, output) = try PackageProgram.run(
            "example-record-playback", ["1"],
            environment: ["SPEECH_HARNESS_MICROPHONE": "silence", "SPEECH_HARNESS_RECORD_PERMISSION": "denied"])
        #expect(status == 1 && output.contains("user denied mic permission"), "\(output)")
    }
}
