import Foundation

/// CoreMedia's sample buffer, for audio: a count of samples (frames, for linear PCM) starting at a
/// presentation time, their bytes in a block buffer, and the format description that says how to
/// read them.
public final class CMSampleBuffer: @unchecked Sendable {
    public let dataBuffer: CMBlockBuffer?
    public let formatDescription: CMFormatDescription?
    public let numSamples: Int
    public let presentationTimeStamp: CMTime
    private let invalidated = NSLock()
    private var valid = true
    private var attachments: [any Sendable] = []

    /// Harness extra: objects that live as long as the buffer (the fast-paced microphone's lease
    /// on the audio it holds).
    @_spi(Harness) public var harnessAttachments: [any Sendable] {
        get { invalidated.withLock { attachments } }
        set { invalidated.withLock { attachments = newValue } }
    }

    /// Audio samples. Apple's initializer takes the packet descriptions of compressed audio; linear
    /// PCM has none (pass `[]`). Throws when the bytes do not hold `numSamples` frames of the format.
    public init(
        dataBuffer: CMBlockBuffer?, formatDescription: CMFormatDescription, numSamples: Int,
        presentationTimeStamp: CMTime, packetDescriptions: [AudioStreamPacketDescription]
    ) throws {
        guard numSamples > 0, presentationTimeStamp.isNumeric else {
            throw CMSampleBuffer.Error.invalidSampleData
        }
        if let asbd = formatDescription.audioStreamBasicDescription, asbd.mFormatID == kAudioFormatLinearPCM,
            packetDescriptions.isEmpty
        {
            let needed =
                Int(asbd.mBytesPerFrame) * numSamples
                * ((asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved) != 0 ? Int(asbd.mChannelsPerFrame) : 1)
            guard let dataBuffer, dataBuffer.dataLength >= needed else { throw CMSampleBuffer.Error.invalidSampleData }
        }
        self.dataBuffer = dataBuffer
        self.formatDescription = formatDescription
        self.numSamples = numSamples
        self.presentationTimeStamp = presentationTimeStamp
    }

    /// Every sample's duration added up: frames over the rate, for linear PCM.
    public var duration: CMTime {
        guard let rate = formatDescription?.audioStreamBasicDescription?.mSampleRate, rate > 0 else { return .invalid }
        return CMTime(sampleIndex: Int64(numSamples), sampleRate: rate)
    }

    /// Bytes of all samples.
    public var totalSampleSize: Int { dataBuffer?.dataLength ?? 0 }

    /// False once the buffer has been invalidated.
    public var isValid: Bool { invalidated.withLock { valid } }

    /// Makes the buffer invalid (its data may no longer be read).
    public func invalidate() throws { invalidated.withLock { valid = false } }

    /// What a sample buffer may hold: CoreMedia's own content types only.
    public protocol Content: Sendable {}
    /// Content that carries a format description.
    public protocol ContentWithFormatDescription: Content {}

    /// CoreMedia's sample buffer errors, with their codes.
    public struct Error: Swift.Error, Sendable, Equatable {
        public let code: Int32
        public static let invalidSampleData = Error(code: -12_742)
        public static let sampleIndexOutOfRange = Error(code: -12_735)
        public static let invalidMediaTypeForOperation = Error(code: -12_743)
    }
}

extension CMReadOnlyDataBlockBuffer: CMSampleBuffer.ContentWithFormatDescription {}

/// A sample buffer whose samples are ready to read (SDK 26), generic over what it holds. Speech
/// takes it with data-block content: audio bytes and their format.
public struct CMReadySampleBuffer<Content: CMSampleBuffer.Content>: Sendable {
    @_spi(Harness) public let content: Content
    private var format: CMFormatDescription
    public let sampleCount: Int
    public let presentationTimeStamp: CMTime
}

extension CMReadySampleBuffer where Content == CMReadOnlyDataBlockBuffer {
    /// Linear PCM audio: `sampleCount` frames of `formatDescription` starting at
    /// `presentationTimeStamp`. The count must be above 0 and the time a number; the bytes must
    /// hold the frames.
    public init(
        audioDataBuffer content: CMReadOnlyDataBlockBuffer, formatDescription: CMAudioFormatDescription,
        sampleCount: Int, presentationTimeStamp: CMTime
    ) {
        precondition(sampleCount > 0, "a ready sample buffer holds at least one sample")
        precondition(presentationTimeStamp.isNumeric, "a ready sample buffer starts at a numeric time")
        self.content = content
        self.format = formatDescription
        self.sampleCount = sampleCount
        self.presentationTimeStamp = presentationTimeStamp
    }

    /// Takes over a sample buffer holding audio bytes; the caller must not change it afterwards.
    public init(unsafeWithDataBuffer unsafeBuffer: sending CMSampleBuffer) {
        let bytes = (try? unsafeBuffer.dataBuffer?.dataBytes()) ?? nil
        guard let format = unsafeBuffer.formatDescription else {
            preconditionFailure("a sample buffer with data-block content has a format description")
        }
        self.init(
            audioDataBuffer: CMReadOnlyDataBlockBuffer(bytes ?? Data()), formatDescription: format,
            sampleCount: unsafeBuffer.numSamples, presentationTimeStamp: unsafeBuffer.presentationTimeStamp)
    }

    /// The samples' durations added up.
    public var duration: CMTime {
        guard let rate = format.audioStreamBasicDescription?.mSampleRate, rate > 0 else { return .invalid }
        return CMTime(sampleIndex: Int64(sampleCount), sampleRate: rate)
    }

    /// Scoped access to an equivalent `CMSampleBuffer`.
    public func withUnsafeSampleBuffer<R: ~Copyable>(
        _ body: (CMSampleBuffer) throws -> sending R
    ) rethrows
        -> sending R
    {
        let buffer = content.withUnsafeBlockBuffer { $0 }
        guard
            let sample = try? CMSampleBuffer(
                dataBuffer: buffer, formatDescription: format, numSamples: sampleCount,
                presentationTimeStamp: presentationTimeStamp, packetDescriptions: [])
        else { preconditionFailure("a ready sample buffer's bytes hold its samples") }
        return try body(sample)
    }
}

extension CMReadySampleBuffer where Content: CMSampleBuffer.ContentWithFormatDescription {
    /// The format of the samples.
    public var formatDescription: CMFormatDescription {
        get { format }
        set { format = newValue }
    }
}
