@_spi(Harness) import CoreMedia
import Foundation
import Testing

@Suite("CoreMedia sample buffers")
struct SampleBufferTests {
    /// 16-bit mono linear PCM at 16 kHz, as Core Audio describes it.
    static let int16Mono = AudioStreamBasicDescription(
        mSampleRate: 16_000, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, mBytesPerPacket: 2,
        mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)

    @Test func anAudioFormatDescriptionHoldsItsStreamDescription() throws {
        let description = try CMAudioFormatDescription(audioStreamBasicDescription: Self.int16Mono)
        #expect(description.mediaType == .audio && description.mediaSubType == .linearPCM)
        #expect(description.audioStreamBasicDescription == Self.int16Mono)
        var silent = Self.int16Mono
        silent.mSampleRate = 0
        #expect(throws: CMFormatDescription.Error.self) {
            try CMAudioFormatDescription(audioStreamBasicDescription: silent)
        }
    }

    /// A sample buffer's count and time give its duration; bytes too few for the count, no
    /// samples, or a time that is not a number are refused.
    @Test func aSampleBufferHoldsItsFramesAndRefusesTooFewBytes() throws {
        let format = try CMAudioFormatDescription(audioStreamBasicDescription: Self.int16Mono)
        let bytes = CMReadOnlyDataBlockBuffer(Data(count: 3_200)).withUnsafeBlockBuffer { $0 }
        let start = CMTime(value: 8_000, timescale: 16_000)
        let buffer = try CMSampleBuffer(
            dataBuffer: bytes, formatDescription: format, numSamples: 1_600, presentationTimeStamp: start,
            packetDescriptions: [])
        #expect(buffer.duration == CMTime(value: 1_600, timescale: 16_000) && buffer.totalSampleSize == 3_200)
        #expect(buffer.isValid)
        try buffer.invalidate()
        #expect(!buffer.isValid)
        for (count, time) in [(1_601, start), (0, start), (1_600, CMTime.invalid)] {
            #expect(throws: CMSampleBuffer.Error.invalidSampleData) {
                try CMSampleBuffer(
                    dataBuffer: bytes, formatDescription: format, numSamples: count, presentationTimeStamp: time,
                    packetDescriptions: [])
            }
        }
    }

    /// The SDK 26 ready buffer keeps the bytes, count, time and format of the sample buffer it
    /// takes over, and gives an equivalent one back.
    @Test func aReadySampleBufferTakesOverASampleBuffer() throws {
        let format = try CMAudioFormatDescription(audioStreamBasicDescription: Self.int16Mono)
        let data = Data((0..<400).map { UInt8($0 % 251) })
        let source = try CMSampleBuffer(
            dataBuffer: CMReadOnlyDataBlockBuffer(data).withUnsafeBlockBuffer { $0 }, formatDescription: format,
            numSamples: 200, presentationTimeStamp: CMTime(value: 3, timescale: 1), packetDescriptions: [])
        let ready = CMReadySampleBuffer(unsafeWithDataBuffer: source)
        #expect(ready.sampleCount == 200 && ready.presentationTimeStamp == CMTime(value: 3, timescale: 1))
        #expect(ready.duration == CMTime(value: 200, timescale: 16_000))
        #expect(ready.formatDescription == format && ready.content.bytes == data)
        let back = ready.withUnsafeSampleBuffer { $0 }
        #expect(try back.dataBuffer?.dataBytes() == data && back.numSamples == 200)
    }

    @Test func blockBuffersJoinAndFreeze() throws {
        var joined = CMReadOnlyDataBlockBuffer(Data([1, 2])) + CMReadOnlyDataBlockBuffer(Data([3]))
        joined += CMReadOnlyDataBlockBuffer(Data([4]))
        #expect(joined.bytes == Data([1, 2, 3, 4]) && joined.count == 4 && !joined.isEmpty)
        #expect(CMReadOnlyDataBlockBuffer().isEmpty)
        var mutable = CMMutableDataBlockBuffer(count: 2)
        mutable.extend(by: 3)
        #expect(CMReadOnlyDataBlockBuffer(mutable).count == 5)
        let block = try CMBlockBuffer(length: 4)
        try block.withUnsafeMutableBytes(atOffset: 2) { $0[0] = 9 }
        #expect(try block.dataBytes() == Data([0, 0, 9, 0]) && block.dataLength == 4)
        #expect(throws: CMBlockBuffer.Error.badOffsetParameter) {
            try block.withUnsafeMutableBytes(atOffset: 5) { _ in }
        }
    }
}
