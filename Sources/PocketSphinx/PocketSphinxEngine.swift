import Foundation
import SpeechCore

/// CMU PocketSphinx (Debian's 0.8 library and US English model) as an engine, in process.
///
/// Each session owns a fresh decoder on its own serial queue. A fresh decoder is a deliberate
/// choice: PocketSphinx adapts its cepstral normalisation from one utterance to the next, so a shared
/// decoder would make results depend on the order of utterances.
public struct PocketSphinxEngine: RecognitionEngine {
    public enum Search: String, Sendable, CaseIterable {
        /// The general n-gram language model.
        case languageModel
        /// A grammar of digit strings (zero–nine and "oh").
        case digits
    }

    public enum Decoding: String, Sendable, CaseIterable {
        /// Audio is decoded as it arrives; partial hypotheses; utterances end at the decoder's
        /// voice-activity endpoints.
        case streaming
        /// Audio is kept and decoded as one utterance when finalised (no partials; more accurate
        /// on short clips, since normalisation sees the whole utterance).
        case wholeUtterance
    }

    public let id: String
    public let search: Search
    public let decoding: Decoding
    public let capabilities: EngineCapabilities

    public init(search: Search = .languageModel, decoding: Decoding = .streaming) {
        self.search = search
        self.decoding = decoding
        id = "pocketsphinx" + (search == .digits ? "-digits" : "") + (decoding == .wholeUtterance ? "-batch" : "")
        capabilities = EngineCapabilities(
            partialResults: decoding == .streaming, wordTimes: true, alternatives: true, confidence: true,
            locales: ["en-US"],
            formats: [
                AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .float32),
                AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .int16),
            ])
    }

    /// The digits grammar the package ships (written to a file for the decoder).
    /// The words the digits grammar can say.
    static let digitWords: Set<String> = [
        "zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ]

    public static let digitsGrammar = """
        #JSGF V1.0;
        grammar digits;
        public <digits> = <digit>*;
        <digit> = zero | oh | one | two | three | four | five | six | seven | eight | nine;

        """

    static let modelFiles = ["/en-us/mdef", "/en-us/means", "/cmudict-en-us.dict", "/en-us.lm.bin"].map {
        PocketSphinxConfiguration.modelRoot + $0
    }

    public func isInstalled(locale: String) -> Bool {
        supports(locale: locale) && Self.modelFiles.allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }

    /// A weighted JSGF grammar of the custom phrases whose words the dictionary knows (the others
    /// cannot be decoded and are left out): one or more phrases per utterance. PocketSphinx 0.8
    /// cannot blend a grammar with its n-gram model, so custom phrases restrict what it hears, a
    /// stronger bias than Apple's customized language model.
    static func customGrammar(_ phrases: [CustomPhrase], dictionary: Set<String>) -> String? {
        let usable = phrases.compactMap { phrase -> (String, Int)? in
            let words = phrase.text.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init)
            guard !words.isEmpty, words.allSatisfy(dictionary.contains) else { return nil }
            return (words.joined(separator: " "), max(1, phrase.count))
        }
        guard !usable.isEmpty else { return nil }
        let alternatives = usable.map { "/\($0.1)/ \($0.0)" }.joined(separator: " | ")
        return "#JSGF V1.0;\ngrammar custom;\npublic <phrases> = <phrase>+;\n<phrase> = \(alternatives);\n"
    }

    /// The words of the pronunciation dictionary (read once).
    static let dictionaryWords: Set<String> = {
        guard
            let text = try? String(
                contentsOfFile: PocketSphinxConfiguration.modelRoot + "/cmudict-en-us.dict", encoding: .utf8)
        else { return [] }
        return Set(text.split(separator: "\n").compactMap { line in line.split(separator: " ").first.map(String.init) })
    }()

    func configuration(customPhrases: [CustomPhrase] = []) throws -> PocketSphinxConfiguration {
        if !customPhrases.isEmpty, let grammar = Self.customGrammar(customPhrases, dictionary: Self.dictionaryWords) {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "speech-harness-custom-\(SHA256.hex(Array(grammar.utf8)).prefix(16)).gram"
            ).path
            if !FileManager.default.fileExists(atPath: path) {
                try grammar.write(toFile: path, atomically: true, encoding: .utf8)
            }
            let words = Set(
                customPhrases.flatMap { $0.text.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init) })
            return try .englishGrammar(path: path, words: words.intersection(Self.dictionaryWords))
        }
        switch search {
        case .languageModel:
            return .englishLanguageModel()
        case .digits:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("speech-harness-digits.gram").path
            if (try? String(contentsOfFile: path, encoding: .utf8)) != Self.digitsGrammar {
                try Self.digitsGrammar.write(toFile: path, atomically: true, encoding: .utf8)
            }
            return try .englishGrammar(path: path, words: Self.digitWords)
        }
    }

    public func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        guard supports(locale: configuration.locale) else {
            throw EngineError.unsupportedLocale(engine: id, locale: configuration.locale)
        }
        guard isInstalled(locale: configuration.locale) else {
            throw EngineError.notInstalled(engine: id, locale: configuration.locale)
        }
        let session = PocketSphinxSession(
            decoding: decoding, reportsPartials: configuration.reportsPartialResults,
            alternatives: configuration.maximumAlternatives)
        try await session.load(try self.configuration(customPhrases: configuration.customPhrases))
        return session
    }
}

/// Decoders of closed sessions, freed when the next session loads (untimed, like its model load)
/// rather than beside another session's decoding: the two contend for malloc's locks, which
/// measured here as 5-10% on the decode. (Reusing a decoder for the next session would save its
/// load, 0.2-0.3 s of CPU, but is not exact in PocketSphinx 0.8: frame numbers and scores carry
/// over from one utterance to the next, so every session gets a new one.)
final class DecoderGraveyard: Sendable {
    static let shared = DecoderGraveyard()
    private let dead = Locked<[PocketSphinxDecoder]>([])

    func keep(_ decoder: PocketSphinxDecoder) {
        dead.withLock { $0.append(decoder) }
    }

    /// Frees the kept decoders on the calling thread.
    func bury() {
        let decoders = dead.withLock { list -> [PocketSphinxDecoder] in
            defer { list.removeAll() }
            return list
        }
        _ = decoders  // released here, when the array goes
    }
}

/// A PocketSphinx recognition session: all decoder work happens on the session's serial queue.
final class PocketSphinxSession: RecognitionSession, @unchecked Sendable {
    private let queue = DispatchQueue(label: "speech-harness.pocketsphinx")
    private let decoding: PocketSphinxEngine.Decoding
    private let reportsPartials: Bool
    private let alternatives: Int
    // Touched on `queue` only.
    private var decoder: PocketSphinxDecoder?
    private var utteranceOrigin: MediaTime?
    private var pending: [Int16] = []
    private var expectedStart: MediaTime?
    private var consumedEnd: MediaTime = .zero
    private var finalizedThrough: MediaTime = .zero
    private var wasInSpeech = false
    private var closed = false
    /// Seconds spent loading the model (for benchmarks).
    private(set) var loadSeconds = 0.0

    init(decoding: PocketSphinxEngine.Decoding, reportsPartials: Bool, alternatives: Int) {
        self.decoding = decoding
        self.reportsPartials = reportsPartials
        self.alternatives = alternatives
    }

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        // On an engine thread the call may block in place: no hand-off, no wake-up to wait for.
        if EngineThread.mayBlock { return try queue.sync(execute: body) }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    func load(_ configuration: PocketSphinxConfiguration) async throws {
        try await onQueue { [self] in
            let started = DispatchTime.now()
            DecoderGraveyard.shared.bury()
            decoder = try PocketSphinxDecoder(configuration)
            loadSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        }
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        let samples = audio.int16Channels.first ?? []
        let end = start + audio.duration
        if decoding == .wholeUtterance {
            // Only bookkeeping: keep the samples. No C call runs here, so the queue is taken
            // synchronously (no thread hop per chunk); decoding happens when finalised. Audio after
            // a gap ends the utterance in progress, which decodes it: that goes through the queue.
            let kept = try queue.sync { [self] () throws -> Bool in
                guard decoder != nil, !closed else { throw CancellationError() }
                if let expected = expectedStart, expected != start, utteranceOrigin != nil { return false }
                if utteranceOrigin == nil {
                    utteranceOrigin = start
                    if finalizedThrough < start { finalizedThrough = start }
                }
                pending += samples
                expectedStart = end
                consumedEnd = end
                return true
            }
            if kept { return HypothesisUpdate(computeSeconds: 0) }
        }
        return try await onQueue { [self] in
            let started = CPUClock.thread
            guard let decoder, !closed else { throw CancellationError() }
            var update = HypothesisUpdate()
            // Skipped audio ends the utterance in progress.
            if let expected = expectedStart, start != expected, utteranceOrigin != nil {
                try closeUtterance(decoder, at: expected, into: &update)
            }
            if utteranceOrigin == nil {
                utteranceOrigin = start
                if finalizedThrough < start { finalizedThrough = start }
                if decoding == .streaming { try decoder.startUtterance() }
                wasInSpeech = false
            }
            switch decoding {
            case .streaming:
                try decoder.process(samples, fullUtterance: false)
                let inSpeech = decoder.inSpeech
                let length = utteranceOrigin.map { (end - $0).seconds } ?? 0
                if wasInSpeech && !inSpeech {
                    try closeUtterance(decoder, at: end, into: &update)
                } else if length >= Self.longestUtterance
                    || (length >= Self.longestWordlessUtterance && decoder.words(origin: .zero).isEmpty)
                {
                    // PocketSphinx keeps every frame of an utterance, so one that never ends (a
                    // microphone left on) would grow without bound: it is ended here, at once when
                    // nothing has been heard in it, else at the longest length.
                    try closeUtterance(decoder, at: end, into: &update)
                } else if reportsPartials, let origin = utteranceOrigin {
                    let words = decoder.words(origin: origin)
                    if !words.isEmpty {
                        update.volatile = HypothesisSegment(
                            range: TimeRange(start: finalizedThrough, end: end), words: words)
                    }
                }
                wasInSpeech = inSpeech
            case .wholeUtterance:
                pending += samples
            }
            expectedStart = end
            consumedEnd = end
            update.computeSeconds = CPUClock.thread - started
            return update
        }
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await onQueue { [self] in
            let started = CPUClock.thread
            guard let decoder, !closed else { throw CancellationError() }
            var update = HypothesisUpdate()
            if utteranceOrigin != nil { try closeUtterance(decoder, at: consumedEnd, into: &update) }
            finalizedThrough = MediaTime.maximum(finalizedThrough, MediaTime.minimum(time, consumedEnd))
            update.finalizedThrough = finalizedThrough
            update.computeSeconds = CPUClock.thread - started
            return update
        }
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        (try? await onQueue { [self] in
            // The utterance in progress is dropped whole: PocketSphinx cannot cut one at a time.
            if utteranceOrigin != nil, decoding == .streaming, let decoder { try? decoder.endUtterance() }
            utteranceOrigin = nil
            pending = []
            finalizedThrough = MediaTime.maximum(finalizedThrough, consumedEnd)
            return HypothesisUpdate(finalizedThrough: finalizedThrough)
        }) ?? HypothesisUpdate()
    }

    func close() async {
        // Freeing a decoder takes milliseconds of model teardown: it is left to the next session's
        // load (see DecoderGraveyard), so closing costs the caller nothing.
        queue.async { [self] in
            closed = true
            if let decoder { DecoderGraveyard.shared.keep(decoder) }
            decoder = nil
        }
    }

    /// Seconds of audio after which a streaming utterance with no words in its hypothesis is
    /// ended and a new one begun; and after which any streaming utterance is.
    static let longestWordlessUtterance = 30.0
    static let longestUtterance = 120.0

    /// Ends the utterance in progress at `boundary` and reports its words as final.
    private func closeUtterance(
        _ decoder: PocketSphinxDecoder, at boundary: MediaTime, into update: inout HypothesisUpdate
    ) throws {
        guard let origin = utteranceOrigin else { return }
        if decoding == .wholeUtterance {
            try decoder.startUtterance()
            try decoder.process(pending, fullUtterance: true)
            pending = []
        }
        try decoder.endUtterance()
        let words = decoder.words(origin: origin)
        if !words.isEmpty {
            let alternatives = decoder.alternatives(count: alternatives, excluding: words.map(\.text))
            update.finalized.append(
                HypothesisSegment(
                    range: TimeRange(start: finalizedThrough, end: boundary), words: words,
                    alternatives: alternatives))
        }
        finalizedThrough = MediaTime.maximum(finalizedThrough, boundary)
        update.finalizedThrough = finalizedThrough
        update.volatile = nil
        utteranceOrigin = nil
    }
}
