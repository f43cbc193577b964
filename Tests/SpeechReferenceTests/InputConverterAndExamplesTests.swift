import AVFAudio
import CoreMedia
import Foundation
import SpeechCore
import Testing

@_spi(Harness) @testable import SpeechReference

@Suite("AnalyzerInputConverter", .isolatedResources)
struct AnalyzerInputConverterTests {
    @Test func convertsToTheAnalyzerFormatWithContinuousExactTimes() throws {
        let cd = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!
        let converter = AnalyzerInputConverter(analyzerFormat: Fixture.format)
        var inputs: [AnalyzerInput] = []
        for _ in 0..<10 { inputs += try converter.convert(Fixture.buffer(seconds: 0.1, format: cd), at: nil) }
        inputs += try converter.flush()
        var expected: Int64 = 0
        for input in inputs {
            #expect(input.bufferFormat == Fixture.format)
            #expect(input.bufferStartTime == CMTime(value: expected, timescale: 16_000))
            expected += Int64(input.storedBuffer.frameLength)
        }
        #expect(abs(expected - 16_000) <= 2)
    }

    @Test func aJumpInTimeStartsANewRunAtThatTime() throws {
        let converter = AnalyzerInputConverter(analyzerFormat: Fixture.format)
        let first = try converter.convert(Fixture.buffer(seconds: 0.1), at: AVAudioTime(sampleTime: 0, atRate: 16_000))
        let jumped = try converter.convert(
            Fixture.buffer(seconds: 0.1), at: AVAudioTime(sampleTime: 80_000, atRate: 16_000))
        #expect(first.first?.bufferStartTime == .zero)
        #expect(jumped.first?.bufferStartTime == Fixture.seconds(5))
        // Same format as the analyzer: passed through without conversion delay.
        #expect(first.first?.storedBuffer.frameLength == 1_600)
    }

    /// A buffer already in the analyzer's format is copied: callers reuse theirs.
    @Test func aMatchingBufferIsCopied() throws {
        let buffer = Fixture.buffer(seconds: 0.1)
        let out = try AnalyzerInputConverter(analyzerFormat: Fixture.format).convert(buffer, at: nil)
        #expect(
            out.count == 1 && out[0].storedBuffer !== buffer && out[0].storedBuffer.frameLength == buffer.frameLength)
        #expect(out[0].bufferStartTime == .zero)
    }

    /// The handler sees every AVAudioConverter made inside: one per input format, none when the
    /// input is already in the analyzer's format.
    @Test func theHandlerConfiguresEveryInternalConverter() throws {
        let seen = EventLog<AVAudioConverter>()
        let converter = AnalyzerInputConverter(analyzerFormat: Fixture.format) { seen.append($0) }
        _ = try converter.convert(Fixture.buffer(seconds: 0.1), at: nil)
        #expect(seen.items.isEmpty)
        let cd = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!
        let dat = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        _ = try converter.convert(Fixture.buffer(seconds: 0.1, format: cd), at: nil)
        _ = try converter.convert(Fixture.buffer(seconds: 0.1, format: cd), at: nil)
        _ = try converter.convert(Fixture.buffer(seconds: 0.1, format: dat), at: nil)
        #expect(seen.items.map { $0.inputFormat.sampleRate } == [44_100, 48_000])
        #expect(seen.items.allSatisfy { $0.outputFormat == Fixture.format })
    }

    /// An AVAudioTime places the buffer by its sample time, at its own rate; one with a host time
    /// only cannot be placed.
    @Test func anAudioTimePlacesTheBufferBySampleTime() throws {
        let converter = AnalyzerInputConverter(analyzerFormat: Fixture.format)
        let placed = try converter.convert(
            Fixture.buffer(seconds: 0.1), at: AVAudioTime(sampleTime: 240_000, atRate: 48_000))
        #expect(placed.first?.bufferStartTime == Fixture.seconds(5))
        let next = try converter.convert(Fixture.buffer(seconds: 0.1), at: nil)
        #expect(next.first?.bufferStartTime == Fixture.seconds(5.1))
        #expect(throws: SFSpeechError(.missingParameter)) {
            try converter.convert(Fixture.buffer(seconds: 0.1), at: AVAudioTime(hostTime: 1_000))
        }
    }

    @Test func aConverterForModulesUsesTheirBestFormat() async throws {
        let transcriber = Fixture.transcriber()
        let converter = try await AnalyzerInputConverter.converter(compatibleWith: [transcriber])
        let best = try #require(await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]))
        #expect(converter.analyzerFormat == best)
    }
}

/// The Apple-style example programs compile (they are targets of this package) and transcribe a
/// real corpus-style file on the scripted engine.
@Suite("Apple-style examples", .isolatedResources)
struct ExampleProgramTests {
    @Test(
        arguments: ["example-perform-analysis", "example-file-transcription"],
        [(44_100.0, "real-looking 44.1 kHz file"), (16_000.0, "16 kHz file")])
    func examplePrintsTheScriptedTranscript(program: String, rate: (Double, String)) throws {
        guard PackageProgram.isBuilt(program) else {
            Issue.record("\(program) was not built; run swift build first")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let audio = directory.appendingPathComponent("clip.wav")
        let format = AVAudioFormat(standardFormatWithSampleRate: rate.0, channels: 1)!
        let file = try AVAudioFile(forWriting: audio, settings: [AVSampleRateKey: rate.0, AVNumberOfChannelsKey: 1])
        try file.write(from: Fixture.buffer(seconds: 2.5, format: format))
        file.close()
        let script = directory.appendingPathComponent("script.json")
        try Data(
            #"{"words":[{"text":"open","start":0.3,"end":0.7},{"text":"the","start":0.8,"end":0.9},{"text":"door","start":1.0,"end":1.4}]}"#
                .utf8
        )
        .write(to: script)
        let (status, output) = try PackageProgram.run(
            program, [audio.path],
            environment: [
                "SPEECH_HARNESS_ENGINE": "scripted", "SPEECH_HARNESS_SCRIPT": script.path,
                "SPEECH_HARNESS_ASSETS": directory.appendingPathComponent("assets").path, "LANG": "en_US.UTF-8",
            ])
        #expect(status == 0, "\(output)")
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "open the door")
    }
}
