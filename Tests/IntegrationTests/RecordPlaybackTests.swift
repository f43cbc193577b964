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

    static let faketime = "/usr/bin/faketime"

    /// The same recording made at two wall-clock times years apart (libfaketime moves the clock the
    /// program reads; its monotonic clock, which paces the microphone, is left alone) gives the same
    /// bytes, both for the app's file and for the speaker's: nothing in a written file records when.
    @Test(
        .enabled(if: SystemFixture.available(recording), "the recording \(recording) is missing"),
        .enabled(if: SystemFixture.available(faketime), "\(faketime) is missing (Debian's faketime)"),
        .enabled(if: PackageProgram.available("example-record-playback"), "example-record-playback is not built"))
    func aRecordingMadeAtAnotherTimeHasTheSameBytes() throws {
        let directory = try TemporaryDirectory()
        var files: [[Data]] = []
        for (index, time) in ["2020-01-01 00:00:00", "2031-06-07 08:09:10"].enumerated() {
            let folder = directory.path("\(index)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let program = PackageProgram.binaries.appendingPathComponent("example-record-playback").path
            let (status, output) = try PackageProgram.run(
                Self.faketime, [time, program, "1.5", folder],
                environment: [
                    "SPEECH_HARNESS_MICROPHONE": Self.recording, "SPEECH_HARNESS_MICROPHONE_PACING": "fast",
                    "SPEECH_HARNESS_SPEAKER": folder + "/speaker.wav", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
                ])
            #expect(status == 0, "\(output)")
            files.append(
                try ["recording.wav", "speaker.wav"].map {
                    try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))
                })
        }
        #expect(files[0][0].count > 200_000)
        #expect(files[0][0] == files[1][0], "the app's recordings differ")
        #expect(files[0][1] == files[1][1], "the speaker's files differ")
        #expect(files[0][0] == files[0][1], "the speaker did not write the recording's bytes")
    }

    @Test(.enabled(if: PackageProgram.available("example-record-playback"), "example-record-playback is not built"))
    func aDeniedMicrophoneIsTheAppsDeniedPath() throws {
        let (status, output) = try PackageProgram.run(
            "example-record-playback", ["1"],
            environment: ["SPEECH_HARNESS_MICROPHONE": "silence", "SPEECH_HARNESS_RECORD_PERMISSION": "denied"])
        #expect(status == 1 && output.contains("user denied mic permission"), "\(output)")
    }
}
