import CSpanDSP
import Foundation

/// Decodes raw G.722 (64 kbit/s) into 16 kHz audio with libspandsp. Asterisk ships its wideband
/// prompts this way; decoded, they are clean 16 kHz speech.
public enum G722Decoder {
    public static let sampleRate: Double = 16_000

    /// Decodes a headerless `.g722` file into mono Float32 at 16 kHz.
    public static func decodeFile(path: String) throws -> [Float] {
        try AudioFileReader.checkFile(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AudioIOError.unreadable(path: path, reason: "cannot read bytes")
        }
        return try decode(Array(data), path: path)
    }

    /// Decodes G.722 bytes (two samples per byte at 64 kbit/s).
    public static func decode(_ bytes: [UInt8], path: String = "<memory>") throws -> [Float] {
        guard let state = g722_decode_init(nil, 64_000, 0) else {
            throw AudioIOError.unreadable(path: path, reason: "cannot initialise the G.722 decoder")
        }
        defer { g722_decode_free(state) }
        var pcm = [Int16](repeating: 0, count: bytes.count * 2 + 16)
        let produced = bytes.withUnsafeBufferPointer { input in
            pcm.withUnsafeMutableBufferPointer { output in
                g722_decode(state, output.baseAddress, input.baseAddress, Int32(input.count))
            }
        }
        guard produced >= 0 else { throw AudioIOError.notAudio(path: path, reason: "G.722 decoding failed") }
        return pcm[0..<Int(produced)].map { Float($0) / 32768 }
    }
}
