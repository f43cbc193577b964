import AudioIO
import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import VirtualDevice

@Suite("Capture schedule")
struct CaptureScheduleTests {
    @Test func bufferSizesStayWithinAppleRange() {
        // An iPhone asked for 1,024 frames at 48 kHz delivers 100 ms.
        #expect(CaptureSchedule.framesPerBuffer(requested: 1024, sampleRate: 48_000) == 4_800)
        #expect(CaptureSchedule.framesPerBuffer(requested: 9_600, sampleRate: 48_000) == 9_600)
        #expect(CaptureSchedule.framesPerBuffer(requested: 100_000, sampleRate: 48_000) == 19_200)
        #expect(CaptureSchedule.framesPerBuffer(requested: 4_096, sampleRate: 16_000) == 4_096)
    }

    @Test func buffersFollowEachOtherWithoutGapsAndAreReadyAtTheirEnd() {
        var schedule = CaptureSchedule(sampleRate: 44_100, requestedFrames: 0, startSampleTime: 10)
        let first = schedule.next(), second = schedule.next()
        #expect(first == 10..<4_420)
        #expect(second.lowerBound == first.upperBound && second.count == 4_410)
        #expect(schedule.readySeconds(of: second) == Double(second.upperBound) / 44_100)
    }
}

@Suite("Device settings")
struct DeviceSettingsTests {
    @Test func defaultsAreAMachineWithoutMicrophoneAndEverythingAllowed() throws {
        let settings = try DeviceSettings.fromEnvironment([:])
        #expect(settings.microphone == MicrophoneSettings(source: .none))
        #expect(settings.microphone.sampleRate == 48_000 && settings.microphone.channelCount == 1)
        #expect(settings.microphone.pacing == .realtime && settings.microphone.end == .silence)
        #expect(settings.recordPermission == .authorized && settings.speechAuthorization == .authorized)
    }

    @Test func everyVariableIsRead() throws {
        let settings = try DeviceSettings.fromEnvironment([
            "SPEECH_HARNESS_MICROPHONE": "Corpus/build/real-digits-en/manifest.jsonl#real-digits-en-003",
            "SPEECH_HARNESS_MICROPHONE_PACING": "fast", "SPEECH_HARNESS_MICROPHONE_END": "1.5",
            "SPEECH_HARNESS_MICROPHONE_RATE": "44100", "SPEECH_HARNESS_MICROPHONE_CHANNELS": "2",
            "SPEECH_HARNESS_RECORD_PERMISSION": "denied", "SPEECH_HARNESS_AUTHORIZATION": "notDetermined",
        ])
        #expect(
            settings.microphone.source
                == .utterance(manifest: "Corpus/build/real-digits-en/manifest.jsonl", id: "real-digits-en-003"))
        #expect(settings.microphone.pacing == .fast && settings.microphone.end == .stopEngine(afterSilence: 1.5))
        #expect(settings.microphone.sampleRate == 44_100 && settings.microphone.channelCount == 2)
        #expect(settings.recordPermission == .denied && settings.speechAuthorization == .notDetermined)
        #expect(DeviceSettings.source("silence") == .silence)
        #expect(DeviceSettings.source("/tmp/a#b.wav") == .file(path: "/tmp/a#b.wav"))
        #expect(
            try DeviceSettings.fromEnvironment(["SPEECH_HARNESS_MICROPHONE_END": "stop"]).microphone.end
                == .stopEngine(afterSilence: 0))
    }

    @Test(arguments: [
        ("SPEECH_HARNESS_MICROPHONE_PACING", "slow"), ("SPEECH_HARNESS_MICROPHONE_END", "-1"),
        ("SPEECH_HARNESS_MICROPHONE_RATE", "1"), ("SPEECH_HARNESS_MICROPHONE_CHANNELS", "0"),
        ("SPEECH_HARNESS_RECORD_PERMISSION", "maybe"), ("SPEECH_HARNESS_AUTHORIZATION", "yes"),
    ])
    func aBadValueIsAnErrorNamingTheVariable(variable: String, value: String) {
        #expect(throws: DeviceSettingsError.self) { try DeviceSettings.fromEnvironment([variable: value]) }
        do {
            _ = try DeviceSettings.fromEnvironment([variable: value])
        } catch {
            #expect(error.variable == variable && error.value == value)
            #expect(error.description.hasPrefix("\(variable)='\(value)'"))
        }
    }

    @Test func aRequestAnswersAnUndecidedPermissionOnceAndKeepsDecidedOnes() {
        let ledger = PermissionLedger()
        HarnessContext.$current.withValue(
            HarnessContext.current.with(
                \.device,
                DeviceSettings(recordPermission: .notDetermined, speechAuthorization: .denied)
            )
        ) {
            #expect(ledger.recordPermission == .notDetermined)
            #expect(ledger.requestRecordPermission() == .authorized)
            #expect(ledger.recordPermission == .authorized)
            #expect(ledger.requestSpeechAuthorization() == .denied)
            #expect(ledger.speechAuthorization == .denied)
        }
    }
}

@Suite("Microphone recording")
struct MicrophoneRecordingTests {
    func writeTone(_ directory: TemporaryDirectory, rate: Double, seconds: Double) throws -> String {
        let path = directory.path("tone.wav")
        let writer = try AudioFileWriter(
            path: path, format: AudioFormat(sampleRate: rate, channelCount: 1), encoding: .pcm16)
        try writer.write(
            PCMBuffer(mono: Signal.sine(frequency: 440, sampleRate: rate, seconds: seconds), sampleRate: rate))
        writer.close()
        return path
    }

    @Test func aFileIsHeardAtTheHardwareRateAndChannelCount() throws {
        let directory = try TemporaryDirectory()
        let path = try writeTone(directory, rate: 16_000, seconds: 1)
        let recording = try MicrophoneRecording.load(.file(path: path), sampleRate: 48_000, channelCount: 2)
        #expect(recording.channels.count == 2)
        #expect(abs(recording.frameCount - 48_000) <= 2)
        let middle = recording.channels[0][20_000..<24_000]
        #expect(
            Signal.power(of: 440, in: middle, sampleRate: 48_000) > 100
                * Signal.power(of: 1_000, in: middle, sampleRate: 48_000))
        #expect(recording.frames(47_990..<48_010).allSatisfy { $0.count == 20 })
        #expect(recording.frames(50_000..<50_010)[1] == [Float](repeating: 0, count: 10))
    }

    @Test func anUnreadableSourceIsAnErrorNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("broken.wav", bytes: Array("RIFF not really".utf8))
        do {
            _ = try MicrophoneRecording.load(.file(path: path), sampleRate: 48_000, channelCount: 1)
            Issue.record("a broken file was played")
        } catch {
            guard case .unreadableSource(let named, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(named == path)
        }
    }
}
