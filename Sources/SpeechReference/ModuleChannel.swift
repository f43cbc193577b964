import AVFAudio
import CoreMedia
import Foundation
import SpeechCore

/// What the analyzer needs of a module, whatever its kind. The analyzer calls these one at a time.
protocol ModuleChannel: AnyObject, Sendable {
    var moduleName: String { get }
    /// Formats the module accepts as they are (the analyzer never converts).
    var compatibleFormats: [AudioFormat] { get }
    /// Whether the module's engine and assets are present (else no format can be recommended).
    var isReady: Bool { get }
    /// The engine and locale whose assets the module needs; nil for modules without assets.
    var assetNeeds: (engine: (any RecognitionEngine)?, locale: String)? { get }
    /// The backing engine configuration shared by similar modules (for the resource limit); nil: none.
    var resourceKey: String? { get }
    /// Makes the module belong to `analyzer` for good; false when another analyzer has it.
    func claim(by analyzer: ObjectIdentifier) -> Bool
    /// Prepares for analysis (engine session, model). Idempotent. `onEngineFailure` hears of an
    /// engine that fails between calls.
    func open(context: AnalysisContext, onEngineFailure: @escaping @Sendable (any Error) -> Void) async throws
    /// Analyses `buffer` (starting at `start`); `end` is where consumed audio now ends.
    func process(_ buffer: PCMBuffer, at start: MediaTime, end: MediaTime) async throws
    /// Makes results final through `time` and publishes them.
    func finalize(through time: MediaTime, consumedEnd: MediaTime) async throws
    /// Drops pending results for audio before `time`.
    func cancel(before time: MediaTime, consumedEnd: MediaTime) async
    /// Audio before this time has final results.
    var finalizedThrough: MediaTime { get }
    /// Ends the results stream (with `error`, or normally); later results are dropped.
    func endResults(throwing error: (any Error)?)
    /// Releases the engine session; a blocked engine call is released with `CancellationError`.
    func close() async
}

/// Which analyzer a module belongs to: the first that claims it, for good.
final class ModuleOwnership: Sendable {
    private let owner = Locked<ObjectIdentifier?>(nil)

    /// True when `analyzer` now owns the module (or already did).
    func claim(by analyzer: ObjectIdentifier) -> Bool {
        owner.withLock { owner in
            if let current = owner { return current == analyzer }
            owner = analyzer
            return true
        }
    }
}

/// Options shared by the transcribers, in engine terms.
struct TranscriptionSettings: Sendable, Hashable {
    var reportsVolatile = false
    var fastResults = false
    var alternatives = false
    var timeAttribute = false
    var confidenceAttribute = false
    var etiquette = false
    var punctuation = false
    var emoji = false
    var hints: Set<String> = []

    /// Audio between volatile results when `fastResults` is off.
    static let normalVolatileInterval = MediaTime(value: 1, timescale: 2)
}

#if SPEECH_HARNESS_MUTATIONS
    /// How a channel labels what it publishes: Apple's rules, or one broken by the mutation check.
    struct PublishingRules: Equatable, Sendable {
        /// A final result's finalisation time is at least its end, so it reads as final; broken, it
        /// is the result's start.
        var finalResultsCarryTheirEnd = true
        /// Word runs carry time ranges only when `audioTimeRange` was asked for; broken, always.
        var timesOnlyWhenAsked = true

        static let documented = PublishingRules()
    }
#else
    /// How a channel labels what it publishes: Apple's rules, as constants in a release build.
    struct PublishingRules: Equatable, Sendable {
        var finalResultsCarryTheirEnd: Bool { true }
        var timesOnlyWhenAsked: Bool { true }

        static let documented = PublishingRules()
    }
#endif

/// A transcriber's engine session and result publishing: turns engine hypotheses into results with
/// Apple's rules (isFinal from the finalisation time; volatile text replaced, or revoked by an empty
/// result; alternatives never empty, first equal to the text).
final class EngineChannel<R: Sendable>: ModuleChannel, @unchecked Sendable {
    let moduleName: String
    let locale: String
    let engine: (any RecognitionEngine)?
    let engineProblem: String?
    let settings: TranscriptionSettings
    let broadcast = ResultBroadcast<R>()
    private let makeResult: @Sendable (CMTimeRange, CMTime, [AttributedString]) -> R
    private let rules = FaultPlan.publishingRules

    private let ownership = ModuleOwnership()

    private struct State {
        var session: (any RecognitionSession)?
        var finalized: MediaTime = .zero
        var volatile: (range: TimeRange, text: String)?
        var lastVolatileAt: MediaTime?
        var heardAnything = false
        var ended = false
    }
    private let state = Locked(State())

    /// What the channel publishes, for the process's API trace (set by modules that trace).
    enum TraceEvent {
        case results([R], consumedEnd: Double)
        case end((any Error)?)
    }
    var tracer: (@Sendable (TraceEvent) -> Void)?

    init(
        moduleName: String, locale: String, engine: (any RecognitionEngine)?, engineProblem: String?,
        settings: TranscriptionSettings, makeResult: @escaping @Sendable (CMTimeRange, CMTime, [AttributedString]) -> R
    ) {
        self.moduleName = moduleName
        self.locale = locale
        self.engine = engine
        self.engineProblem = engineProblem
        self.settings = settings
        self.makeResult = makeResult
    }

    var compatibleFormats: [AudioFormat] { engine?.capabilities.formats ?? [] }
    var isReady: Bool { engine.map { $0.isInstalled(locale: locale) } ?? false }
    var assetNeeds: (engine: (any RecognitionEngine)?, locale: String)? { (engine, locale) }
    var resourceKey: String? { engine.map { "\($0.id):\(LocaleTag.normalized(locale))" } }
    var finalizedThrough: MediaTime { state.withLock { $0.finalized } }

    func claim(by analyzer: ObjectIdentifier) -> Bool { ownership.claim(by: analyzer) }

    func open(context: AnalysisContext, onEngineFailure: @escaping @Sendable (any Error) -> Void) async throws {
        if state.withLock({ $0.session != nil }) { return }
        guard let engine else {
            throw SFSpeechError(
                .noModel, "\(moduleName): no engine for \(locale): \(engineProblem ?? "none registered")")
        }
        guard engine.isInstalled(locale: locale) else {
            throw SFSpeechError(.noModel, "\(moduleName): assets for \(locale) are not installed (engine \(engine.id))")
        }
        let configuration = EngineSessionConfiguration(
            locale: locale, reportsPartialResults: settings.reportsVolatile,
            maximumAlternatives: settings.alternatives ? 4 : 0,
            contextualStrings: context.allContextualStrings, hints: settings.hints, wordTimes: settings.timeAttribute)
        let session = try await engine.makeSession(configuration)
        await (session as? any FailureReportingSession)?.onFailure(onEngineFailure)
        state.withLock { $0.session = session }
    }

    func process(_ buffer: PCMBuffer, at start: MediaTime, end: MediaTime) async throws {
        let session = state.withLock { state -> (any RecognitionSession)? in
            // Nothing before a module's first audio can be reported by it.
            if !state.heardAnything {
                state.heardAnything = true
                state.finalized = MediaTime.maximum(state.finalized, start)
            }
            return state.session
        }
        guard let session else { return }
        let update = try await session.accept(buffer, at: start)
        apply(update, consumedEnd: end)
    }

    func finalize(through time: MediaTime, consumedEnd: MediaTime) async throws {
        guard let session = state.withLock({ $0.session }) else { return }
        var update = try await session.finalize(through: time)
        // Whatever the engine did, audio through `time` is final now.
        update.finalizedThrough = MediaTime.maximum(update.finalizedThrough ?? time, time)
        apply(update, consumedEnd: consumedEnd)
    }

    func cancel(before time: MediaTime, consumedEnd: MediaTime) async {
        guard let session = state.withLock({ $0.session }) else { return }
        var update = await session.cancel(before: time)
        update.finalizedThrough = MediaTime.maximum(update.finalizedThrough ?? time, time)
        apply(update, consumedEnd: consumedEnd)
    }

    func endResults(throwing error: (any Error)?) {
        state.withLock { $0.ended = true }
        broadcast.finish(throwing: error)
        tracer?(.end(error))
    }

    func close() async {
        let session = state.withLock { state -> (any RecognitionSession)? in
            state.ended = true
            defer { state.session = nil }
            return state.session
        }
        await session?.close()
    }

    /// Publishes what an engine update means for this module's results.
    private func apply(_ update: HypothesisUpdate, consumedEnd: MediaTime) {
        let results = state.withLock { state -> [R] in
            guard !state.ended else { return [] }
            var out: [R] = []
            if let through = update.finalizedThrough { state.finalized = MediaTime.maximum(state.finalized, through) }
            for segment in update.finalized {
                let finalization = MediaTime.maximum(state.finalized, segment.range.end)
                state.finalized = finalization
                out.append(result(for: segment, finalization: finalization, final: true))
            }
            let emittedFinal = !update.finalized.isEmpty
            let volatileSegment = settings.reportsVolatile ? update.volatile.map(clipped(to: state.finalized)) : nil
            let volatileText = volatileSegment.map { text(of: $0.words, final: false) } ?? ""
            if let segment = volatileSegment, !volatileText.isEmpty {
                let due =
                    settings.fastResults || emittedFinal || state.lastVolatileAt == nil || state.volatile == nil
                    || consumedEnd - state.lastVolatileAt! >= TranscriptionSettings.normalVolatileInterval
                if volatileText != state.volatile?.text && due {
                    out.append(result(for: segment, finalization: state.finalized, final: false))
                    state.volatile = (segment.range, volatileText)
                    state.lastVolatileAt = consumedEnd
                }
            } else if let previous = state.volatile {
                // Earlier volatile text has no successor: revoke it with an empty result for its range.
                if state.finalized < consumedEnd {
                    out.append(
                        makeResult(
                            TimeRange(start: state.finalized, end: consumedEnd), state.finalized, [AttributedString()]))
                } else if !emittedFinal {
                    let range = TimeRange(
                        start: MediaTime.minimum(previous.range.start, state.finalized), end: state.finalized)
                    out.append(makeResult(range, state.finalized, [AttributedString()]))
                }
                state.volatile = nil
            }
            return out
        }
        results.forEach(broadcast.publish)
        if let tracer, !results.isEmpty { tracer(.results(results, consumedEnd: consumedEnd.seconds)) }
    }

    private func clipped(to finalized: MediaTime) -> (HypothesisSegment) -> HypothesisSegment {
        { segment in
            var copy = segment
            if copy.range.start < finalized {
                copy.range = TimeRange(start: finalized, end: MediaTime.maximum(finalized, segment.range.end))
            }
            return copy
        }
    }

    private func result(for segment: HypothesisSegment, finalization: MediaTime, final: Bool) -> R {
        let best = attributed(TextRules.apply(segment.words, settings: settings, final: final))
        var alternatives = [best]
        if settings.alternatives {
            for alternative in segment.alternatives {
                let words = alternative.map { RecognizedWord(text: $0, range: segment.range) }
                alternatives.append(
                    AttributedString(
                        TextRules.join(TextRules.apply(words, settings: settings, final: final).map(\.text))))
            }
        }
        let time = final && !rules.finalResultsCarryTheirEnd ? segment.range.start : finalization
        return makeResult(segment.range, time, alternatives)
    }

    private func text(of words: [RecognizedWord], final: Bool) -> String {
        TextRules.join(TextRules.apply(words, settings: settings, final: final).map(\.text))
    }

    /// Words joined by spaces; each word's run carries its time range and confidence when asked.
    /// The text is made in one piece and the attributes set on its runs afterwards: appending a
    /// piece per word costs ten times as much on Linux's Foundation (about 0.1 ms per result).
    private func attributed(_ words: [RecognizedWord]) -> AttributedString {
        let times = settings.timeAttribute || !rules.timesOnlyWhenAsked
        var text = AttributedString(TextRules.join(words.map(\.text)))
        guard times || settings.confidenceAttribute else { return text }
        var start = text.startIndex
        for (i, word) in words.enumerated() {
            if i > 0 && !TextRules.attachesToPrevious(word.text) { start = text.unicodeScalars.index(after: start) }
            let end = text.unicodeScalars.index(start, offsetBy: word.text.unicodeScalars.count)
            if times { text[start..<end][AttributeScopes.SpeechAttributes.TimeRangeAttribute.self] = word.range }
            if settings.confidenceAttribute, let confidence = word.confidence {
                text[start..<end][AttributeScopes.SpeechAttributes.ConfidenceAttribute.self] = confidence
            }
            start = end
        }
        return text
    }
}

/// Text options applied to recognised words: etiquette replacements, spoken punctuation and
/// automatic sentence punctuation, emoji names.
enum TextRules {
    static let masked: Set<String> = ["damn", "hell", "shit", "fuck", "bitch", "bastard", "crap"]
    static let spokenPunctuation: [[String]: String] = [
        ["comma"]: ",", ["period"]: ".", ["full", "stop"]: ".", ["question", "mark"]: "?",
        ["exclamation", "point"]: "!", ["exclamation", "mark"]: "!", ["colon"]: ":", ["semicolon"]: ";",
    ]
    static let emojiNames: [[String]: String] = [
        ["smiley", "emoji"]: "😀", ["heart", "emoji"]: "❤️", ["thumbs", "up", "emoji"]: "👍",
        ["sad", "face", "emoji"]: "😢", ["laughing", "emoji"]: "😂", ["fire", "emoji"]: "🔥",
    ]

    static func apply(_ words: [RecognizedWord], settings: TranscriptionSettings, final: Bool) -> [RecognizedWord] {
        var out = words
        if settings.etiquette {
            out = out.map { word in
                var w = word
                if masked.contains(word.text.lowercased()), let first = word.text.first {
                    w.text = String(first) + String(repeating: "*", count: word.text.count - 1)
                }
                return w
            }
        }
        if settings.emoji { out = merge(out, table: emojiNames) }
        if settings.punctuation {
            out = merge(out, table: spokenPunctuation)
            if let first = out.first, !first.text.isEmpty {
                out[0].text = first.text.prefix(1).uppercased() + first.text.dropFirst()
            }
            if final, let last = out.last, let mark = last.text.last, !".?!".contains(mark) {
                out.append(
                    RecognizedWord(
                        text: ".", range: TimeRange(start: last.range.end, duration: .zero), confidence: last.confidence
                    ))
            }
        }
        return out
    }

    /// Replaces word sequences found in `table` by one token spanning their audio.
    static func merge(_ words: [RecognizedWord], table: [[String]: String]) -> [RecognizedWord] {
        var out: [RecognizedWord] = []
        var i = 0
        let lengths = Set(table.keys.map(\.count)).sorted(by: >)
        outer: while i < words.count {
            for n in lengths where i + n <= words.count {
                let key = words[i..<i + n].map { $0.text.lowercased() }
                if let replacement = table[key] {
                    let confidences = words[i..<i + n].compactMap(\.confidence)
                    out.append(
                        RecognizedWord(
                            text: replacement, range: words[i].range.union(words[i + n - 1].range),
                            confidence: confidences.min()))
                    i += n
                    continue outer
                }
            }
            out.append(words[i])
            i += 1
        }
        return out
    }

    static func attachesToPrevious(_ token: String) -> Bool {
        guard let first = token.first else { return false }
        return ",.?!:;".contains(first)
    }

    static func join(_ tokens: [String]) -> String {
        var text = ""
        for (i, token) in tokens.enumerated() {
            if i > 0 && !attachesToPrevious(token) { text += " " }
            text += token
        }
        return text
    }
}
