// Linux stand-ins for AVFAudio's format, buffer, file and converter classes, on SpeechCore's types
// and the AudioIO module (libsndfile, libsamplerate). Names and shapes follow Apple's so that
// Apple-style audio code compiles unchanged; behaviour differences are noted where they exist.
// Core Audio's names (AudioStreamBasicDescription, kAudioFormatLinearPCM) and CoreMedia's format
// descriptions come with AVFAudio, as on Apple's platforms.
@_exported import CoreMedia
import Foundation
import SpeechCore

public typealias AVAudioFrameCount = UInt32
public typealias AVAudioFramePosition = Int64
public typealias AVAudioPacketCount = UInt32
public typealias AVAudioChannelCount = UInt32

/// Sample layouts; the harness handles Float32 and Int16 (Float64 and Int32 are declared for
/// source compatibility and refused by the converter).
public enum AVAudioCommonFormat: UInt, Sendable {
    case otherFormat = 0
    case pcmFormatFloat32 = 1
    case pcmFormatFloat64 = 2
    case pcmFormatInt16 = 3
    case pcmFormatInt32 = 4
}

/// An audio format: rate, channels, sample type and layout. Equal formats compare equal with `==`.
public final class AVAudioFormat: NSObject, @unchecked Sendable {
    public let sampleRate: Double
    public let channelCount: AVAudioChannelCount
    public let commonFormat: AVAudioCommonFormat
    public let isInterleaved: Bool
    /// Core Audio's description of the format, made with it and kept for as long as it lives.
    private let describedStream = UnsafeMutablePointer<AudioStreamBasicDescription>.allocate(capacity: 1)

    deinit { describedStream.deallocate() }

    /// The format as Core Audio's stream description; valid while the format exists.
    public var streamDescription: UnsafePointer<AudioStreamBasicDescription> { UnsafePointer(describedStream) }

    /// Deinterleaved Float32 at the rate and channel count: what Apple calls the standard format.
    public init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount) {
        guard sampleRate > 0, sampleRate.isFinite, channels > 0 else { return nil }
        self.sampleRate = sampleRate
        self.channelCount = channels
        self.commonFormat = .pcmFormatFloat32
        self.isInterleaved = false
        super.init()
        describedStream.initialize(to: basicDescription)
    }

    public init?(
        commonFormat: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool
    ) {
        guard sampleRate > 0, sampleRate.isFinite, channels > 0, commonFormat != .otherFormat else { return nil }
        self.sampleRate = sampleRate
        self.channelCount = channels
        self.commonFormat = commonFormat
        self.isInterleaved = interleaved
        super.init()
        describedStream.initialize(to: basicDescription)
    }

    /// The equivalent SpeechCore format (Float32 or Int16); nil for sample types the harness does not carry.
    public var audioFormat: AudioFormat? {
        let type: AudioFormat.SampleType
        switch commonFormat {
        case .pcmFormatFloat32: type = .float32
        case .pcmFormatInt16: type = .int16
        default: return nil
        }
        return AudioFormat(
            sampleRate: sampleRate, channelCount: Int(channelCount), sampleType: type, isInterleaved: isInterleaved)
    }

    /// What a bus reports when there is no device behind it: 0 Hz, no channels (Apple's
    /// initialisers refuse such a format, but hardware queries return it).
    init(invalidHardwareFormat: Void) {
        sampleRate = 0
        channelCount = 0
        commonFormat = .pcmFormatFloat32
        isInterleaved = false
        super.init()
        describedStream.initialize(to: basicDescription)
    }

    /// Whether rate and channel count describe real audio (a bus without a device reports 0 and 0).
    var isValidForAudio: Bool { sampleRate > 0 && channelCount > 0 }

    /// The format as settings keys, for `AVAudioFile(forWriting:settings:)` and the like.
    public var settings: [String: Any] {
        [
            AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: sampleRate, AVNumberOfChannelsKey: Int(channelCount),
            AVLinearPCMBitDepthKey: bytesPerSample * 8,
            AVLinearPCMIsFloatKey: commonFormat == .pcmFormatFloat32 || commonFormat == .pcmFormatFloat64,
            AVLinearPCMIsNonInterleaved: !isInterleaved, AVLinearPCMIsBigEndianKey: false,
        ]
    }

    public convenience init?(_ format: AudioFormat) {
        self.init(
            commonFormat: format.sampleType == .float32 ? .pcmFormatFloat32 : .pcmFormatInt16,
            sampleRate: format.sampleRate, channels: AVAudioChannelCount(format.channelCount),
            interleaved: format.isInterleaved)
    }

    public var isStandard: Bool { commonFormat == .pcmFormatFloat32 && !isInterleaved }

    /// Bytes per frame in one buffer (interleaved) or per channel buffer (deinterleaved).
    var bytesPerSample: Int {
        switch commonFormat {
        case .pcmFormatFloat32, .pcmFormatInt32: return 4
        case .pcmFormatFloat64: return 8
        case .pcmFormatInt16: return 2
        case .otherFormat: return 0
        }
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioFormat else { return false }
        return sampleRate == other.sampleRate && channelCount == other.channelCount
            && commonFormat == other.commonFormat && isInterleaved == other.isInterleaved
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(sampleRate)
        hasher.combine(channelCount)
        hasher.combine(commonFormat)
        hasher.combine(isInterleaved)
        return hasher.finalize()
    }

    public override var description: String {
        let type: String
        switch commonFormat {
        case .pcmFormatFloat32: type = "Float32"
        case .pcmFormatFloat64: type = "Float64"
        case .pcmFormatInt16: type = "Int16"
        case .pcmFormatInt32: type = "Int32"
        case .otherFormat: type = "other"
        }
        return
            "<AVAudioFormat: \(channelCount) ch, \(Int(sampleRate)) Hz, \(type)\(isInterleaved ? ", interleaved" : ", deinterleaved")>"
    }
}

// MARK: Core Audio and CoreMedia descriptions

extension AVAudioFormat {
    /// The format as Core Audio describes linear PCM.
    var basicDescription: AudioStreamBasicDescription {
        let bytes = UInt32(bytesPerSample)
        let frame = isInterleaved ? bytes * channelCount : bytes
        var flags = kAudioFormatFlagIsPacked
        flags |=
            commonFormat == .pcmFormatFloat32 || commonFormat == .pcmFormatFloat64
            ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger
        if !isInterleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        return AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: frame,
            mFramesPerPacket: 1, mBytesPerFrame: frame, mChannelsPerFrame: channelCount, mBitsPerChannel: bytes * 8,
            mReserved: 0)
    }

    /// The format as a CoreMedia audio format description.
    public var formatDescription: CMAudioFormatDescription {
        // A linear PCM stream description of a valid format is always accepted.
        try! CMAudioFormatDescription(audioStreamBasicDescription: basicDescription)
    }

    /// SDK 27: the format a CoreMedia description holds; nil when it is not linear PCM in a sample
    /// type AVAudioFormat carries.
    public convenience init?(formatDescription: CMAudioFormatDescription) {
        guard let asbd = formatDescription.audioStreamBasicDescription, asbd.mFormatID == kAudioFormatLinearPCM
        else { return nil }
        let isFloat = asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0
        let common: AVAudioCommonFormat
        switch (isFloat, asbd.mBitsPerChannel) {
        case (true, 32): common = .pcmFormatFloat32
        case (true, 64): common = .pcmFormatFloat64
        case (false, 16): common = .pcmFormatInt16
        case (false, 32): common = .pcmFormatInt32
        default: return nil
        }
        self.init(
            commonFormat: common, sampleRate: asbd.mSampleRate, channels: asbd.mChannelsPerFrame,
            interleaved: asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0)
    }

    /// The format a CoreMedia description holds (deprecated in SDK 27 for ``init(formatDescription:)``,
    /// which can fail: this one stops the program on a description it cannot read).
    @available(*, deprecated, message: "Use init?(formatDescription:)")
    public convenience init(cmAudioFormatDescription formatDescription: CMAudioFormatDescription) {
        guard let asbd = formatDescription.audioStreamBasicDescription, asbd.mFormatID == kAudioFormatLinearPCM
        else { preconditionFailure("not a linear PCM format description: \(formatDescription)") }
        self.init(formatDescription: formatDescription)!
    }
}
