import Foundation

/// CoreMedia's format description, for audio: what kind of media a sample buffer holds and, for
/// linear PCM, its `AudioStreamBasicDescription`.
public final class CMFormatDescription: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// A four-character media kind, as CoreMedia names them.
    public struct MediaType: RawRepresentable, Sendable, Hashable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// 'soun'
        public static let audio = MediaType(rawValue: 0x736F_756E)
        /// 'vide'
        public static let video = MediaType(rawValue: 0x7669_6465)
        /// 'muxx'
        public static let muxed = MediaType(rawValue: 0x6D75_7878)
        /// 'text'
        public static let text = MediaType(rawValue: 0x7465_7874)
    }

    /// The codec within the media kind; for audio, the stream description's `mFormatID`.
    public struct MediaSubType: RawRepresentable, Sendable, Hashable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let linearPCM = MediaSubType(rawValue: kAudioFormatLinearPCM)
    }

    public let mediaType: MediaType
    public let mediaSubType: MediaSubType
    /// The stream description of an audio format description; nil for other media.
    public let audioStreamBasicDescription: AudioStreamBasicDescription?

    /// An audio format description. Apple's initializer also takes a channel layout, a magic cookie
    /// and extensions, each defaulting to none; linear PCM here needs none of them. Throws
    /// ``CMFormatDescription/Error`` for a description that is not a usable stream layout.
    public init(audioStreamBasicDescription asbd: AudioStreamBasicDescription) throws {
        guard asbd.mSampleRate > 0, asbd.mSampleRate.isFinite, asbd.mChannelsPerFrame > 0 else {
            throw Error.invalidParameter("sample rate \(asbd.mSampleRate), \(asbd.mChannelsPerFrame) channels")
        }
        mediaType = .audio
        mediaSubType = MediaSubType(rawValue: asbd.mFormatID)
        audioStreamBasicDescription = asbd
    }

    public static func == (a: CMFormatDescription, b: CMFormatDescription) -> Bool {
        a.mediaType == b.mediaType && a.mediaSubType == b.mediaSubType
            && a.audioStreamBasicDescription == b.audioStreamBasicDescription
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mediaType)
        hasher.combine(audioStreamBasicDescription)
    }

    public var description: String {
        guard let asbd = audioStreamBasicDescription else { return "<CMFormatDescription \(mediaType.rawValue)>" }
        return "<CMAudioFormatDescription \(Int(asbd.mSampleRate)) Hz, \(asbd.mChannelsPerFrame) ch, "
            + "\(asbd.mBitsPerChannel) bit, flags \(asbd.mFormatFlags)>"
    }
}

/// An audio format description is a format description (CoreMedia's name for the same type).
public typealias CMAudioFormatDescription = CMFormatDescription

extension CMFormatDescription {
    /// What went wrong making a format description (CoreMedia's errors are nested this way).
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        public let code: Int32
        public let reason: String
        /// kCMFormatDescriptionError_InvalidParameter.
        public static func invalidParameter(_ reason: String) -> Error { Error(code: -12710, reason: reason) }
        public var description: String { "CMFormatDescription error \(code): \(reason)" }
    }
}
