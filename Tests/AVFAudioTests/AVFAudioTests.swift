import AVFAudio
import CoreMedia
import Foundation
import Testing

@Suite("AVFAudio stand-ins")
struct AVFAudioTests {
    /// A buffer filled whole by `replaceFrames` hands the same samples to the analyzer, no second
    /// copy; once a raw pointer is out (an app may write through it), the storage is read again.
    @Test func aBufferFilledWholeIsReadBackWithoutACopyUntilAPointerIsOut() throws {
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1))
        let samples: [Float] = (0..<160).map { Float($0) / 160 }
        let source = PCMBuffer(mono: samples, sampleRate: 16_000)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 160))
        try buffer.replaceFrames(with: source, at: 0)
        let read = try #require(buffer.pcmBuffer)
        #expect(read == source)
        let shared = read.floatChannels[0].withUnsafeBufferPointer { a in
            source.floatChannels[0].withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
        #expect(shared)
        buffer.frameLength = 80
        #expect(buffer.pcmBuffer?.frameCount == 80)
        buffer.frameLength = 160
        try #require(buffer.floatChannelData)[0][3] = 42
        #expect(buffer.pcmBuffer?.floatChannels[0][3] == 42)
        // After a pointer has been handed out, even a whole rewrite is read back from the storage.
        try buffer.replaceFrames(with: source, at: 0)
        #expect(buffer.pcmBuffer == source)
        let copied = buffer.pcmBuffer!.floatChannels[0].withUnsafeBufferPointer { a in
            source.floatChannels[0].withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
        #expect(!copied)
    }

    func temporaryURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("avf-\(UUID().uuidString)-\(name)")
    }

    func sine(_ format: AVAudioFormat, seconds: Double, frequency: Double = 440) -> AVAudioPCMBuffer {
        let frames = AVAudioFrameCount(seconds * format.sampleRate)
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        for c in 0..<Int(format.channelCount) {
            for i in 0..<Int(frames) {
                buffer.floatChannelData![c][i] = 0.5 * Float(sin(2 * .pi * frequency * Double(i) / format.sampleRate))
            }
        }
        return buffer
    }

    @Test func formatsCompareByValue() {
        let a = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let b = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 16_000, channels: 1, interleaved: false)!
        #expect(a == b && a.isStandard)
        #expect(a != AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: false)!)
        #expect(AVAudioFormat(standardFormatWithSampleRate: 0, channels: 1) == nil)
    }

    @Test func bufferLayoutsAndLengthClamp() {
        let interleaved = AVAudioFormat(
            commonFormat: .pcmFormatInt16, sampleRate: 8_000, channels: 2, interleaved: true)!
        let buffer = AVAudioPCMBuffer(pcmFormat: interleaved, frameCapacity: 4)!
        #expect(buffer.stride == 2 && buffer.floatChannelData == nil && buffer.int16ChannelData != nil)
        buffer.frameLength = 10
        #expect(buffer.frameLength == 4)
        let data = buffer.int16ChannelData![0]
        for i in 0..<8 { data[i] = Int16(i) }
        #expect(buffer.pcmBuffer?.int16Channels == [[0, 2, 4, 6], [1, 3, 5, 7]])
    }

    @Test func fileWriteAndReadBack() throws {
        let url = temporaryURL("tone.wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let writer = try AVAudioFile(forWriting: url, settings: [AVSampleRateKey: 16_000.0, AVNumberOfChannelsKey: 1])
        try writer.write(from: sine(format, seconds: 0.5))
        writer.close()
        let reader = try AVAudioFile(forReading: url)
        #expect(reader.length == 8_000 && reader.processingFormat == format)
        #expect(reader.fileFormat.commonFormat == .pcmFormatInt16)
        let chunk = AVAudioPCMBuffer(pcmFormat: reader.processingFormat, frameCapacity: 3_000)!
        var total = 0
        repeat {
            try reader.read(into: chunk)
            total += Int(chunk.frameLength)
        } while chunk.frameLength > 0
        #expect(total == 8_000 && reader.framePosition == 8_000)
        reader.framePosition = 4_000
        try reader.read(into: chunk)
        #expect(chunk.frameLength == 3_000)
    }

    /// An app that keeps its `AVAudioFile` open (Apple's WWDC25 sample never closes its
    /// recording) still leaves a file another reader sees whole, as Core Audio's header updates do.
    @Test func aFileStillOpenForWritingReadsWhole() throws {
        let url = temporaryURL("open.wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let writer = try AVAudioFile(forWriting: url, settings: format.settings)
        try writer.write(from: sine(format, seconds: 0.25))
        try writer.write(from: sine(format, seconds: 0.25))
        // The RIFF and data chunk sizes in the header count every byte written so far (libsndfile
        // itself reads past a stale header, other readers do not).
        let bytes = [UInt8](try Data(contentsOf: url))
        func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        #expect(word(4) == bytes.count - 8)
        let data = try #require((12..<(bytes.count - 8)).first { bytes[$0..<($0 + 4)].elementsEqual("data".utf8) })
        #expect(word(data + 4) == 24_000 * 4)
        withExtendedLifetime(writer) {}
    }

    @Test func fileErrorsNameTheFile() {
        #expect(throws: (any Error).self) { try AVAudioFile(forReading: URL(fileURLWithPath: "/nonexistent/a.wav")) }
    }

    /// Converting 44.1 kHz to 16 kHz through the input block keeps the tone and the frame count,
    /// and reports input running dry and the end of the stream.
    @Test(arguments: [AVAudioConverterPrimeMethod.pre, .normal, .none])
    func converterWithInputBlock(prime: AVAudioConverterPrimeMethod) throws {
        let from = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 1)!
        let to = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let converter = try #require(AVAudioConverter(from: from, to: to))
        converter.primeMethod = prime
        var pending = [sine(from, seconds: 0.5), sine(from, seconds: 0.5)]
        var produced: [Float] = []
        var ended = false
        while !ended {
            let out = AVAudioPCMBuffer(pcmFormat: to, frameCapacity: 1_000)!
            var error: NSError?
            let status = converter.convert(to: out, error: &error) { _, status in
                if pending.isEmpty {
                    status.pointee = .endOfStream
                    return nil
                }
                status.pointee = .haveData
                return pending.removeFirst()
            }
            #expect(error == nil && status != .error)
            produced += Array(UnsafeBufferPointer(start: out.floatChannelData![0], count: Int(out.frameLength)))
            ended = status == .endOfStream
        }
        #expect(abs(produced.count - 16_000) <= 2)
        let rms = (produced[2_000..<14_000].reduce(0) { $0 + Double($1 * $1) } / 12_000).squareRoot()
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.01)
        // Input that is not there yet: the converter says so instead of ending.
        let idle = AVAudioConverter(from: from, to: to)!
        let out = AVAudioPCMBuffer(pcmFormat: to, frameCapacity: 100)!
        var error: NSError?
        #expect(
            idle.convert(to: out, error: &error) { _, status in
                status.pointee = .noDataNow
                return nil
            } == .inputRanDry)
    }

    @Test func converterSimpleFormMixesChannelsAndTypes() throws {
        let stereo = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 2)!
        let monoInt = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: false)!
        let input = AVAudioPCMBuffer(pcmFormat: stereo, frameCapacity: 2)!
        input.frameLength = 2
        input.floatChannelData![0][0] = 0.5
        input.floatChannelData![1][0] = 0.0
        input.floatChannelData![0][1] = -0.5
        input.floatChannelData![1][1] = -0.5
        let output = AVAudioPCMBuffer(pcmFormat: monoInt, frameCapacity: 2)!
        try AVAudioConverter(from: stereo, to: monoInt)!.convert(to: output, from: input)
        #expect(output.pcmBuffer?.int16Channels == [[8192, -16384]])
        // The simple form does not change rates.
        let other = AVAudioFormat(standardFormatWithSampleRate: 8_000, channels: 2)!
        #expect(throws: AVAudioConverterError.self) {
            try AVAudioConverter(from: stereo, to: other)!.convert(
                to: AVAudioPCMBuffer(pcmFormat: other, frameCapacity: 2)!, from: input)
        }
    }

    @Test func coreMediaFunctions() {
        let t = CMTimeMake(value: 3, timescale: 2)
        #expect(CMTimeGetSeconds(t) == 1.5)
        #expect(CMTimeCompare(t, CMTimeMakeWithSeconds(1.5, preferredTimescale: 600)) == 0)
        #expect(CMTimeAdd(t, CMTime(value: 1, timescale: 3)) == CMTime(value: 11, timescale: 6))
        let range = CMTimeRangeMake(start: .zero, duration: t)
        #expect(range.containsTime(CMTime(value: 1, timescale: 1)) && !range.containsTime(t))
        #expect(CMTimeRangeGetEnd(range) == t)
        #expect(t.convertScale(1, method: .roundTowardZero).value == 1)
    }
}
