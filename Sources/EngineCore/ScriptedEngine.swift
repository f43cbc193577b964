import Foundation
import SpeechCore

/// An engine that "recognises" exactly what its script says, at the script's times, for exact
/// conformance scenarios and for exercising Apple-style code without a real recogniser.
///
/// It never looks at the samples: only at how far the audio has got. Words become volatile text
/// `latency` seconds after they end (showing their `revisions` first), and become final at an
/// endpoint (`endpointSilence` after a word with no next word yet) or when asked.
public struct ScriptedEngine: RecognitionEngine {
    public let id = "scripted"
    public let script: EngineScript
    public let capabilities: EngineCapabilities

    public static let defaultLocales = [
        "en-US", "en-GB", "es-MX", "es-ES", "fr-CA", "fr-FR", "it-IT", "ru-RU", "de-DE",
    ]

    /// Whether the engine pretends to need an installed asset per locale (to exercise AssetInventory).
    public let requiresAssets: Bool
    /// Fires when a session reaches a planted stall: from then on the analyzer's engine work is
    /// stuck by design, which a harness waiting for it to settle needs to know.
    public let stalled = OneShot()

    public init(
        script: EngineScript, locales: [String] = ScriptedEngine.defaultLocales, sampleRate: Double = 16_000,
        requiresAssets: Bool = false
    ) {
        self.script = script
        self.requiresAssets = requiresAssets
        capabilities = EngineCapabilities(
            partialResults: true, wordTimes: true, alternatives: true, confidence: true, locales: locales,
            formats: [
                AudioFormat(sampleRate: sampleRate, channelCount: 1, sampleType: .float32),
                AudioFormat(sampleRate: sampleRate, channelCount: 1, sampleType: .int16),
            ])
    }

    /// A small descriptor file per locale, when ``requiresAssets`` is set.
    public func assetPackage(for locale: String) -> AssetPackage? {
        guard requiresAssets, supports(locale: locale) else { return nil }
        let tag = LocaleTag.normalized(locale)
        let descriptor = Array("{\"engine\":\"scripted\",\"locale\":\"\(tag)\",\"version\":1}\n".utf8)
        return AssetPackage(
            id: "scripted/\(tag)", version: 1, locale: tag, files: [.contents("engine.json", descriptor)])
    }

    public func isInstalled(locale: String) -> Bool { assetsInstalled(locale: locale) }

    public func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        guard supports(locale: configuration.locale) else {
            throw EngineError.unsupportedLocale(engine: id, locale: configuration.locale)
        }
        guard isInstalled(locale: configuration.locale) else {
            throw EngineError.notInstalled(engine: id, locale: configuration.locale)
        }
        return ScriptedSession(script: script, configuration: configuration, stalled: stalled)
    }
}

/// The pure part of the scripted engine: which words are final or volatile at a given audio time.
struct ScriptedRecognizer: Sendable {
    let script: EngineScript
    let configuration: EngineSessionConfiguration
    /// Index of the first word not yet finalised or dropped.
    private(set) var next = 0
    private(set) var heardThrough: Double = 0
    private(set) var finalizedThrough: Double = 0

    init(script: EngineScript, configuration: EngineSessionConfiguration) {
        self.script = script
        self.configuration = configuration
    }

    static func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, preferredTimescale: 1_000_000) }

    private var heardAnything = false
    /// Words lost in skipped audio while earlier words were still pending.
    private var dropped: Set<Int> = []

    /// Audio from `start` to `end` (seconds) has arrived. Words that began in audio never heard
    /// (before the first buffer, or in a skipped gap) are not recognised.
    mutating func hear(from start: Double, through end: Double) -> HypothesisUpdate {
        if !heardAnything || start > heardThrough + 1e-9 {
            // Words not heard in full before the gap (or before the first audio) are lost; words
            // heard completely stay pending.
            let heardBefore = heardAnything ? heardThrough : -Double.infinity
            var kept: [EngineScript.Word] = []
            var index = next
            while index < script.words.count, script.words[index].start < start {
                if script.words[index].end <= heardBefore + 1e-9 { kept.append(script.words[index]) }
                index += 1
            }
            if kept.isEmpty {
                next = index
            } else {
                dropped.formUnion((next..<index).filter { script.words[$0].end > heardBefore + 1e-9 })
            }
            if !heardAnything { finalizedThrough = max(finalizedThrough, start) }
            heardAnything = true
        }
        heardThrough = max(heardThrough, end)
        var update = HypothesisUpdate()
        // Autonomous endpoints: a word followed by enough silence ends its segment.
        if let silence = script.endpointSilence {
            var last = next
            while last < script.words.count {
                let word = script.words[last]
                let following = last + 1 < script.words.count ? script.words[last + 1].start : Double.infinity
                let endpoint = word.end + silence
                if following - word.end >= silence && heardThrough >= endpoint + script.latency {
                    update.finalized.append(contentsOf: finalize(upTo: last, boundary: endpoint))
                    update.finalizedThrough = Self.time(finalizedThrough)
                    last = next
                } else if word.end + script.latency > heardThrough {
                    break
                } else {
                    last += 1
                }
            }
        }
        update.volatile = volatileSegment()
        return update
    }

    /// Makes words final through `boundary` (words straddling it are kept if heard in full, else dropped).
    mutating func finalize(through boundary: Double) -> HypothesisUpdate {
        var end = boundary
        var lastIncluded = next - 1
        var index = next
        while index < script.words.count, script.words[index].start < boundary {
            let word = script.words[index]
            if word.end <= heardThrough + 1e-9 {
                lastIncluded = index
                end = max(end, word.end)
            }
            index += 1
        }
        var update = HypothesisUpdate()
        // Words that began before the boundary but were not heard in full are cut off.
        let segments = finalize(upTo: lastIncluded, boundary: end)
        next = max(next, index)
        finalizedThrough = max(finalizedThrough, end)
        update.finalized = segments
        update.finalizedThrough = Self.time(finalizedThrough)
        update.volatile = volatileSegment()
        return update
    }

    mutating func cancel(before time: Double) -> HypothesisUpdate {
        while next < script.words.count, script.words[next].start < time { next += 1 }
        finalizedThrough = max(finalizedThrough, time)
        return HypothesisUpdate(volatile: volatileSegment(), finalizedThrough: Self.time(finalizedThrough))
    }

    /// Final segment for words `next…last` ending at `boundary`; advances the finalised point.
    private mutating func finalize(upTo last: Int, boundary: Double) -> [HypothesisSegment] {
        let start = finalizedThrough
        finalizedThrough = max(finalizedThrough, boundary)
        guard last >= next else { return [] }
        let words = (next...last).filter { !dropped.contains($0) }.map { script.words[$0] }
        guard !words.isEmpty else {
            next = last + 1
            return []
        }
        next = last + 1
        return [segment(words, from: start, to: finalizedThrough, final: true)]
    }

    private func volatileSegment() -> HypothesisSegment? {
        guard configuration.reportsPartialResults else { return nil }
        var shown: [EngineScript.Word] = []
        for (offset, word) in script.words[next...].enumerated() where !dropped.contains(next + offset) {
            let visibleAt = word.end + script.latency
            guard heardThrough >= visibleAt else { break }
            var display = word
            if let revisions = word.revisions, !revisions.isEmpty {
                let step = Int((heardThrough - visibleAt) / max(script.revisionInterval, 1e-9) + 1e-9)
                if step < revisions.count { display.text = revisions[step] }
            }
            shown.append(display)
        }
        guard !shown.isEmpty else { return nil }
        return segment(shown, from: finalizedThrough, to: max(heardThrough, finalizedThrough), final: false)
    }

    private func segment(
        _ words: [EngineScript.Word], from start: Double, to end: Double, final: Bool
    ) -> HypothesisSegment {
        let recognized = words.map { word in
            RecognizedWord(
                text: word.text, range: TimeRange(start: Self.time(word.start), end: Self.time(word.end)),
                confidence: word.confidence ?? 1.0)
        }
        var alternatives: [[String]] = []
        if configuration.maximumAlternatives > 0 {
            outer: for (i, word) in words.enumerated() {
                for alternative in word.alternatives ?? [] {
                    var texts = words.map(\.text)
                    texts[i] = alternative
                    alternatives.append(texts)
                    if alternatives.count >= configuration.maximumAlternatives { break outer }
                }
            }
        }
        return HypothesisSegment(
            range: TimeRange(start: Self.time(start), end: Self.time(end)), words: recognized,
            alternatives: alternatives)
    }
}

/// A scripted recognition session: the pure recogniser behind a lock, plus planted faults.
final class ScriptedSession: RecognitionSession {
    private struct State {
        var recognizer: ScriptedRecognizer
        var closed = false
        var stalled: [CheckedContinuation<Void, Error>] = []
        var firedFaults: Set<Int> = []
    }

    private let state: Locked<State>
    private let faults: [EngineScript.Fault]
    private let stalled: OneShot

    init(script: EngineScript, configuration: EngineSessionConfiguration, stalled: OneShot) {
        state = Locked(State(recognizer: ScriptedRecognizer(script: script, configuration: configuration)))
        faults = script.faults
        self.stalled = stalled
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        let begin = start.seconds
        let end = (start + audio.duration).seconds
        for (index, fault) in faults.enumerated() {
            switch fault {
            case .throwAt(let time, let message) where end >= time:
                throw EngineError.failed(engine: "scripted", reason: message)
            case .stallAt(let time) where end >= time:
                let fire = state.withLock { $0.firedFaults.insert(index).inserted }
                if fire { try await stall() }
            default:
                break
            }
        }
        return try state.withLock { state in
            if state.closed { throw CancellationError() }
            return state.recognizer.hear(from: begin, through: end)
        }
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        for case .failFinalize(let message) in faults {
            throw EngineError.failed(engine: "scripted", reason: message)
        }
        for case .slowFinalize(let yields) in faults {
            for _ in 0..<yields { await Task.yield() }
        }
        return try state.withLock { state in
            if state.closed { throw CancellationError() }
            return state.recognizer.finalize(through: time.seconds)
        }
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        state.withLock { $0.recognizer.cancel(before: time.seconds) }
    }

    func close() async {
        let stalled = state.withLock { state -> [CheckedContinuation<Void, Error>] in
            state.closed = true
            defer { state.stalled = [] }
            return state.stalled
        }
        stalled.forEach { $0.resume(throwing: CancellationError()) }
    }

    /// Blocks until `close()`.
    private func stall() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            let closed = state.withLock { state -> Bool in
                if state.closed { return true }
                state.stalled.append(continuation)
                return false
            }
            if closed { continuation.resume(throwing: CancellationError()) } else { stalled.fire() }
        }
    }
}
extension ScriptedEngine {
    /// The scripted engine with the script named by `SPEECH_HARNESS_SCRIPT` (a script JSON file, or
    /// `manifest.jsonl#id` for a corpus utterance's word times); an empty script without it.
    public static func fromEnvironment(
        _ environment: [String: String] = HarnessContext.current.environment.variables
    ) throws -> ScriptedEngine {
        guard let path = HarnessSettings.script.text(in: environment) else {
            return ScriptedEngine(script: EngineScript(words: []))
        }
        return ScriptedEngine(script: try EngineScript.load(path: path))
    }
}
