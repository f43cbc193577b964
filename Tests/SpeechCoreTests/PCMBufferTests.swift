import Testing

@testable import SpeechCore

@Suite("PCMBuffer and AudioFormat")
struct PCMBufferTests {
    @Test func int16AndFloatConvertWithClipping() {
        let buffer = PCMBuffer(mono: [0, 0.5, -1, 1.5, -1.5, .nan], sampleRate: 16_000)
        #expect(buffer.int16Channels[0] == [0, 16384, -32768, 32767, -32768, 0])
        let back = buffer.converted(to: .int16).converted(to: .float32)
        #expect(back.floatChannels[0][1] == 0.5)
        #expect(back.format.sampleType == .float32)
    }

    @Test func interleavingAndSlicing() {
        let format = AudioFormat(sampleRate: 8_000, channelCount: 2)
        let buffer = PCMBuffer(format: format, channels: [[1, 2, 3], [10, 20, 30]] as [[Float]])
        #expect(buffer.interleavedFloats == [1, 10, 2, 20, 3, 30])
        #expect(buffer.slice(1..<3).floatChannels == [[2, 3], [20, 30]])
        #expect(buffer.frameCount == 3)
        #expect(buffer.duration == MediaTime(value: 3, timescale: 8_000))
    }

    @Test func formatDescription() {
        #expect(AudioFormat.speech(sampleRate: 16_000).description == "16000 Hz, 1 ch, float32")
        #expect(!AudioFormat(sampleRate: 0, channelCount: 1).isValid)
    }
}
