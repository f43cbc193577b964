import AVFAudio
import CoreMedia
import Foundation
import SpeechCore

/// One buffer of audio for the analyzer, with the time of its first sample.
///
/// A nil start time means "right after the previous buffer" (or zero for the first). A later start
/// time skips audio; an earlier one (overlap or going back) ends the session with
/// `SFSpeechError.audioDisordered`. The time's timescale need not be the sample rate.
public struct AnalyzerInput: @unchecked Sendable {
    public let buffer: AVAudioPCMBuffer
    public let bufferStartTime: CMTime?

    public init(buffer: AVAudioPCMBuffer) {
        self.init(buffer: buffer, bufferStartTime: nil)
    }

    public init(buffer: AVAudioPCMBuffer, bufferStartTime: CMTime?) {
        self.buffer = buffer
        self.bufferStartTime = bufferStartTime
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
