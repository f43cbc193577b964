@_spi(Harness) import AVFAudio
import CoreMedia
import Foundation
import Testing

@Suite("AVAudioFormat and CoreMedia descriptions")
struct FormatDescriptionTests {
    static let formats: [AVAudioFormat] = [
        AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!,
        AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 48_000, channels: 2, interleaved: true)!,
        AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 8_000, channels: 2, interleaved: false)!,
        AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, channels: 1, interleaved: true)!,
    ]

    /// A format and its CoreMedia description say the same thing, both ways, and the stream
    /// description is Core Audio's for that layout.
    @Test(arguments: formats)
    func aFormatRoundTripsThroughItsDescription(format: AVAudioFormat) throws {
        #expect(AVAudioFormat(formatDescription: format.formatDescription) == format)
        let asbd = format.streamDescription.pointee
        #expect(asbd.mSampleRate == format.sampleRate && asbd.mChannelsPerFrame == format.channelCount)
        #expect(asbd.mFormatID == kAudioFormatLinearPCM)
        #expect((asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0) == !format.isInterleaved)
        #expect((asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0) == (format.commonFormat == .pcmFormatFloat32))
        let bytesPerSample: UInt32 = format.commonFormat == .pcmFormatInt16 ? 2 : 4
        #expect(asbd.mBytesPerFrame == bytesPerSample * (format.isInterleaved ? format.channelCount : 1))
    }

    @Test func aDescriptionThatIsNotLinearPCMIsNoFormat() throws {
        var aac = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!.streamDescription.pointee
        aac.mFormatID = 0x6161_6320  // 'aac '
        #expect(AVAudioFormat(formatDescription: try CMAudioFormatDescription(audioStreamBasicDescription: aac)) == nil)
    }

    /// A buffer's frames as bytes in Core Audio's layout, and back, are the same samples.
    @Test(arguments: formats)
    func bytesInTheFormatsLayoutRoundTrip(format: AVAudioFormat) throws {
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 100))
        buffer.frameLength = 100
        for channel in 0..<Int(format.channelCount) {
            for frame in 0..<100 {
                let value = Float(frame - 50) / 100 + Float(channel) / 10
                let index = format.isInterleaved ? frame * Int(format.channelCount) + channel : frame
                let row = format.isInterleaved ? 0 : channel
                if let floats = buffer.floatChannelData { floats[row][index] = value }
                if let ints = buffer.int16ChannelData { ints[row][index] = Int16(value * 10_000) }
            }
        }
        let bytes = buffer.layoutBytes
        #expect(bytes.count == 100 * Int(format.channelCount) * (format.commonFormat == .pcmFormatInt16 ? 2 : 4))
        let back = try #require(AVAudioPCMBuffer(pcmFormat: format, bytes: bytes, frames: 100))
        #expect(back.pcmBuffer == buffer.pcmBuffer && back.frameLength == 100)
        #expect(AVAudioPCMBuffer(pcmFormat: format, bytes: bytes.dropLast(), frames: 100) == nil)
    }
}
