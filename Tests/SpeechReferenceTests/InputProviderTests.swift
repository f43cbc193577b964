import AVFAudio
import AVFoundation
import CoreMedia
import Foundation
import SpeechCore
import Testing
import VirtualDevice

@_spi(Harness) @testable import SpeechReference

@Suite("Input sequence providers", .isolatedResources)
struct InputProviderTests {
    func makeFile(seconds: Double, rate: Double) throws -> (URL, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("providers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("in.wav")
        let file = try AVAudioFile(forWriting: url, settings: [AVSampleRateKey: rate, AVNumberOfChannelsKey: 1])
        try file.write(
            from: Fixture.buffer(
                seconds: seconds, format: AVAudioFormat(standardFormatWithSampleRate: rate, channels: 1)!))
        file.close()
        return (directory, url)
    }

    /// SDK 27's asset provider: the first audio track, in the best format the modules share, with
    /// exact times; each read of `analyzerInputs` is a new sequence over the whole track.
    @Test func assetProviderConvertsTheTrackWithExactTimes() async throws {
        let (directory, url) = try makeFile(seconds: 1, rate: 8_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let asset = AVURLAsset(url: url)
        let transcriber = Fixture.transcriber()
        let provider = try await AssetInputSequenceProvider.provider(from: asset, compatibleWith: [transcriber])
        let best = try #require(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]))
        for _ in 0..<2 {
            var next: Int64 = 0
            for try await input in provider.analyzerInputs {
                #expect(input.bufferFormat == best)
                #expect(input.bufferStartTime == CMTime(value: next, timescale: CMTimeScale(best.sampleRate)))
                next += Int64(input.storedBuffer.frameLength)
            }
            #expect(abs(next - Int64(best.sampleRate)) <= 2)
        }
        let tracks = try await asset.loadTracks(withMediaType: .audio)
        #expect(
            tracks.count == 1 && tracks[0].trackID == 1 && tracks[0].mediaType == .audio && tracks[0].asset === asset)
        #expect(try await asset.loadTracks(withMediaType: .video).isEmpty)
    }

    /// A file that cannot be read: loading its tracks throws an error in AVFoundation's domain
    /// naming it; a provider made directly reads nothing until its sequence is iterated, which
    /// then throws.
    @Test func anUnreadableAssetFailsWhereItIsRead() async throws {
        let (directory, url) = try makeFile(seconds: 0.5, rate: 16_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let track = try #require(try await AVURLAsset(url: url).loadTracks(withMediaType: .audio).first)
        let missing = AVURLAsset(url: directory.appendingPathComponent("gone.wav"))
        do {
            _ = try await missing.loadTracks(withMediaType: .audio)
            Issue.record("a missing file loaded its tracks")
        } catch let error as NSError {
            #expect(error.domain == AVFoundationErrorDomain && error.localizedDescription.contains("gone.wav"))
        }
        let provider = AssetInputSequenceProvider(asset: missing, track: track, analyzerFormat: Fixture.format)
        await #expect(throws: (any Error).self) {
            for try await _ in provider.analyzerInputs {}
        }
    }

    /// The device a capture test runs on: `url` played by the virtual microphone in fast pacing
    /// (then silence), microphone access granted.
    static func device(playing url: URL) -> DeviceSettings {
        DeviceSettings(
            microphone: MicrophoneSettings(source: .file(path: url.path), pacing: .fast),
            recordPermission: .authorized, speechAuthorization: .authorized)
    }

    /// SDK 27's capture provider with a session of its own, as the SpeechAnalyzer overview shows it:
    /// the session started, audio analyzed, the session stopped; the sequence stays open after
    /// `stopRunning()`, so the analysis is finalized and finished explicitly.
    @Test func captureProviderWithASessionFeedsTheAnalyzer() async throws {
        let (directory, url) = try makeFile(seconds: 2, rate: 48_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Fixture.onDevice(Self.device(playing: url)) { engine in
            let device = try #require(AVCaptureDevice.default(for: .audio))
            let transcriber = Fixture.transcriber(engine)
            let provider = try await CaptureInputSequenceProvider.providerWithSession(
                from: device, compatibleWith: [transcriber])
            let session = provider.captureSession
            #expect(session.outputs.count == 1 && session.outputs[0] === provider.captureAudioDataOutput)
            #expect(session.inputs.count == 1 && provider.captureAudioDataOutput.connection(with: .audio) != nil)
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            try await analyzer.start(inputSequence: provider.analyzerInputs)
            session.startRunning()
            #expect(session.isRunning)
            // finalize(through:) returns once that audio has been consumed: 2.5 s were captured.
            try await analyzer.finalize(through: Fixture.seconds(2.5))
            session.stopRunning()
            #expect(!session.isRunning)
            try await analyzer.finalize(through: nil)
            await analyzer.cancelAndFinishNow()
            let results = await collect(transcriber.results)
            #expect(results.elements.filter(\.isFinal).map(\.plain).joined(separator: " ") == "one two three")
        }
    }

    /// Each read of `analyzerInputs` carries the audio captured from then on, in the analyzer's
    /// format with continuous times; the sequences end when the output goes away (session and
    /// provider let go of), not when the session stops.
    @Test func eachSequenceStartsNowAndEndsWithTheOutput() async throws {
        let (directory, url) = try makeFile(seconds: 1, rate: 48_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Fixture.onDevice(Self.device(playing: url)) { engine in
            let device = try #require(AVCaptureDevice.default(for: .audio))
            var provider: CaptureInputSequenceProvider? = try await CaptureInputSequenceProvider.providerWithSession(
                from: device, compatibleWith: [Fixture.transcriber(engine)])
            var first = provider!.analyzerInputs.makeAsyncIterator()
            provider!.captureSession.startRunning()
            var end = CMTime.zero
            while end < Fixture.seconds(1.5) {
                let input = try #require(try await first.next())
                #expect(input.bufferFormat == Fixture.format && input.bufferStartTime == end)
                end = try #require(input.bufferStartTime) + input.bufferDuration
            }
            let later = provider!.analyzerInputs
            var second = later.makeAsyncIterator()
            let start = try #require(try await second.next()?.bufferStartTime)
            #expect(start >= end)
            provider!.captureSession.stopRunning()
            provider = nil
            // Both sequences end: what was captured before the output went away, then the end.
            while try await first.next() != nil {}
            while try await second.next() != nil {}
        }
    }

    /// On a device whose audio system cannot be set up, the provider that configures the audio
    /// session throws `cannotConfigureAudioSystem`; one for the app's own session does not, as it
    /// configures nothing. Without microphone access the device cannot be opened either.
    @Test func anUnconfigurableAudioSystemIsCannotConfigureAudioSystem() async throws {
        let (directory, url) = try makeFile(seconds: 1, rate: 48_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        var unconfigurable = Self.device(playing: url)
        unconfigurable.audioSessionConfigurable = false
        var denied = Self.device(playing: url)
        denied.recordPermission = .denied
        for device in [unconfigurable, denied] {
            try await HarnessContext.$current.withValue(HarnessContext.current.with(\.permissions, PermissionLedger()))
            {
                try await Fixture.onDevice(device) { engine in
                    let microphone = try #require(AVCaptureDevice.default(for: .audio))
                    await #expect(throws: SFSpeechError(.cannotConfigureAudioSystem)) {
                        _ = try await CaptureInputSequenceProvider.providerWithSession(
                            from: microphone, compatibleWith: [Fixture.transcriber(engine)])
                    }
                    _ = try await CaptureInputSequenceProvider.provider(
                        from: microphone, in: AVCaptureSession(), compatibleWith: [Fixture.transcriber(engine)])
                }
            }
        }
    }

    /// With the app's own session the provider changes nothing: the app adds its output.
    @Test func aProviderForTheAppsSessionLeavesItAlone() async throws {
        let (directory, url) = try makeFile(seconds: 1, rate: 48_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Fixture.onDevice(Self.device(playing: url)) { engine in
            let device = try #require(AVCaptureDevice.default(for: .audio))
            let session = AVCaptureSession()
            let provider = try await CaptureInputSequenceProvider.provider(
                from: device, in: session, compatibleWith: [Fixture.transcriber(engine)])
            #expect(provider.captureSession === session && session.inputs.isEmpty && session.outputs.isEmpty)
            #expect(provider.captureAudioDataOutput.connections.isEmpty)
            let int16 = try #require(
                AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: true))
            let direct = try CaptureInputSequenceProvider(session: session, analyzerFormat: int16, priority: nil)
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(direct.captureAudioDataOutput)
            #expect(!session.canAddOutput(provider.captureAudioDataOutput))
            var inputs = direct.analyzerInputs.makeAsyncIterator()
            session.startRunning()
            let input = try #require(try await inputs.next())
            #expect(input.bufferFormat == int16 && input.bufferStartTime == .zero)
            session.stopRunning()
        }
    }
}
