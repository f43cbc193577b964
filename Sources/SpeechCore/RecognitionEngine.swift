/// A recognised word: its text, the audio it spans, and how sure the engine is.
public struct RecognizedWord: Sendable, Hashable, Codable {
    public var text: String
    public var range: TimeRange
    /// 0…1 where the engine gives one.
    public var confidence: Double?

    public init(text: String, range: TimeRange, confidence: Double? = nil) {
        self.text = text
        self.range = range
        self.confidence = confidence
    }
}

/// A stretch of recognised speech: the words of the best hypothesis and other whole transcriptions.
public struct HypothesisSegment: Sendable, Hashable {
    /// The audio the segment accounts for (its words lie inside it).
    public var range: TimeRange
    public var words: [RecognizedWord]
    /// Other transcriptions of the same audio, best first, each as words (without the best one).
    public var alternatives: [[String]]

    public init(range: TimeRange, words: [RecognizedWord], alternatives: [[String]] = []) {
        self.range = range
        self.words = words
        self.alternatives = alternatives
    }

    public var text: String { words.map(\.text).joined(separator: " ") }
}

/// What an engine reports after it was given audio or asked to finalise.
///
/// Finalised segments never change again and arrive in time order. The volatile segment, when
/// present, replaces any earlier volatile hypothesis; nil means there is no tentative text now.
public struct HypothesisUpdate: Sendable, Hashable {
    public var finalized: [HypothesisSegment]
    public var volatile: HypothesisSegment?
    /// All audio before this time is final; it never moves backwards. Nil: unchanged.
    public var finalizedThrough: MediaTime?
    /// CPU seconds the engine spent on this call (its thread's CPU clock in process, a worker's
    /// own CPU time), when the engine measures it; benchmarks count it as compute. Nil: not
    /// measured, and the caller falls back to wall time.
    public var computeSeconds: Double?

    public init(
        finalized: [HypothesisSegment] = [], volatile: HypothesisSegment? = nil,
        finalizedThrough: MediaTime? = nil, computeSeconds: Double? = nil
    ) {
        self.finalized = finalized
        self.volatile = volatile
        self.finalizedThrough = finalizedThrough
        self.computeSeconds = computeSeconds
    }
}

/// What an engine can do, so callers and conformance scenarios know what to expect of it.
public struct EngineCapabilities: Sendable, Hashable {
    /// Tentative (volatile) hypotheses while audio streams.
    public var partialResults: Bool
    public var wordTimes: Bool
    public var alternatives: Bool
    public var confidence: Bool
    /// BCP-47 tags of supported locales, e.g. `en-US`.
    public var locales: [String]
    /// Input formats the engine accepts without conversion, best first.
    public var formats: [AudioFormat]

    public init(
        partialResults: Bool, wordTimes: Bool, alternatives: Bool, confidence: Bool,
        locales: [String], formats: [AudioFormat]
    ) {
        self.partialResults = partialResults
        self.wordTimes = wordTimes
        self.alternatives = alternatives
        self.confidence = confidence
        self.locales = locales
        self.formats = formats
    }
}

/// How a recognition session should behave.
public struct EngineSessionConfiguration: Sendable, Hashable {
    public var locale: String
    public var reportsPartialResults: Bool
    /// How many alternative transcriptions to report per segment (0: none).
    public var maximumAlternatives: Int
    /// Words and phrases likely to occur (biasing where the engine supports it).
    public var contextualStrings: [String]
    /// Free-form hints such as `shortForm`, `farField`, `dictation`.
    public var hints: Set<String>
    /// A custom language model's phrases with their weights (the legacy API's
    /// `customizedLanguageModel`); engines that can restrict or bias to them do, others ignore them.
    public var customPhrases: [CustomPhrase]
    /// Whether the caller wants word times (a transcriber asking for `audioTimeRange`); engines
    /// that pay for them (Whisper) skip them otherwise and give words their segment's range.
    public var wordTimes: Bool

    public init(
        locale: String, reportsPartialResults: Bool = true, maximumAlternatives: Int = 0,
        contextualStrings: [String] = [], hints: Set<String> = [], customPhrases: [CustomPhrase] = [],
        wordTimes: Bool = true
    ) {
        self.wordTimes = wordTimes
        self.locale = locale
        self.reportsPartialResults = reportsPartialResults
        self.maximumAlternatives = maximumAlternatives
        self.contextualStrings = contextualStrings
        self.hints = hints
        self.customPhrases = customPhrases
    }
}

/// A phrase of a custom language model and how often it is expected.
public struct CustomPhrase: Sendable, Hashable, Codable {
    public var text: String
    public var count: Int

    public init(text: String, count: Int) {
        self.text = text
        self.count = count
    }
}

/// One stream of recognition: audio in (with exact start times), hypotheses out.
///
/// Callers make one call at a time and never overlap audio. `close()` ends the session and must
/// also release any call that is blocked (it then throws `CancellationError`).
public protocol RecognitionSession: AnyObject, Sendable {
    /// Gives the engine `audio` starting at `start`; gaps since the previous audio are skipped audio.
    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate
    /// Makes everything the engine heard before `time` final and returns it.
    func finalize(through time: MediaTime) async throws -> HypothesisUpdate
    /// Drops pending work for audio before `time`: no results will be reported for it.
    func cancel(before time: MediaTime) async -> HypothesisUpdate
    /// Ends the session and releases blocked calls.
    func close() async
}

/// A session that can fail between calls: an engine in another process that dies while nobody is
/// waiting for it (audio is sent to it without waiting for replies). The handler is called at most
/// once, with the error the next call would have thrown.
public protocol FailureReportingSession: RecognitionSession {
    func onFailure(_ handler: @escaping @Sendable (any Error) -> Void) async
}

/// A speech recogniser the harness can drive: the scripted engine, the DSP engine, PocketSphinx,
/// a worker process. Identified by a short id used on the command line and in reports.
public protocol RecognitionEngine: Sendable {
    var id: String { get }
    /// The id with the settings that change results or speed, e.g. `whisper[tiny.en,int8,beam1]`:
    /// what reports call the engine, so that two runs with different settings never look like one.
    var name: String { get }
    var capabilities: EngineCapabilities { get }
    /// Whether the engine's assets (models, templates) for `locale` are present.
    func isInstalled(locale: String) -> Bool
    /// The files the engine needs for `locale`; nil when it needs none.
    func assetPackage(for locale: String) -> AssetPackage?
    /// The speakers whose recordings the engine learned `locale` from (a template engine's
    /// enrollment voices), so that figures on those voices are marked speaker-dependent; nil when
    /// it learned from none of the corpus.
    func enrolledSpeakers(locale: String) -> Set<String>?
    func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession
    /// The processes the engine keeps between sessions, or nil when it runs in this process
    /// (`EngineProcesses`). Engine values that share processes return the same object.
    var processes: (any EngineProcesses)? { get }
}

extension RecognitionEngine {
    public var name: String { id }
    public func isInstalled(locale: String) -> Bool { supports(locale: locale) }
    public func assetPackage(for locale: String) -> AssetPackage? { nil }
    public func enrolledSpeakers(locale: String) -> Set<String>? { nil }

    /// Whether the engine handles `locale` (language and, where given, region).
    public func supports(locale: String) -> Bool {
        capabilities.locales.contains { LocaleTag.equivalent($0, locale) }
    }
}

/// Engine names: an id, then the settings in brackets (`whisper[tiny.en,int8,beam1]`).
public enum EngineName {
    public static func make(id: String, settings: [String]) -> String {
        settings.isEmpty ? id : id + "[" + settings.joined(separator: ",") + "]"
    }

    /// The id a name starts with.
    public static func id(of name: String) -> String {
        name.firstIndex(of: "[").map { String(name[..<$0]) } ?? name
    }

    /// The settings a name lists.
    public static func settings(of name: String) -> [String] {
        guard let open = name.firstIndex(of: "["), name.hasSuffix("]") else { return [] }
        return name[name.index(after: open)..<name.index(before: name.endIndex)].split(separator: ",").map(String.init)
    }

    /// A setting's number without a needless fraction: 1 → "1", 0.5 → "0.5".
    public static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// BCP-47 tag helpers: `en_US`, `en-US` and `en-us` name the same locale.
public enum LocaleTag {
    /// The tag in BCP-47's usual case: language lowercase, script titlecase, region uppercase, and
    /// everything from the first single-letter extension on (`-u-rg-gbzzzz`) lowercase.
    public static func normalized(_ tag: String) -> String {
        let parts = String(tag.map { $0 == "_" ? "-" : $0 }).split(separator: "-").map(String.init)
        guard let language = parts.first?.lowercased() else { return "" }
        var inExtension = false
        let rest = parts.dropFirst().map { part -> String in
            if part.count == 1 { inExtension = true }
            if inExtension { return part.lowercased() }
            switch part.count {
            case 2: return part.uppercased()
            case 4: return part.prefix(1).uppercased() + part.dropFirst().lowercased()
            default: return part
            }
        }
        return ([language] + rest).joined(separator: "-")
    }

    /// `text` normalized when it reads as a locale identifier (a language of two or three letters,
    /// then subtags of letters and digits joined by `-` or `_`), else nil.
    public static func parse(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(\.isLetter),
            language.allSatisfy(\.isASCII),
            parts.dropFirst().allSatisfy({
                (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            })
        else { return nil }
        return normalized(text)
    }

    /// The tag without its extensions: `en-US-u-rg-gbzzzz` → `en-US`.
    public static func base(_ tag: String) -> String {
        let parts = normalized(tag).split(separator: "-")
        return parts.prefix { $0.count > 1 }.joined(separator: "-")
    }

    public static func language(_ tag: String) -> String {
        normalized(tag).split(separator: "-").first.map(String.init) ?? ""
    }

    public static func equivalent(_ a: String, _ b: String) -> Bool { normalized(a) == normalized(b) }
}

/// Files an engine needs installed for a locale (models, templates), with their checksums.
public struct AssetPackage: Sendable, Hashable {
    public struct File: Sendable, Hashable {
        public enum Source: Sendable, Hashable {
            case bytes([UInt8])
            case file(String)
        }
        public var name: String
        public var source: Source
        /// Lowercase hex SHA-256 the installed file must have.
        public var sha256: String
        public var size: Int

        public init(name: String, source: Source, sha256: String, size: Int) {
            self.name = name
            self.source = source
            self.sha256 = sha256
            self.size = size
        }

        /// A file given by its contents (checksum computed here).
        public static func contents(_ name: String, _ bytes: [UInt8]) -> File {
            File(name: name, source: .bytes(bytes), sha256: SHA256.hex(bytes), size: bytes.count)
        }
    }

    /// Unique per engine and locale, e.g. `scripted/en-US`.
    public var id: String
    public var version: Int
    public var locale: String
    public var files: [File]

    public init(id: String, version: Int, locale: String, files: [File]) {
        self.id = id
        self.version = version
        self.locale = locale
        self.files = files
    }

    public var totalBytes: Int { files.reduce(0) { $0 + $1.size } }
}
