import AudioIO
import EngineCore
import Foundation
@_spi(Harness) import LegacySpeech
@_spi(Harness) import Speech
import SpeechCore
import TestSupport
import Testing
import VirtualDevice

/// `speechRecognitionMetadata` and voice analytics of legacy results, measured from the audio.
@Suite("Legacy result metadata", .isolatedResources)
struct LegacyMetadataTests {
    /// Runs a buffer request over `samples` (16 kHz) on `engine`; returns every result.
    static func results(
        _ samples: [Float], engine: any RecognitionEngine
    ) async -> (results: [SFSpeechRecognitionResult], error: (any Error)?) {
        let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US"), engine: engine)
        let request = SFSpeechAudioBufferRecognitionRequest()
        let collected = Locked<([SFSpeechRecognitionResult], (any Error)?)>(([], nil))
        let task = recognizer.recognitionTask(with: request) { result, error in
            collected.withLock {
                if let result { $0.0.append(result) }
                if let error { $0.1 = error }
            }
        }
        let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        for start in stride(from: 0, to: samples.count, by: 1_600) {
            let count = min(1_600, samples.count - start)
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(count))!
            buffer.frameLength = AVAudioFrameCount(count)
            for i in 0..<count { buffer.floatChannelData![0][i] = samples[start + i] }
            request.append(buffer)
        }
        request.endAudio()
        await task.waitUntilCompleted()
        return collected.withLock { $0 }
    }

    @Test func rateAndPausesComeFromTheWordTimes() async throws {
        // Three words with pauses of 0.3 s and 0.6 s over a 200 Hz tone.
        let words = [
            EngineScript.Word("one", start: 0.3, end: 0.7), EngineScript.Word("two", start: 1.0, end: 1.4),
            EngineScript.Word("three", start: 2.0, end: 2.4),
        ]
        let tone = Signal.sine(frequency: 200, sampleRate: 16_000, seconds: 3)
        let (results, error) = await Self.results(
            tone, engine: ScriptedEngine(script: EngineScript(words: words, latency: 0.1)))
        #expect(error == nil)
        let final = try #require(results.last)
        #expect(final.isFinal && results.dropLast().allSatisfy { $0.speechRecognitionMetadata == nil })
        let metadata = try #require(final.speechRecognitionMetadata)
        #expect(abs(metadata.averagePauseDuration - 0.45) < 1e-9)
        #expect(abs(metadata.speechStartTimestamp - 0.3) < 1e-9 && abs(metadata.speechDuration - 2.1) < 1e-9)
        #expect(abs(metadata.speakingRate - 3 / 2.1 * 60) < 1e-6)
        // Voice analytics cover the speech span, frame by frame, and hear the tone's pitch.
        let analytics = try #require(metadata.voiceAnalytics)
        #expect(analytics.pitch.frameDuration == 0.01)
        #expect(analytics.pitch.acousticFeatureValuePerFrame.count == 210)
        #expect(analytics.pitch.acousticFeatureValuePerFrame.allSatisfy { abs(exp($0) - 200) / 200 < 0.02 })
        #expect(analytics.voicing.acousticFeatureValuePerFrame.allSatisfy { $0 > 0.9 })
        #expect(analytics.jitter.acousticFeatureValuePerFrame.allSatisfy { $0 < 0.2 })
        let segment = try #require(final.bestTranscription.segments.last)
        #expect(segment.voiceAnalytics?.pitch.acousticFeatureValuePerFrame.count == 40)
    }

    @Test(
        .enabled(
            if: SystemFixture.available(SystemFixture.asteriskDigits),
            "the Asterisk digit recordings are missing (asterisk-core-sounds-en-wav)"))
    func realSpeechHasAVoicePitchAndVoicedFrames() async throws {
        let digits = SystemFixture.asteriskDigits
        let clip = try AudioFileReader.readMono(path: digits + "/5.wav")
        let samples =
            clip.sampleRate == 16_000
            ? clip.samples : try SampleRateConverter.convert(clip.samples, from: clip.sampleRate, to: 16_000)
        let duration = Double(samples.count) / 16_000
        let words = [EngineScript.Word("five", start: 0, end: duration)]
        let (results, _) = await Self.results(
            samples, engine: ScriptedEngine(script: EngineScript(words: words, latency: 0)))
        let analytics = try #require(results.last?.speechRecognitionMetadata?.voiceAnalytics)
        let pitches = analytics.pitch.acousticFeatureValuePerFrame.filter { $0 > 0 }.map { exp($0) }.sorted()
        // Allison (an adult female voice): most of "five" is voiced, around 150–300 Hz.
        #expect(pitches.count > analytics.pitch.acousticFeatureValuePerFrame.count / 3)
        let median = pitches[pitches.count / 2]
        #expect((150...300).contains(median), "median pitch \(median) Hz")
    }

    @Test func aTaskWithoutSpeechAuthorizationFails() async {
        let ledger = PermissionLedger()
        await HarnessContext.$current.withValue(HarnessContext.current.with(\.permissions, ledger)) {
            await HarnessContext.$current.withValue(
                HarnessContext.current.with(\.device, DeviceSettings(speechAuthorization: .denied))
            ) {
                #expect(SFSpeechRecognizer.authorizationStatus() == .denied)
                let status = await withCheckedContinuation { done in
                    SFSpeechRecognizer.requestAuthorization { done.resume(returning: $0) }
                }
                #expect(status == .denied)
                let (results, error) = await Self.results(
                    [Float](repeating: 0, count: 16_000), engine: ScriptedEngine(script: EngineScript(words: [])))
                #expect(results.isEmpty)
                #expect((error as NSError?)?.code == 1700)
            }
        }
    }
}
