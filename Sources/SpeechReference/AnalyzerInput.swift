@_spi(Harness) import AVFAudio
@_spi(Harness) import CoreMedia
import Foundation
import SpeechCore
import VirtualDevice

/// One buffer of audio for the analyzer, with the time of its first sample.
///
/// A nil start time means "right after the previous buffer" (or zero for the first). A later start
/// time skips audio; an earlier one (overlap or going back) ends the session with
/// `SFSpeechError.audioDisordered`. The time's timescale need not be the sample rate.
public struct AnalyzerInput: Sendable {
    /// The buffer as given; the analyzer reads it (``buffer`` copies on 27 devices).
    @_spi(Harness) public let storedBuffer: AVAudioPCMBuffer
    public let bufferStartTime: CMTime?
    /// SDK 27: how long the input's audio lasts.
    public let bufferDuration: CMTime
    /// SDK 27: the format of the input's audio.
    public let bufferFormat: AVAudioFormat
    /// Why the analyzer cannot read this input's samples (a sample buffer that is not linear PCM
    /// in a sample type it takes); the analyzer fails with `unexpectedAudioFormat` on reaching it.
    @_spi(Harness) public let unreadable: String?

    public init(buffer: AVAudioPCMBuffer) {
        self.init(buffer: buffer, bufferStartTime: nil)
    }

    public init(buffer: AVAudioPCMBuffer, bufferStartTime: CMTime?) {
        self.init(
            stored: buffer, start: bufferStartTime,
            duration: CMTime(sampleIndex: Int64(buffer.frameLength), sampleRate: buffer.format.sampleRate),
            format: buffer.format, unreadable: nil)
    }

    /// SDK 27: audio in a ready sample buffer, starting at its presentation time. It must not
    /// overlap or come before earlier input. Samples that are not linear PCM in a sample type the
    /// analyzer takes end the session with `unexpectedAudioFormat` when the analyzer reaches them
    /// (the initializer can neither fail nor throw).
    public init(buffer: CMReadySampleBuffer<CMReadOnlyDataBlockBuffer>) {
        if let format = AVAudioFormat(formatDescription: buffer.formatDescription),
            let pcm = AVAudioPCMBuffer(
                pcmFormat: format, bytes: buffer.content.bytes, frames: AVAudioFrameCount(buffer.sampleCount))
        {
            self.init(buffer: pcm, bufferStartTime: buffer.presentationTimeStamp)
            return
        }
        let described = buffer.formatDescription.audioStreamBasicDescription
        let rate = described.map(\.mSampleRate).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 16_000
        let channels = described.map(\.mChannelsPerFrame).flatMap { $0 > 0 ? $0 : nil } ?? 1
        let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: channels)!
        self.init(
            stored: AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 0)!, start: buffer.presentationTimeStamp,
            duration: buffer.duration, format: format,
            unreadable: "a sample buffer the analyzer cannot read as linear PCM: \(buffer.formatDescription)")
    }

    private init(
        stored: AVAudioPCMBuffer, start: CMTime?, duration: CMTime, format: AVAudioFormat, unreadable: String?
    ) {
        self.storedBuffer = stored
        self.bufferStartTime = start
        self.bufferDuration = duration
        self.bufferFormat = format
        self.unreadable = unreadable
    }

    /// The audio. On a 26 device the buffer given; on 27 (the default device) a new copy on each
    /// read, as SDK 27 documents it, so changing it changes nothing the analyzer hears.
    @available(*, deprecated, message: "use other AnalyzerInput properties to get information about audio")
    public var buffer: AVAudioPCMBuffer {
        DeviceSettings.current.osRelease >= .release27 && !HelperFaults.planted("inputBufferNotCopied")
            ? AVAudioPCMBuffer(copying: storedBuffer) : storedBuffer
    }
}

/// Context that may improve analysis: contextual strings (words likely to be said) and app data.
/// Several analyzers may share one context object.
public final class AnalysisContext: NSObject, @unchecked Sendable {
    private let lock = Locked<([ContextualStringsTag: [String]], [UserDataTag: any Sendable])>(([:], [:]))

    public override init() {}

    public var contextualStrings: [ContextualStringsTag: [String]] {
        get { lock.withLock { $0.0 } }
        set { lock.withLock { $0.0 = newValue } }
    }

    public var userData: [UserDataTag: any Sendable] {
        get { lock.withLock { $0.1 } }
        set { lock.withLock { $0.1 = newValue } }
    }

    /// Names a group of contextual strings.
    public struct ContextualStringsTag: RawRepresentable, Sendable, Equatable, Hashable {
        public typealias RawValue = String
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let general = ContextualStringsTag("general")
    }

    /// Names a piece of app data.
    public struct UserDataTag: RawRepresentable, Sendable, Equatable, Hashable {
        public typealias RawValue = String
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// Every contextual string, for engines that take a flat list.
    var allContextualStrings: [String] {
        contextualStrings.keys.sorted { $0.rawValue < $1.rawValue }.flatMap { contextualStrings[$0]! }
    }
}
