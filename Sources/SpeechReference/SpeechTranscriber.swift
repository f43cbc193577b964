import AVFAudio
import CoreMedia
import Foundation
import SpeechCore
import VirtualDevice

/// Speech-to-text for general use: final results, and volatile (tentative) results when asked.
public final class SpeechTranscriber: LocaleDependentSpeechModule, @unchecked Sendable {
    /// A ready-made combination of options.
    public struct Preset: Sendable, Equatable, Hashable {
        public var transcriptionOptions: Set<TranscriptionOption>
        public var reportingOptions: Set<ReportingOption>
        public var attributeOptions: Set<ResultAttributeOption>

        public init(
            transcriptionOptions: Set<TranscriptionOption>, reportingOptions: Set<ReportingOption>,
            attributeOptions: Set<ResultAttributeOption>
        ) {
            self.transcriptionOptions = transcriptionOptions
            self.reportingOptions = reportingOptions
            self.attributeOptions = attributeOptions
        }

        /// Final results only.
        public static let transcription = Preset(transcriptionOptions: [], reportingOptions: [], attributeOptions: [])
        /// Final results with alternative transcriptions.
        public static let transcriptionWithAlternatives = Preset(
            transcriptionOptions: [], reportingOptions: [.alternativeTranscriptions], attributeOptions: [])
        /// Final results with alternatives and per-word audio time ranges.
        public static let timeIndexedTranscriptionWithAlternatives = Preset(
            transcriptionOptions: [], reportingOptions: [.alternativeTranscriptions],
            attributeOptions: [.audioTimeRange])
        /// Volatile and final results, at a fast cadence.
        public static let progressiveTranscription = Preset(
            transcriptionOptions: [], reportingOptions: [.volatileResults, .fastResults], attributeOptions: [])
        /// Volatile and final results with per-word audio time ranges.
        public static let timeIndexedProgressiveTranscription = Preset(
            transcriptionOptions: [], reportingOptions: [.volatileResults, .fastResults],
            attributeOptions: [.audioTimeRange])
    }

    public enum TranscriptionOption: CaseIterable, Sendable, Equatable, Hashable {
        /// Masks offensive words (first letter kept, the rest as asterisks).
        case etiquetteReplacements
    }

    public enum ReportingOption: CaseIterable, Sendable, Equatable, Hashable {
        /// Tentative results while audio streams.
        case volatileResults
        /// Other likely transcriptions in `Result.alternatives`.
        case alternativeTranscriptions
        /// Volatile results as often as they change, instead of at most every half second of audio.
        case fastResults
    }

    public enum ResultAttributeOption: CaseIterable, Sendable, Equatable, Hashable {
        case audioTimeRange
        case transcriptionConfidence
    }

    /// One transcription result.
    public struct Result: SpeechModuleResult, Sendable, CustomStringConvertible, Equatable, Hashable {
        public let range: CMTimeRange
        public let resultsFinalizationTime: CMTime
        /// Best transcription first; never empty.
        public let alternatives: [AttributedString]
        /// The best transcription (the first alternative).
        public var text: AttributedString { alternatives[0] }

        public var description: String {
            "\(isFinal ? "final" : "volatile") \(range): \"\(String(text.characters))\""
        }
    }

    public let locale: Locale
    public let transcriptionOptions: Set<TranscriptionOption>
    public let reportingOptions: Set<ReportingOption>
    public let attributeOptions: Set<ResultAttributeOption>
    let channel: EngineChannel<Result>
    /// What the analyzer drives: the channel, or a faulty wrapper of it in a mutation build.
    let moduleChannel: any ModuleChannel

    public convenience init(locale: Locale, preset: Preset) {
        self.init(
            locale: locale, transcriptionOptions: preset.transcriptionOptions,
            reportingOptions: preset.reportingOptions, attributeOptions: preset.attributeOptions)
    }

    public convenience init(
        locale: Locale, transcriptionOptions: Set<TranscriptionOption>,
        reportingOptions: Set<ReportingOption>, attributeOptions: Set<ResultAttributeOption>
    ) {
        let (engine, problem) = LocaleSupport.engine(for: locale, .speech)
        self.init(
            locale: locale, transcriptionOptions: transcriptionOptions, reportingOptions: reportingOptions,
            attributeOptions: attributeOptions, engine: engine, engineProblem: problem)
    }

    /// A transcriber on a chosen engine (harness extension; Apple's initialisers use the default
    /// engine). The device's profile still applies: on hardware without SpeechTranscriber it has no
    /// engine, as with Apple's initialisers.
    @_spi(Harness) public convenience init(locale: Locale, preset: Preset, engine: any RecognitionEngine) {
        self.init(
            locale: locale, transcriptionOptions: preset.transcriptionOptions,
            reportingOptions: preset.reportingOptions,
            attributeOptions: preset.attributeOptions, engine: engine,
            engineProblem: LocaleSupport.unavailability(.speech))
    }

    /// A transcriber with explicit options on a chosen engine (harness extension).
    @_spi(Harness) public convenience init(
        locale: Locale, transcriptionOptions: Set<TranscriptionOption>, reportingOptions: Set<ReportingOption>,
        attributeOptions: Set<ResultAttributeOption>, engine: any RecognitionEngine
    ) {
        self.init(
            locale: locale, transcriptionOptions: transcriptionOptions, reportingOptions: reportingOptions,
            attributeOptions: attributeOptions, engine: engine, engineProblem: LocaleSupport.unavailability(.speech))
    }

    init(
        locale: Locale, transcriptionOptions: Set<TranscriptionOption>, reportingOptions: Set<ReportingOption>,
        attributeOptions: Set<ResultAttributeOption>, engine: (any RecognitionEngine)?, engineProblem: String?
    ) {
        self.locale = locale
        self.transcriptionOptions = transcriptionOptions
        self.reportingOptions = reportingOptions
        self.attributeOptions = attributeOptions
        var settings = TranscriptionSettings()
        settings.reportsVolatile = reportingOptions.contains(.volatileResults)
        settings.fastResults = reportingOptions.contains(.fastResults)
        settings.alternatives = reportingOptions.contains(.alternativeTranscriptions)
        settings.timeAttribute = attributeOptions.contains(.audioTimeRange)
        settings.confidenceAttribute = attributeOptions.contains(.transcriptionConfidence)
        settings.etiquette = transcriptionOptions.contains(.etiquetteReplacements)
        channel = EngineChannel(
            moduleName: "SpeechTranscriber(\(LocaleSupport.tag(locale)))", locale: LocaleSupport.tag(locale),
            engine: engineProblem == nil ? engine : nil, engineProblem: engineProblem, settings: settings
        ) { range, time, alternatives in
            Result(range: range, resultsFinalizationTime: time, alternatives: alternatives)
        }
        if let trace = APICallTrace.current {
            // A program that drops its analyzer before any result still used the API.
            trace.append(.init(api: "analyzer", kind: "start", audioTime: 0, words: []))
            channel.tracer = Self.tracer(trace)
        }
        moduleChannel = FaultPlan.channel(channel)
    }

    /// Writes published results to the API trace: each result's words with their time ranges
    /// (the run's `audioTimeRange`, else the result's range), at the audio consumed so far.
    static func tracer(_ trace: APICallTrace) -> @Sendable (EngineChannel<Result>.TraceEvent) -> Void {
        { event in
            switch event {
            case .results(let results, let consumedEnd):
                for result in results {
                    trace.append(
                        .init(
                            api: "analyzer", kind: result.isFinal ? "final" : "partial", audioTime: consumedEnd,
                            words: result.text.timedWords(fallback: result.range)))
                }
            case .end(let error):
                if let error {
                    trace.append(.init(api: "analyzer", kind: "error", audioTime: -1, words: [], detail: "\(error)"))
                }
                trace.append(.init(api: "analyzer", kind: "end", audioTime: -1, words: []))
            }
        }
    }

    /// The engine behind this transcriber (harness extension).
    @_spi(Harness) public var engine: (any RecognitionEngine)? { channel.engine }

    /// False on hardware without SpeechTranscriber (`SPEECH_HARNESS_SPEECH_TRANSCRIBER=unavailable`)
    /// or when no engine is registered.
    public static var isAvailable: Bool {
        DeviceSettings.current.speechTranscriberAvailable && !LocaleSupport.engines().isEmpty
    }
    public static var supportedLocales: [Locale] { get async { LocaleSupport.supported(.speech) } }
    public static var installedLocales: [Locale] { get async { LocaleSupport.installed(.speech) } }

    /// A supported locale equal to `locale`, or of the same language in another region; nil if none.
    public static func supportedLocale(equivalentTo locale: Locale) async -> Locale? {
        LocaleSupport.equivalent(to: locale, .speech)
    }

    public var selectedLocales: [Locale] { [locale] }

    public var availableCompatibleAudioFormats: [AVAudioFormat] {
        get async { channel.compatibleFormats.compactMap(AVAudioFormat.init) }
    }

    public var results: ModuleResults<Result> { ModuleResults(broadcast: channel.broadcast) }

    /// Everything published so far, in order (harness extension: lets a benchmark timestamp results
    /// the moment a call returns, without a concurrent reader).
    @_spi(Harness) public var publishedResults: [Result] { channel.broadcast.published }

    /// Whether the results stream has ended, and with which error (harness extension).
    @_spi(Harness) public var streamFinished: Bool { channel.broadcast.isFinished }
    @_spi(Harness) public var streamError: (any Error)? { channel.broadcast.terminationError }
}

extension SpeechTranscriber: ModuleChannelOwner {}

/// Modules built on a channel the analyzer drives.
protocol ModuleChannelOwner {
    var moduleChannel: any ModuleChannel { get }
}
