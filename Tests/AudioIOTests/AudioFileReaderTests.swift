import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import AudioIO

@Suite("Reading and writing audio files")
struct AudioFileReaderTests {
    @Test(arguments: [AudioFileWriter.Container.wav, .flac, .ogg])
    func roundTripThroughContainers(container: AudioFileWriter.Container) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("tone.\(container.rawValue)")
        let tone = Signal.sine(frequency: 440, sampleRate: 16_000, seconds: 0.5)
        let writer = try AudioFileWriter(path: path, format: .speech(sampleRate: 16_000), container: container)
        try writer.write(mono: tone)
        writer.close()

        let reader = try AudioFileReader(path: path)
        #expect(reader.info.format.sampleRate == 16_000)
        #expect(reader.info.format.channelCount == 1)
        let (samples, rate) = try AudioFileReader.readMono(path: path)
        #expect(rate == 16_000)
        #expect(samples.count == tone.count)
        // Lossless containers keep samples to 16-bit precision; Vorbis keeps the level.
        let tolerance: Float = container == .ogg ? 0.2 : 1.0 / 32768 + 1e-6
        if container != .ogg {
            #expect(zip(samples, tone).allSatisfy { abs($0 - $1) <= tolerance })
        }
        #expect(abs(Signal.rms(samples[...]) - Signal.rms(tone[...])) < 0.02)
    }

    @Test func rawAudioNeedsAStatedFormat() throws {
        let dir = try TemporaryDirectory()
        let samples: [Int16] = [0, 1000, -1000, 32767, -32768, 5]
        let bytes = samples.flatMap { v -> [UInt8] in
            let u = UInt16(bitPattern: v)
            return [UInt8(u & 0xff), UInt8(u >> 8)]
        }
        let path = try dir.write("audio.raw", bytes: bytes)
        #expect(throws: AudioIOError.self) { try AudioFileReader(path: path) }
        let reader = try AudioFileReader(path: path, raw: RawAudioFormat(sampleRate: 8_000))
        let buffer = try #require(try reader.read(maxFrames: 100))
        #expect(buffer.int16Channels[0] == samples)
        #expect(reader.info.format.sampleRate == 8_000)
        #expect(throws: AudioIOError.invalidFormat(path: path, reason: "raw format 0 Hz, 1 channels")) {
            try AudioFileReader(path: path, raw: RawAudioFormat(sampleRate: 0))
        }
    }

    @Test func stereoIsAveragedToMono() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("stereo.wav")
        let writer = try AudioFileWriter(
            path: path, format: AudioFormat(sampleRate: 16_000, channelCount: 2), encoding: .float32)
        try writer.write(
            PCMBuffer(
                format: AudioFormat(sampleRate: 16_000, channelCount: 2),
                channels: [[0.5, 0.25, -1], [0.25, 0.25, 1]] as [[Float]]))
        writer.close()
        let (mono, _) = try AudioFileReader.readMono(path: path)
        #expect(mono == [0.375, 0.25, 0])
    }

    // MARK: Error paths: each names the file and the problem.

    @Test func missingFile() {
        #expect(throws: AudioIOError.fileNotFound(path: "/nonexistent/x.wav")) {
            try AudioFileReader(path: "/nonexistent/x.wav")
        }
    }

    @Test func zeroByteFile() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("empty.wav", bytes: [])
        #expect(throws: AudioIOError.emptyFile(path: path)) { try AudioFileReader(path: path) }
    }

    @Test func directoryIsUnreadable() throws {
        let dir = try TemporaryDirectory()
        let error = #expect(throws: AudioIOError.self) { try AudioFileReader(path: dir.url.path) }
        guard case .unreadable(let path, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(path == dir.url.path)
    }

    @Test func textFileNamedWav() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("notes.wav", bytes: Array("this is a shopping list, not audio\n".utf8))
        let error = #expect(throws: AudioIOError.self) { try AudioFileReader(path: path) }
        guard case .notAudio(let p, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(p == path)
        #expect(error?.description.contains("notes.wav") == true)
    }

    @Test func truncatedHeader() throws {
        let dir = try TemporaryDirectory()
        let full = try makeWav(in: dir, seconds: 1)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: full)))
        let path = try dir.write("cut-header.wav", bytes: Array(bytes.prefix(30)))
        let error = #expect(throws: AudioIOError.self) { try AudioFileReader(path: path) }
        guard case .truncated(let p, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(p == path)
    }

    @Test func truncatedData() throws {
        let dir = try TemporaryDirectory()
        let full = try makeWav(in: dir, seconds: 1)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: full)))
        let path = try dir.write("cut-data.wav", bytes: Array(bytes.prefix(bytes.count / 2)))
        let error = #expect(throws: AudioIOError.self) { try AudioFileReader(path: path) }
        guard case .truncated(let p, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(p == path)
    }

    @Test func zeroFrames() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("silent-nothing.wav")
        let writer = try AudioFileWriter(path: path, format: .speech(sampleRate: 16_000))
        writer.close()
        #expect(throws: AudioIOError.zeroFrames(path: path)) { try AudioFileReader(path: path) }
    }

    @Test func sixChannelsAreRefusedForMono() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("surround.wav")
        let format = AudioFormat(sampleRate: 16_000, channelCount: 6)
        let writer = try AudioFileWriter(path: path, format: format)
        try writer.write(
            PCMBuffer(format: format, channels: Array(repeating: [Float](repeating: 0.1, count: 800), count: 6)))
        writer.close()
        // The file itself opens (its six channels can be read) but cannot become mono.
        let reader = try AudioFileReader(path: path)
        #expect(reader.info.format.channelCount == 6)
        #expect(throws: AudioIOError.unsupportedChannelLayout(path: path, channels: 6)) {
            try reader.readMono(maxFrames: 100)
        }
        #expect(throws: AudioIOError.unsupportedChannelLayout(path: path, channels: 6)) {
            try AudioChunker(path: path, chunkMilliseconds: 100)
        }
    }

    @Test func eightKilohertzInputIsReadAtItsRateAndCanBeUpsampled() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("phone.wav")
        try AudioFileWriter.writeMono(
            Signal.sine(frequency: 1_000, sampleRate: 8_000, seconds: 1), sampleRate: 8_000, to: path)
        #expect(try AudioFileReader.info(path: path).format.sampleRate == 8_000)
        let chunker = try AudioChunker(path: path, chunkMilliseconds: 100, sampleRate: 16_000)
        var total = 0
        while let chunk = try chunker.next() {
            #expect(chunk.sampleRate == 16_000)
            total += chunk.samples.count
        }
        #expect(abs(total - 16_000) <= 2)
    }

    @Test func errorDescriptionsNameTheFile() {
        let errors: [AudioIOError] = [
            .fileNotFound(path: "a.wav"), .emptyFile(path: "a.wav"), .zeroFrames(path: "a.wav"),
            .truncated(path: "a.wav", reason: "r"), .notAudio(path: "a.wav", reason: "r"),
            .unsupportedChannelLayout(path: "a.wav", channels: 6),
        ]
        for error in errors {
            #expect(error.description.hasPrefix("a.wav: "))
            #expect(error.path == "a.wav")
        }
    }

    private func makeWav(in dir: TemporaryDirectory, seconds: Double) throws -> String {
        let path = dir.path("full-\(UUID().uuidString).wav")
        try AudioFileWriter.writeMono(
            Signal.sine(frequency: 440, sampleRate: 16_000, seconds: seconds), sampleRate: 16_000, to: path)
        return path
    }
}
