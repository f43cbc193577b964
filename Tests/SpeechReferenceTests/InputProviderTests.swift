import AVFAudio
import CoreMedia
import Foundation
import SpeechCore
import Testing

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

    @Test func assetProviderConvertsTheFileWithExactTimes() async throws {
        let (directory, url) = try makeFile(seconds: 1, rate: 8_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let provider = try AssetInputSequenceProvider(url: url, analyzerFormat: Fixture.format)
        var next: Int64 = 0
        for try await input in try provider.analyzerInputs {
            #expect(input.bufferFormat == Fixture.format)
            #expect(input.bufferStartTime == CMTime(value: next, timescale: 16_000))
            next += Int64(input.storedBuffer.frameLength)
        }
        #expect(abs(next - 16_000) <= 2)
    }

    /// A file played "live" on a virtual clock: each chunk arrives exactly when its audio has been
    /// recorded, and the analyzer transcribes the paced stream. Nothing sleeps.
    @Test func captureProviderPacesChunksByTheClock() async throws {
        let (directory, url) = try makeFile(seconds: 2, rate: 16_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = VirtualClock()
        let provider = try CaptureInputSequenceProvider(
            pacedFile: url, analyzerFormat: Fixture.format,
            chunkDuration: .milliseconds(250), clock: clock)
        let arrivals = EventLog<(CMTime, Duration)>()
        let transcriber = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let start = clock.now
        let tapped = provider.analyzerInputs.map { input in
            let end =
                (input.bufferStartTime ?? .zero)
                + CMTime(sampleIndex: Int64(input.storedBuffer.frameLength), sampleRate: 16_000)
            arrivals.append((end, start.duration(to: clock.now)))
            return input
        }
        try await analyzer.start(inputSequence: tapped)
        let finishing = Task { try await analyzer.finalizeAndFinishThroughEndOfInput() }
        for step in 1...8 {
            while clock.sleeperCount < 1 { await Task.yield() }
            #expect(arrivals.items.count == step - 1, "chunk \(step) arrived before its time")
            clock.advance(by: .milliseconds(250))
            while arrivals.items.count < step { await Task.yield() }
        }
        try await finishing.value
        for (end, at) in arrivals.items {
            #expect(Duration.nanoseconds(Int64((end.seconds * 1e9).rounded())) == at)
        }
        let results = await collect(transcriber.results)
        #expect(results.elements.filter(\.isFinal).map(\.plain).joined(separator: " ") == "one two three")
    }
}
