import AVFAudio
import CoreMedia
import Foundation
import SpeechCore

/// Speech-to-text in the style of keyboard dictation: sentence punctuation, spoken punctuation
/// ("comma" → ","), emoji names ("heart emoji" → ❤️) and etiquette replacements as options.
public final class DictationTranscriber: LocaleDependentSpeechModule, @unchecked Sendable {
    public struct Preset: Sendable, Equatable, Hashable {
        public var contentHints: Set<ContentHint>
        public var transcriptionOptions: Set<TranscriptionOption>
        public var reportingOptions: Set<ReportingOption>
        public var attributeOptions: Set<ResultAttributeOption>

        public init(
            contentHints: Set<ContentHint>, transcriptionOptions: Set<TranscriptionOption>,
            reportingOptions: Set<ReportingOption>, attributeOptions: Set<ResultAttributeOption>
        ) {
            self.contentHints = contentHints
            self.transcriptionOptions = transcriptionOptions
            self.reportingOptions = reportingOptions
            self.attributeOptions = attributeOptions
        }

        /// A short phrase (a search, a command), punctuated.
        public static let phrase = Preset(
            contentHints: [.shortForm], transcriptionOptions: [.punctuation], reportingOptions: [], attributeOptions: []
        )
        public static let shortDictation = Preset(
            contentHints: [.shortForm], transcriptionOptions: [.punctuation, .emoji], reportingOptions: [],
            attributeOptions: [])
        public static let progressiveShortDictation = Preset(
            contentHints: [.shortForm], transcriptionOptions: [.punctuation, .emoji],
            reportingOptions: [.volatileResults], attributeOptions: [])
        public static let longDictation = Preset(
            contentHints: [], transcriptionOptions: [.punctuation, .emoji], reportingOptions: [], attributeOptions: [])
        public static let progressiveLongDictation = Preset(
            contentHints: [], transcriptionOptions: [.punctuation, .emoji], reportingOptions: [.volatileResults],
            attributeOptions: [])
        public static let timeIndexedLongDictation = Preset(
            contentHints: [], transcriptionOptions: [.punctuation, .emoji], reportingOptions: [],
            attributeOptions: [.audioTimeRange])
    }

    /// What the audio is like, so the engine can adapt.
    public struct ContentHint: Sendable, Equatable, Hashable {
        let name: String
        public static let shortForm = ContentHint(name: "shortForm")
        public static let farField = ContentHint(name: "farField")
        public static let atypicalSpeech = ContentHint(name: "atypicalSpeech")
        public static func customizedLanguage(modelConfiguration: SFSpeechLanguageModel.Configuration) -> ContentHint {
            ContentHint(name: "customizedLanguage:\(modelConfiguration.languageModel.path)")
        }
    }

    public enum TranscriptionOption: CaseIterable, Sendable, Equatable, Hashable {
        case punctuation
        case emoji
        case etiquetteReplacements
    }

    public enum ReportingOption: CaseIterable, Sendable, Equatable, Hashable {
        case volatileResults
        case alternativeTranscriptions
        /// Finalise at shorter pauses.
        case frequentFinalization
    }

    public enum ResultAttributeOption: CaseIterable, Sendable, Equatable, Hashable {
        case audioTimeRange
        case transcriptionConfidence
    }

    public struct Result: SpeechModuleResult, Sendable, CustomStringConvertible, Equatable, Hashable {
        public let range: CMTimeRange
        public let resultsFinalizationTime: CMTime
        public let alternatives: [AttributedString]
        public var text: AttributedString { alternatives[0] }
        public var description: String { "\(isFinal ? "final" : "volatile") \(range): \"\(String(text.characters))\"" }
    }

    public let locale: Locale
    public let contentHints: Set<ContentHint>
    public let transcriptionOptions: Set<TranscriptionOption>
    public let reportingOptions: Set<ReportingOption>
    public let attributeOptions: Set<ResultAttributeOption>
    let channel: EngineChannel<Result>
    /// What the analyzer drives: the channel, or a faulty wrapper of it in a mutation build.
    let moduleChannel: any ModuleChannel

    public convenience init(locale: Locale, preset: Preset) {
        self.init(
            locale: locale, contentHints: preset.contentHints, transcriptionOptions: preset.transcriptionOptions,
            reportingOptions: preset.reportingOptions, attributeOptions: preset.attributeOptions)
    }

    public convenience init(
        locale: Locale, contentHints: Set<ContentHint>, transcriptionOptions: Set<TranscriptionOption>,
        reportingOptions: Set<ReportingOption>, attributeOptions: Set<ResultAttributeOption>
    ) {
        let (engine, problem) = LocaleSupport.engine(for: locale, .any)
        self.init(
            locale: locale, contentHints: contentHints, transcriptionOptions: transcriptionOptions,
            reportingOptions: reportingOptions, attributeOptions: attributeOptions, engine: engine,
            engineProblem: problem)
    }

    /// A dictation transcriber on a chosen engine (harness extension).
    @_spi(Harness) public convenience init(locale: Locale, preset: Preset, engine: any RecognitionEngine) {
        self.init(
            locale: locale, contentHints: preset.contentHints, transcriptionOptions: preset.transcriptionOptions,
            reportingOptions: preset.reportingOptions, attributeOptions: preset.attributeOptions, engine: engine,
            engineProblem: LocaleSupport.unavailability(.any))
    }

    init(
        locale: Locale, contentHints: Set<ContentHint>, transcriptionOptions: Set<TranscriptionOption>,
        reportingOptions: Set<ReportingOption>, attributeOptions: Set<ResultAttributeOption>,
        engine: (any RecognitionEngine)?, engineProblem: String?
    ) {
        self.locale = locale
        self.contentHints = contentHints
        self.transcriptionOptions = transcriptionOptions
        self.reportingOptions = reportingOptions
        self.attributeOptions = attributeOptions
        var settings = TranscriptionSettings()
        settings.reportsVolatile = reportingOptions.contains(.volatileResults)
        settings.fastResults = true
        settings.alternatives = reportingOptions.contains(.alternativeTranscriptions)
        settings.timeAttribute = attributeOptions.contains(.audioTimeRange)
        settings.confidenceAttribute = attributeOptions.contains(.transcriptionConfidence)
        settings.etiquette = transcriptionOptions.contains(.etiquetteReplacements)
        settings.punctuation = transcriptionOptions.contains(.punctuation)
        settings.emoji = transcriptionOptions.contains(.emoji)
        settings.hints = Set(
            contentHints.map(\.name) + ["dictation"]
                + (reportingOptions.contains(.frequentFinalization) ? ["frequentFinalization"] : []))
        channel = EngineChannel(
            moduleName: "DictationTranscriber(\(LocaleSupport.tag(locale)))", locale: LocaleSupport.tag(locale),
            engine: engineProblem == nil ? engine : nil, engineProblem: engineProblem, settings: settings
        ) { range, time, alternatives in
            Result(range: range, resultsFinalizationTime: time, alternatives: alternatives)
        }
        moduleChannel = FaultPlan.channel(channel)
    }

    public static var supportedLocales: [Locale] { get async { LocaleSupport.supported(.any) } }
    public static var installedLocales: [Locale] { get async { LocaleSupport.installed(.any) } }
    public static func supportedLocale(equivalentTo locale: Locale) async -> Locale? {
        LocaleSupport.equivalent(to: locale, .any)
    }

    public var selectedLocales: [Locale] { [locale] }
    public var availableCompatibleAudioFormats: [AVAudioFormat] {
        get async { channel.compatibleFormats.compactMap(AVAudioFormat.init) }
    }
    public var results: ModuleResults<Result> { ModuleResults(broadcast: channel.broadcast) }
}

extension DictationTranscriber: ModuleChannelOwner {}
