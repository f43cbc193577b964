import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import AudioIO

@Suite("Comparing the audio two files hold")
struct AudioComparisonTests {
    static let tone = Signal.sine(frequency: 440, sampleRate: 16_000, seconds: 0.5)

    static func write(
        _ samples: [Float], _ path: String, rate: Double = 16_000, container: AudioFileWriter.Container = .wav,
        encoding: AudioFileWriter.Encoding = .pcm16
    ) throws {
        let writer = try AudioFileWriter(
            path: path, format: .speech(sampleRate: rate), container: container, encoding: encoding)
        try writer.write(mono: samples)
        writer.close()
    }

    /// A float WAV file and a copy with a PEAK chunk (a timestamp and the peak, as libsndfile
    /// writes one) before its data: the same audio, whatever else the container keeps.
    @Test func aChunkBesidesTheSamplesDoesNotMakeTheAudioDiffer() throws {
        let dir = try TemporaryDirectory()
        try Self.write(Self.tone, dir.path("a.wav"), encoding: .float32)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path("a.wav"))))
        let data = try #require((12..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual("data".utf8) })
        let peak =
            Array("PEAK".utf8) + [16, 0, 0, 0, 1, 0, 0, 0, 0x5e, 0x6f, 0x7a, 0x67] + [0, 0, 0, 0x3f, 7, 0, 0, 0]
        bytes.insert(contentsOf: peak, at: data)
        let size = bytes.count - 8
        bytes.replaceSubrange(4..<8, with: (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        let copy = try dir.write("b.wav", bytes: bytes)
        #expect(try AudioFileWriterTests.chunkIDs(copy).contains("PEAK"))
        #expect(try AudioComparison.difference(between: dir.path("a.wav"), and: copy) == nil)
    }

    @Test func theFirstDifferenceIsNamed() throws {
        let dir = try TemporaryDirectory()
        try Self.write(Self.tone, dir.path("a.wav"))
        var changed = Self.tone
        changed[5_000] += 0.25
        try Self.write(changed, dir.path("sample.wav"))
        try Self.write(Self.tone + [0, 0], dir.path("longer.wav"))
        try Self.write(Self.tone, dir.path("rate.wav"), rate: 8_000)
        try Self.write(Self.tone, dir.path("float.wav"), encoding: .float32)
        let a = dir.path("a.wav")
        let sample = try #require(try AudioComparison.difference(between: a, and: dir.path("sample.wav")))
        guard case .sample(let frame, let channel, _, _) = sample else {
            Issue.record("\(sample)")
            return
        }
        #expect(frame == 5_000 && channel == 0)
        #expect(
            try AudioComparison.difference(between: a, and: dir.path("longer.wav"))
                == .length(first: 8_000, second: 8_002))
        #expect(
            try AudioComparison.difference(between: dir.path("longer.wav"), and: a)
                == .length(first: 8_002, second: 8_000))
        let rate = try #require(try AudioComparison.difference(between: a, and: dir.path("rate.wav")))
        #expect("\(rate)".contains("16000 Hz") && "\(rate)".contains("8000 Hz"))
        let encoding = try #require(try AudioComparison.difference(between: a, and: dir.path("float.wav")))
        #expect("\(encoding)".hasPrefix("formats differ"), "\(encoding)")
    }

    @Test func aFileThatCannotBeReadIsAnErrorNamingIt() throws {
        let dir = try TemporaryDirectory()
        try Self.write(Self.tone, dir.path("a.wav"))
        let text = try dir.write("text.wav", bytes: Array("not audio".utf8))
        #expect(throws: AudioIOError.self) { try AudioComparison.difference(between: dir.path("a.wav"), and: text) }
        #expect(throws: AudioIOError.fileNotFound(path: dir.path("gone.wav"))) {
            try AudioComparison.difference(between: dir.path("gone.wav"), and: dir.path("a.wav"))
        }
    }
}
