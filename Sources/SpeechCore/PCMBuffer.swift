/// A block of PCM audio held per channel (planar), in Float32 or Int16 as its format says.
///
/// Float samples use the usual full scale of ±1.0; Int16 converts with a factor of 32768.
public struct PCMBuffer: Sendable, Hashable {
    public enum Samples: Sendable, Hashable {
        case float32([[Float]])
        case int16([[Int16]])
    }

    public private(set) var format: AudioFormat
    public private(set) var samples: Samples

    /// Float32 audio, one array per channel (all the same length).
    public init(format: AudioFormat, channels: [[Float]]) {
        self.init(format, .float32, .float32(channels), lengths: channels.map(\.count))
    }

    /// Int16 audio, one array per channel (all the same length).
    public init(format: AudioFormat, channels: [[Int16]]) {
        self.init(format, .int16, .int16(channels), lengths: channels.map(\.count))
    }

    private init(_ format: AudioFormat, _ type: AudioFormat.SampleType, _ samples: Samples, lengths: [Int]) {
        precondition(lengths.count == format.channelCount, "channel count does not match the format")
        precondition(lengths.allSatisfy { $0 == lengths.first }, "channels differ in length")
        var declared = format
        declared.sampleType = type
        self.format = declared
        self.samples = samples
    }

    /// Mono Float32 audio.
    public init(mono: [Float], sampleRate: Double) {
        self.init(format: .speech(sampleRate: sampleRate), channels: [mono])
    }

    /// Frames (samples per channel).
    public var frameCount: Int {
        switch samples {
        case .float32(let c): return c.first?.count ?? 0
        case .int16(let c): return c.first?.count ?? 0
        }
    }

    /// Duration of the buffer, exact in the sample rate's timescale when the rate is whole.
    public var duration: MediaTime { MediaTime(sampleIndex: Int64(frameCount), sampleRate: format.sampleRate) }

    /// The samples as Float32, one array per channel.
    public var floatChannels: [[Float]] {
        switch samples {
        case .float32(let c): return c
        case .int16(let c):
            SampleCopies.count(frameCount * c.count, at: "convert")
            return c.map { $0.map { Float($0) / 32768 } }
        }
    }

    /// The samples as Int16 (clipped, rounded to nearest), one array per channel.
    public var int16Channels: [[Int16]] {
        switch samples {
        case .int16(let c): return c
        case .float32(let c):
            SampleCopies.count(frameCount * c.count, at: "convert")
            return c.map(PCMBuffer.int16)
        }
    }

    /// Samples of all channels interleaved frame by frame, as Float32.
    public var interleavedFloats: [Float] {
        let channels = floatChannels
        guard channels.count > 1 else { return channels.first ?? [] }
        var out = [Float](repeating: 0, count: frameCount * channels.count)
        for (c, channel) in channels.enumerated() {
            for (i, x) in channel.enumerated() { out[i * channels.count + c] = x }
        }
        return out
    }

    /// A copy in another sample type (same rate, channels and layout).
    public func converted(to type: AudioFormat.SampleType) -> PCMBuffer {
        switch type {
        case .float32: return PCMBuffer(format: format, channels: floatChannels)
        case .int16: return PCMBuffer(format: format, channels: int16Channels)
        }
    }

    /// Frames `range` of this buffer.
    public func slice(_ range: Range<Int>) -> PCMBuffer {
        switch samples {
        case .float32(let c): return PCMBuffer(format: format, channels: c.map { Array($0[range]) })
        case .int16(let c): return PCMBuffer(format: format, channels: c.map { Array($0[range]) })
        }
    }

    /// One sample: scaled by 32768, clipped, rounded half away from zero; NaN is 0.
    ///
    /// Branch-free, so that the loop over a channel vectorises on the baseline x86-64 target
    /// (which has no vector rounding instruction): scaling by a power of two is exact in Float;
    /// adding 1.5·2²³ to a value of magnitude at most 2¹⁵ rounds it to the nearest integer, ties to
    /// even, leaving that integer in the low bits of the sum; the exact remainder then tells a tie
    /// that went the wrong way, which is moved one step away from zero.
    @inline(__always)
    static func int16(_ x: Float) -> Int16 {
        let scaled = x * 32768
        var clipped = scaled > -32768 ? scaled : -32768
        clipped = clipped < 32767 ? clipped : 32767
        clipped = scaled == scaled ? clipped : 0
        let sum = clipped + 12_582_912
        let remainder = clipped - (sum - 12_582_912)
        let tie: Int32 = remainder == 0.5 && clipped > 0 ? 1 : (remainder == -0.5 && clipped < 0 ? -1 : 0)
        // 1.5·2²³ has zeros in its low 16 bits, so they hold the rounded value.
        return Int16(truncatingIfNeeded: Int32(bitPattern: sum.bitPattern) &+ tie)
    }

    /// A channel converted in one pass into new storage (the engines that take Int16 convert every
    /// chunk, so this is on the bench's timed path).
    static func int16(_ channel: [Float]) -> [Int16] {
        [Int16](unsafeUninitializedCapacity: channel.count) { out, count in
            channel.withUnsafeBufferPointer { samples in
                for i in samples.indices { out[i] = int16(samples[i]) }
            }
            count = channel.count
        }
    }
}
