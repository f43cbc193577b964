import AVFAudio
import CoreMedia
import Foundation

/// An analysis a ``SpeechAnalyzer`` runs on its audio; its results arrive on `results`.
public protocol SpeechModule: AnyObject, Sendable {
    associatedtype Results: Sendable, AsyncSequence where Results.Failure == any Error
    associatedtype Result: SpeechModuleResult, Sendable where Result == Results.Element
    var results: Results { get }
    /// Formats the module can analyse without conversion, best first.
    var availableCompatibleAudioFormats: [AVAudioFormat] { get async }
}

/// A module whose assets depend on a locale (transcribers).
public protocol LocaleDependentSpeechModule: SpeechModule {
    /// Every locale the module can be made for on this device (with or without installed assets).
    static var supportedLocales: [Locale] { get async }
    /// A supported locale that stands for `locale` (same language, close region), if there is one.
    static func supportedLocale(equivalentTo locale: Locale) async -> Locale?
    /// The locales this instance was made for.
    var selectedLocales: [Locale] { get }
}

/// A result: the audio it covers and how far results are final.
public protocol SpeechModuleResult {
    var range: CMTimeRange { get }
    /// Results for audio before this time are final.
    var resultsFinalizationTime: CMTime { get }
}

extension SpeechModuleResult {
    /// True when the whole range is final and will not be revised.
    public var isFinal: Bool { resultsFinalizationTime >= range.end }
}

/// Releases model resources kept by `SpeechAnalyzer.Options.ModelRetention`.
public enum SpeechModels {
    public static func endRetention() async {
        await ModelRetentionCache.shared.endRetention()
    }
}

// MARK: - Attributes of transcribed text

extension AttributeScopes {
    /// Per-word attributes of transcription text: its audio time range and confidence.
    public struct SpeechAttributes: AttributeScope {
        public let transcriptionConfidence: ConfidenceAttribute
        public let audioTimeRange: TimeRangeAttribute
        public let foundation: FoundationAttributes

        public struct ConfidenceAttribute: CodableAttributedStringKey {
            public typealias Value = Double
            public static let name = "SpeechHarness.transcriptionConfidence"
        }

        public struct TimeRangeAttribute: CodableAttributedStringKey {
            public typealias Value = CMTimeRange
            public static let name = "SpeechHarness.audioTimeRange"
        }
    }

    public var speech: SpeechAttributes.Type { SpeechAttributes.self }
}

extension AttributeDynamicLookup {
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.SpeechAttributes, T>) -> T {
        self[T.self]
    }
}

extension AttributedString {
    /// Each word with the audio time range of its run; a run without one takes `fallback`, or is
    /// left out when `fallback` is nil.
    public func timedWords(fallback: CMTimeRange? = nil) -> [TimedWord] {
        var words: [TimedWord] = []
        for run in runs {
            guard let range = run[AttributeScopes.SpeechAttributes.TimeRangeAttribute.self] ?? fallback else {
                continue
            }
            for word in String(self[run.range].characters).split(whereSeparator: \.isWhitespace) {
                words.append(TimedWord(word: String(word), start: range.start.seconds, end: range.end.seconds))
            }
        }
        return words
    }

    /// The span of runs whose audio time ranges meet `timeRange`, or nil.
    public func rangeOfAudioTimeRangeAttributes(intersecting timeRange: CMTimeRange) -> Range<AttributedString.Index>? {
        var lower: AttributedString.Index?
        var upper: AttributedString.Index?
        for run in runs {
            guard let range = run[AttributeScopes.SpeechAttributes.TimeRangeAttribute.self] else { continue }
            let meets = range.overlaps(timeRange) || (range.isEmpty && timeRange.contains(range.start))
            guard meets else { continue }
            if lower == nil { lower = run.range.lowerBound }
            upper = run.range.upperBound
        }
        guard let lower, let upper else { return nil }
        return lower..<upper
    }
}
