@_spi(Harness) import AVFAudio
import CoreMedia
import EngineCore
import Foundation
import SpeechCore
import Testing
import VirtualDevice

@_spi(Harness) @testable import SpeechReference

@Suite("Analyzer input, formats and the volatile range", .isolatedResources)
struct AnalyzerInputTests {
    /// SDK 27's members say the input's length and format without reading its buffer.
    @Test func anInputSaysItsDurationAndFormat() {
        let input = AnalyzerInput(buffer: Fixture.buffer(seconds: 0.25), bufferStartTime: Fixture.seconds(1))
        #expect(input.bufferDuration == CMTime(value: 4_000, timescale: 16_000))
        #expect(input.bufferFormat == Fixture.format)
    }

    /// `buffer` is the buffer given on a 26 device; on 27 (the default) each read is a new copy
    /// with the same samples, so changing it changes nothing the analyzer hears.
    @Test(arguments: OSRelease.allCases)
    @available(*, deprecated, message: "reads the deprecated AnalyzerInput.buffer on purpose")
    func bufferIsACopyOn27AndTheGivenBufferOn26(release: OSRelease) throws {
        let given = Fixture.buffer(seconds: 0.1)
        let input = AnalyzerInput(buffer: given)
        HarnessContext.$current.withValue(HarnessContext.current.with(\.device, DeviceSettings(osRelease: release))) {
            let first = input.buffer, second = input.buffer
            #expect((first === given) == (release == .release26))
            #expect((first === second) == (release == .release26))
            #expect(first.pcmBuffer == given.pcmBuffer && first.format == given.format)
            first.floatChannelData?[0][0] = 0.75
            #expect((given.floatChannelData?[0][0] == 0.75) == (release == .release26))
        }
    }

    /// SDK 27: audio in ready sample buffers is analyzed at their presentation times; one that
    /// goes back in time is audioDisordered, as any input is.
    @Test func readySampleBuffersAreAnalyzedAtTheirTimes() async throws {
        func ready(_ seconds: Double, at start: Double) -> CMReadySampleBuffer<CMReadOnlyDataBlockBuffer> {
            let pcm = Fixture.buffer(seconds: seconds)
            return CMReadySampleBuffer(
                audioDataBuffer: CMReadOnlyDataBlockBuffer(pcm.layoutBytes),
                formatDescription: pcm.format.formatDescription,
                sampleCount: Int(pcm.frameLength), presentationTimeStamp: Fixture.seconds(start))
        }
        let input = AnalyzerInput(buffer: ready(0.5, at: 1))
        #expect(input.bufferStartTime == Fixture.seconds(1) && input.bufferDuration == Fixture.seconds(0.5))
        #expect(input.storedBuffer.pcmBuffer == Fixture.buffer(seconds: 0.5).pcmBuffer)
        let analyzer = SpeechAnalyzer(modules: [Fixture.transcriber()])
        let end = try await analyzer.analyzeSequence(
            Fixture.stream([AnalyzerInput(buffer: ready(0.5, at: 0)), input]))
        #expect(end == Fixture.seconds(1.5))
        let disordered = SpeechAnalyzer(modules: [Fixture.transcriber()])
        await #expect(throws: SFSpeechError(.audioDisordered)) {
            _ = try await disordered.analyzeSequence(
                Fixture.stream([AnalyzerInput(buffer: ready(0.5, at: 1)), AnalyzerInput(buffer: ready(0.5, at: 1.2))]))
        }
    }

    /// A ready sample buffer that is not linear PCM (here AAC's format id) does not stop the
    /// program: the session ends with unexpectedAudioFormat when the analyzer reaches it, and the
    /// input before it was analyzed.
    @Test func aReadySampleBufferThatIsNotPCMFailsTheSession() async throws {
        var aac = Fixture.buffer(seconds: 0.5).format.streamDescription.pointee
        aac.mFormatID = 0x6161_6320  // 'aac '
        let ready = CMReadySampleBuffer(
            audioDataBuffer: CMReadOnlyDataBlockBuffer(Data(count: 512)),
            formatDescription: try CMAudioFormatDescription(audioStreamBasicDescription: aac),
            sampleCount: 1024, presentationTimeStamp: Fixture.seconds(0.5))
        let input = AnalyzerInput(buffer: ready)
        #expect(input.bufferStartTime == Fixture.seconds(0.5) && input.bufferFormat.sampleRate == aac.mSampleRate)
        let transcriber = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let error = await #expect(throws: SFSpeechError.self) {
            _ = try await analyzer.analyzeSequence(
                Fixture.stream([AnalyzerInput(buffer: Fixture.buffer(seconds: 0.5), bufferStartTime: .zero), input]))
        }
        #expect(error?.code == .unexpectedAudioFormat, "\(String(describing: error))")
        #expect("\(String(describing: error))".contains("linear PCM"))
    }

    @Test func skippingAheadIsAllowed() async throws {
        let transcriber = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let inputs = [
            AnalyzerInput(buffer: Fixture.buffer(seconds: 0.5), bufferStartTime: .zero),
            AnalyzerInput(buffer: Fixture.buffer(seconds: 0.5), bufferStartTime: Fixture.seconds(1.0)),
            AnalyzerInput(buffer: Fixture.buffer(seconds: 0.5)),
        ]
        let last = try await analyzer.analyzeSequence(Fixture.stream(inputs))
        #expect(last == Fixture.seconds(2))
        await analyzer.cancelAndFinishNow()
    }

    @Test(arguments: [0.3, 0.0]) func overlappingOrEarlierInputIsAudioDisordered(start: Double) async throws {
        let transcriber = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let inputs = [
            AnalyzerInput(buffer: Fixture.buffer(seconds: 0.5), bufferStartTime: .zero),
            AnalyzerInput(buffer: Fixture.buffer(seconds: 0.5), bufferStartTime: Fixture.seconds(start)),
        ]
        await #expect(throws: SFSpeechError(.audioDisordered)) {
            try await analyzer.analyzeSequence(Fixture.stream(inputs))
        }
        let results = await collect(transcriber.results)
        #expect((results.error as? SFSpeechError)?.code == .audioDisordered)
    }

    @Test func timesInAnotherTimescaleAreExact() async throws {
        let analyzer = SpeechAnalyzer(modules: [Fixture.transcriber()])
        // 0.5 s written as 500/1000, then a buffer right after written as 8000/16000.
        let inputs = [
            AnalyzerInput(buffer: Fixture.buffer(seconds: 0.5), bufferStartTime: CMTime(value: 0, timescale: 1000)),
            AnalyzerInput(
                buffer: Fixture.buffer(seconds: 0.5), bufferStartTime: CMTime(value: 8_000, timescale: 16_000)),
        ]
        let last = try await analyzer.analyzeSequence(Fixture.stream(inputs))
        #expect(last == CMTime(value: 1, timescale: 1))
        await analyzer.cancelAndFinishNow()
    }

    @Test func wrongFormatIsUnexpectedAudioFormatAndNeverResampled() async throws {
        let transcriber = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let cd = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 1)!
        await #expect(throws: SFSpeechError(.unexpectedAudioFormat)) {
            try await analyzer.analyzeSequence(
                Fixture.stream([AnalyzerInput(buffer: Fixture.buffer(seconds: 0.1, format: cd))]))
        }
        #expect(await analyzer.volatileRange == nil)
    }

    @Test func int16InputIsAcceptedWhenTheEngineListsIt() async throws {
        let analyzer = SpeechAnalyzer(modules: [Fixture.transcriber()])
        let int16 = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: false)!
        let buffer = AVAudioPCMBuffer(pcmFormat: int16, frameCapacity: 1600)!
        buffer.frameLength = 1600
        let last = try await analyzer.analyzeSequence(Fixture.stream([AnalyzerInput(buffer: buffer)]))
        #expect(last == Fixture.seconds(0.1))
        await analyzer.cancelAndFinishNow()
    }

    @Test func bestAvailableAudioFormat() async throws {
        let transcriber = Fixture.transcriber()
        let format = try #require(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]))
        #expect(format.sampleRate == 16_000 && format.channelCount == 1 && format.commonFormat == .pcmFormatFloat32)
        let natural = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: true)!
        #expect(
            await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber], considering: natural) != nil)
        // Missing assets: nil.
        let store = AssetStore(
            root: FileManager.default.temporaryDirectory.appendingPathComponent("assets-\(UUID().uuidString)"))
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.assets, store)) {
            let needsAssets = ScriptedEngine(script: EngineScript(words: []), requiresAssets: true)
            let uninstalled = SpeechTranscriber(
                locale: Locale(identifier: "en-US"), preset: .transcription, engine: needsAssets)
            #expect(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [uninstalled]) == nil)
            try await AssetInventory.assetInstallationRequest(supporting: [uninstalled])?.downloadAndInstall()
            #expect(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [uninstalled]) != nil)
        }
    }

    @Test func volatileRangeIsNilBeforeInputAndItsHandlerReportsChanges() async throws {
        let events = EventLog<(CMTimeRange, Bool, Bool)>()
        let transcriber = Fixture.transcriber(Fixture.engine(endpoint: nil))
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        #expect(await analyzer.volatileRange == nil)
        await analyzer.setVolatileRangeChangedHandler { range, start, end in events.append((range, start, end)) }
        _ = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 3)))
        try await analyzer.finalize(through: Fixture.seconds(0.2))
        let log = events.items
        #expect(log.count == 4)
        #expect(log[0].0 == TimeRange(start: .zero, end: Fixture.seconds(0.1)) && log[0].1 && log[0].2)
        #expect(log[1].0.end == Fixture.seconds(0.2) && !log[1].1 && log[1].2)
        #expect(log[3].0 == TimeRange(start: Fixture.seconds(0.2), end: Fixture.seconds(0.3)) && log[3].1 && !log[3].2)
        // The start never moves backwards.
        for (a, b) in zip(log, log.dropFirst()) { #expect(a.0.start <= b.0.start) }
        await analyzer.cancelAndFinishNow()
    }

    @Test func cancelAnalysisDropsPendingResultsAndMovesTheRange() async throws {
        let transcriber = Fixture.transcriber(Fixture.engine(endpoint: nil))
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        _ = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 8)))
        #expect(transcriber.channel.broadcast.published.last?.plain == "one")
        await analyzer.cancelAnalysis(before: Fixture.seconds(0.65))
        try await analyzer.finalize(through: Fixture.seconds(0.65))
        #expect(try #require(await analyzer.volatileRange).start >= Fixture.seconds(0.65))
        _ = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 12)))
        try await analyzer.finalizeAndFinish(through: Fixture.seconds(2))
        let results = await collect(transcriber.results)
        // "one" was cancelled; its volatile text was revoked by an empty result.
        #expect(results.elements.filter(\.isFinal).map(\.plain).filter { !$0.isEmpty } == ["two three"])
        #expect(results.elements.contains { $0.plain.isEmpty })
    }
}
