import SpeechCore
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test func byteArraysAndSequencesGiveTheSameDigest() {
        // Lengths around the 64-byte block and the 56-byte padding boundary, fed whole and in pieces.
        for length in [0, 1, 55, 56, 63, 64, 65, 127, 128, 1_000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let generic = SHA256.hex(bytes.lazy.map { $0 })
            #expect(SHA256.hex(bytes) == generic, "length \(length)")
            var pieces = SHA256()
            pieces.update(Array(bytes.prefix(length / 3)))
            pieces.update(Array(bytes.dropFirst(length / 3)))
            #expect(pieces.finalizeHex() == generic, "length \(length) in two pieces")
        }
        // FIPS 180-4 two-block example.
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
