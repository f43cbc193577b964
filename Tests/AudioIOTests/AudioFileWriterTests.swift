import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import AudioIO

@Suite("Writing audio files")
struct AudioFileWriterTests {
    /// The chunk ids of a RIFF/WAVE file, in order.
    static func chunkIDs(_ path: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count >= 12, String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE" else { return [] }
        var ids: [String] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            ids.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            let size = bytes[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            offset += 8 + size + size % 2
        }
        return ids
    }

    /// libsndfile adds a PEAK chunk, which holds the second it was written in, to float WAV files
    /// unless told not to; the writer tells it, for every encoding.
    @Test(arguments: AudioFileWriter.Encoding.allCases)
    func aWAVFileHoldsNoChunkThatRecordsWhenItWasWritten(encoding: AudioFileWriter.Encoding) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("tone.wav")
        try AudioFileWriter.writeMono(
            Signal.sine(frequency: 440, sampleRate: 16_000, seconds: 0.1), sampleRate: 16_000, to: path,
            encoding: encoding)
        let ids = try Self.chunkIDs(path)
        #expect(ids.contains("fmt ") && ids.contains("data"), "\(ids)")
        #expect(!ids.contains("PEAK"), "\(ids)")
    }

    /// The same samples written twice, the second time through the update-as-you-go header that
    /// `AVAudioFile` uses, give the same bytes.
    @Test func theSameAudioWrittenTwiceGivesTheSameBytes() throws {
        let dir = try TemporaryDirectory()
        let tone = Signal.sine(frequency: 300, sampleRate: 48_000, seconds: 0.25)
        var files: [Data] = []
        for (name, updatesHeader) in [("a.wav", false), ("b.wav", true)] {
            let writer = try AudioFileWriter(
                path: dir.path(name), format: .speech(sampleRate: 48_000), encoding: .float32,
                updatesHeader: updatesHeader)
            for start in stride(from: 0, to: tone.count, by: 4_096) {
                try writer.write(mono: Array(tone[start..<min(tone.count, start + 4_096)]))
            }
            writer.close()
            files.append(try Data(contentsOf: URL(fileURLWithPath: dir.path(name))))
        }
        #expect(files[0] == files[1])
    }
}
