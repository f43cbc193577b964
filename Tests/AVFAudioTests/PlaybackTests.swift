@_spi(Harness) import AVFAudio
import AudioIO
import Foundation
import SpeechCore
import TestSupport
import Testing
import VirtualDevice

/// Player nodes through the engine's output into the virtual speaker, in fast pacing (cycles
/// follow each other at once while something plays), so no test waits on a clock.
@Suite("AVAudioPlayerNode and the virtual speaker")
struct PlaybackTests {
    static let fast = DeviceSettings(microphone: MicrophoneSettings(source: .none, pacing: .fast))

    /// Plays 16 kHz `samples` through a player node connected to the node `destination` picks, as
    /// an app does (attach, connect, start, play, schedule), and stops the engine once they played.
    static func play(
        _ samples: [Float], to destination: (AVAudioEngine) -> AVAudioNode
    ) async throws -> AVAudioEngine {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: destination(engine), format: buffer(samples, rate: 16_000).format)
        try engine.start()
        player.play()
        await player.scheduleBuffer(buffer(samples, rate: 16_000), at: nil)
        engine.stop()
        return engine
    }

    /// A buffer of `samples` at `rate`, mono.
    static func buffer(_ samples: [Float], rate: Double) -> AVAudioPCMBuffer {
        let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 1)!
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(samples.count))!
        try! buffer.replaceFrames(with: PCMBuffer(mono: samples, sampleRate: rate), at: 0)
        return buffer
    }

    @Test func aFilePlayedToTheOutputReachesTheSpeakerSampleForSample() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tone.wav")
        let tone = Signal.sine(frequency: 440, sampleRate: 16_000, seconds: 0.73)
        try AudioFileWriter.writeMono(tone, sampleRate: 16_000, to: path, encoding: .float32)
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.fast)) {
            let engine = AVAudioEngine()
            let file = try AVAudioFile(forReading: URL(fileURLWithPath: path))
            let player = AVAudioPlayerNode()
            engine.attach(player)
            engine.connect(player, to: engine.outputNode, format: file.processingFormat)
            try engine.start()
            let finished = Task { await player.scheduleFile(file, at: nil, completionCallbackType: .dataPlayedBack) }
            player.play()
            #expect(await finished.value == .dataPlayedBack)
            #expect(player.isPlaying)
            let played = engine.speaker.playedChannels
            #expect(engine.speaker.format == AudioFormat(sampleRate: 16_000, channelCount: 1))
            #expect(Array(played[0].prefix(tone.count)) == tone)
            // The last 10 ms cycle is filled with silence after the file.
            #expect(played[0].count % 160 == 0 && played[0].dropFirst(tone.count).allSatisfy { $0 == 0 })
            // The player's timeline: the last cycle started where the speaker's audio minus one cycle ends.
            let nodeTime = try #require(player.lastRenderTime)
            let playerTime = try #require(player.playerTime(forNodeTime: nodeTime))
            #expect(playerTime.sampleTime == AVAudioFramePosition(played[0].count - 160))
            #expect(player.nodeTime(forPlayerTime: playerTime)?.sampleTime == nodeTime.sampleTime)
            player.stop()
            #expect(!player.isPlaying && player.playerTime(forNodeTime: nodeTime) == nil)
            engine.stop()
            #expect(player.lastRenderTime == nil)
        }
    }

    @Test func throughTheMixerAudioIsResampledToTheOutputAndFillsItsChannels() async throws {
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.fast)) {
            let tone = Signal.sine(frequency: 300, sampleRate: 16_000, seconds: 0.5)
            let engine = try await Self.play(tone, to: { $0.mainMixerNode })
            let played = engine.speaker.playedChannels
            #expect(engine.speaker.format == AudioFormat(sampleRate: 48_000, channelCount: 2))
            #expect(played.count == 2 && played[0] == played[1])
            // Three times the frames, the same loudness (a 300 Hz sine's RMS is 1/√2 of its peak).
            #expect(abs(played[0].count - 3 * tone.count) <= 480)
            #expect(abs(Signal.rms(played[0].prefix(3 * tone.count)) - Signal.rms(tone[...])) < 0.02)
        }
    }

    @Test func stopAnswersWhatWasNotPlayedAndResetsTheTimeline() throws {
        try HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.fast)) {
            let engine = AVAudioEngine()
            let player = AVAudioPlayerNode()
            let answered = Locked<[AVAudioPlayerNodeCompletionCallbackType]>([])
            engine.attach(player)
            engine.connect(player, to: engine.outputNode, format: Self.buffer([0], rate: 16_000).format)
            try engine.start()
            // Scheduled but never played: the player is not started.
            player.scheduleBuffer(
                Self.buffer([Float](repeating: 0.5, count: 1600), rate: 16_000), completionCallbackType: .dataRendered
            ) { type in answered.withLock { $0.append(type) } }
            #expect(answered.withLock { $0 }.isEmpty)
            player.stop()
            #expect(answered.withLock { $0 } == [.dataRendered])
            #expect(engine.speaker.playedFrames == 0)
            engine.stop()
        }
    }

    @Test func aBufferThatInterruptsReplacesWhatIsScheduled() async throws {
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.fast)) {
            let engine = AVAudioEngine()
            let player = AVAudioPlayerNode()
            let first = Locked(false)
            engine.attach(player)
            engine.connect(player, to: engine.outputNode, format: Self.buffer([0], rate: 16_000).format)
            try engine.start()
            player.scheduleBuffer(Self.buffer([Float](repeating: 0.25, count: 1600), rate: 16_000)) {
                first.withLock { $0 = true }
            }
            player.play()
            await player.scheduleBuffer(
                Self.buffer([Float](repeating: -0.5, count: 320), rate: 16_000), at: nil, options: .interrupts)
            engine.stop()
            #expect(first.withLock { $0 })
            // Whatever of the first buffer played before the interruption, the second follows it whole.
            let played = engine.speaker.playedChannels[0]
            #expect(played.filter { $0 == -0.5 }.count == 320)
            #expect(played.last { $0 != 0 } == -0.5)
        }
    }

    @Test func aPlayerStartedAtALaterTimeWaitsInSilenceOnTheOutputsClock() async throws {
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.fast)) {
            let engine = AVAudioEngine()
            let player = AVAudioPlayerNode()
            let tone = [Float](repeating: 0.5, count: 480)
            engine.attach(player)
            engine.connect(player, to: engine.outputNode, format: Self.buffer(tone, rate: 16_000).format)
            try engine.start()
            let done = Task { await player.scheduleBuffer(Self.buffer(tone, rate: 16_000), at: nil) }
            // The output has not played yet: its clock is at 0, so this starts 0.1 s from now.
            player.play(at: AVAudioTime(sampleTime: 1_600, atRate: 16_000))
            await done.value
            engine.stop()
            let played = engine.speaker.playedChannels[0]
            #expect(played.prefix(1_600).allSatisfy { $0 == 0 })
            #expect(Array(played.dropFirst(1_600).prefix(480)) == tone)
        }
    }

    @Test func theSpeakerWritesWhatItPlayedToItsFile() async throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("speaker.wav")
        var device = Self.fast
        device.speakerOutput = output
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
            let tone = Signal.sine(frequency: 500, sampleRate: 16_000, seconds: 0.2)
            let engine = try await Self.play(tone, to: { $0.outputNode })
            let reader = try AudioFileReader(path: output)
            let written = try #require(try reader.read(maxFrames: 1 << 20)).floatChannels[0]
            #expect(written == engine.speaker.playedChannels[0])
            #expect(Array(written.prefix(tone.count)) == tone)
        }
    }
}
