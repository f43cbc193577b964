import AVFAudio
import CoreMedia
import Foundation
import SpeechCore
import Testing

@testable import SpeechReference

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
            #expect(input.buffer.format == Fixture.format)
            #expect(input.bufferStartTime == CMTime(value: expected, timescale: 16_000))
            expected += Int64(input.buffer.frameLength)
        }
        #expect(abs(expected - 16_000) <= 2)
    }

    @Test func aJumpInTimeStartsANewRunAtThatTime() throws {
        let converter = AnalyzerInputConverter(analyzerFormat: Fixture.format)
        let first = try converter.convert(Fixture.buffer(seconds: 0.1), at: .zero)
        let jumped = try converter.convert(Fixture.buffer(seconds: 0.1), at: Fixture.seconds(5))
        #expect(first.first?.bufferStartTime == .zero)
        #expect(jumped.first?.bufferStartTime == Fixture.seconds(5))
        // Same format as the analyzer: passed through without conversion delay.
        #expect(first.first?.buffer.frameLength == 1_600)
    }

    @Test func noFormatPassesBuffersThrough() throws {
        let converter = AnalyzerInputConverter(analyzerFormat: nil)
        let buffer = Fixture.buffer(seconds: 0.1)
        let out = try converter.convert(buffer, at: nil)
        #expect(out.count == 1 && out[0].buffer === buffer && out[0].bufferStartTime == nil)
        // With a format, a matching buffer is copied (callers reuse theirs).
        let copying = AnalyzerInputConverter(analyzerFormat: Fixture.format)
        #expect(try copying.convert(buffer, at: nil)[0].buffer !== buffer)
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
