import CPocketSphinx
import Foundation
import SpeechCore

/// How to set up a PocketSphinx decoder (Debian's pocketsphinx-en-us model by default).
public struct PocketSphinxConfiguration: Sendable, Hashable {
    public enum Search: Sendable, Hashable {
        /// The n-gram language model (`-lm`).
        case languageModel(path: String)
        /// A JSGF grammar file (`-jsgf`).
        case grammar(path: String)
    }

    public var acousticModel: String
    public var dictionary: String
    public var search: Search
    public var sampleRate: Double = 16_000
    /// Where the library's log goes (never stderr).
    public var logFile: String

    public static let modelRoot = "/usr/share/pocketsphinx/model/en-us"

    public static func englishLanguageModel(
        logFile: String = PocketSphinxConfiguration.defaultLogFile
    ) -> PocketSphinxConfiguration {
        PocketSphinxConfiguration(
            acousticModel: modelRoot + "/en-us", dictionary: modelRoot + "/cmudict-en-us.dict",
            search: .languageModel(path: modelRoot + "/en-us.lm.bin"), logFile: logFile)
    }

    /// A grammar search. With `words` (every word the grammar can say), the decoder loads only
    /// their pronunciations instead of the whole 134,000-word dictionary: the load drops from about
    /// a quarter of a second to a few milliseconds per session, and a grammar search never uses
    /// other entries, so what it hears is the same.
    public static func englishGrammar(
        path: String, words: Set<String>? = nil,
        logFile: String = PocketSphinxConfiguration.defaultLogFile
    ) throws -> PocketSphinxConfiguration {
        let full = modelRoot + "/cmudict-en-us.dict"
        let dictionary = try words.map { try subsetDictionary(of: full, words: $0) } ?? full
        return PocketSphinxConfiguration(
            acousticModel: modelRoot + "/en-us", dictionary: dictionary, search: .grammar(path: path), logFile: logFile)
    }

    /// The entries of `dictionary` for `words` (alternative pronunciations included), written once
    /// to a file named by their checksum. Made once per process for each word set: filtering the
    /// 134,000-line dictionary costs about 0.3 s, more than the decoder's own load.
    static func subsetDictionary(of dictionary: String, words: Set<String>) throws -> String {
        let key = SubsetKey(dictionary: dictionary, words: words)
        if let path = subsets.withLock({ $0[key] }) { return path }
        let path = try writeSubsetDictionary(of: dictionary, words: words)
        subsets.withLock { $0[key] = path }
        return path
    }

    private struct SubsetKey: Hashable {
        var dictionary: String
        var words: Set<String>
    }

    private static let subsets = Locked<[SubsetKey: String]>([:])

    private static func writeSubsetDictionary(of dictionary: String, words: Set<String>) throws -> String {
        guard let text = try? String(contentsOfFile: dictionary, encoding: .utf8) else {
            throw EngineError.notInstalled(engine: "pocketsphinx", locale: "en-US (no dictionary at \(dictionary))")
        }
        let lines = text.split(separator: "\n").filter { line in
            guard let head = line.split(separator: " ", maxSplits: 1).first else { return false }
            let word = head.firstIndex(of: "(").map { head[..<$0] } ?? head
            return words.contains(String(word))
        }
        let contents = lines.joined(separator: "\n") + "\n"
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("speech-harness-dict-\(SHA256.hex(Array(contents.utf8)).prefix(16)).dict").path
        if (try? String(contentsOfFile: path, encoding: .utf8)) != contents {
            do { try contents.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                throw EngineError.failed(engine: "pocketsphinx", reason: "cannot write \(path): \(error)")
            }
        }
        return path
    }

    public static var defaultLogFile: String {
        let directory =
            HarnessSettings.logDirectory.text(in: HarnessContext.current.environment.variables)
            ?? FileManager.default.temporaryDirectory.path
        return directory + "/speech-harness-pocketsphinx.log"
    }

    var arguments: [String] {
        // Silence removal would drop frames before decoding and shift every word time; the decoder
        // keeps all frames and its voice-activity state is still reported.
        var args = [
            "-hmm", acousticModel, "-dict", dictionary, "-samprate", String(Int(sampleRate)), "-remove_silence", "no",
        ]
        switch search {
        case .languageModel(let path): args += ["-lm", path]
        case .grammar(let path): args += ["-jsgf", path]
        }
        return args
    }
}

/// One PocketSphinx decoder. Not thread-safe: the session that owns it calls it from one serial
/// queue only (long C calls never run on Swift's cooperative pool).
final class PocketSphinxDecoder {
    private let decoder: OpaquePointer
    private let config: OpaquePointer
    let frameRate: Double = 100

    /// The library keeps its log file in a process-wide variable: it is set once, and decoders are
    /// created one at a time (two threads in ps_init closed each other's log file and hung in stdio).
    private static let setUp = Locked<String?>(nil)

    init(_ configuration: PocketSphinxConfiguration) throws {
        let (decoder, config) = try PocketSphinxDecoder.setUp.withLock { logFile -> (OpaquePointer, OpaquePointer) in
            if logFile != configuration.logFile {
                err_set_logfile(configuration.logFile)
                logFile = configuration.logFile
            }
            return try PocketSphinxDecoder.create(configuration)
        }
        self.decoder = decoder
        self.config = config
    }

    private static func create(_ configuration: PocketSphinxConfiguration) throws -> (OpaquePointer, OpaquePointer) {
        var argv = configuration.arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let parsed = argv.withUnsafeMutableBufferPointer { buffer in
            cmd_ln_parse_r(nil, ps_args(), Int32(buffer.count), buffer.baseAddress, 1)
        }
        guard let parsed else {
            throw EngineError.failed(
                engine: "pocketsphinx",
                reason: "invalid configuration \(configuration.arguments.joined(separator: " "))")
        }
        guard let decoder = ps_init(parsed) else {
            cmd_ln_free_r(parsed)
            throw EngineError.failed(
                engine: "pocketsphinx",
                reason: "cannot load the model (see \(configuration.logFile)): \(configuration.acousticModel)")
        }
        return (decoder, parsed)
    }

    deinit {
        ps_free(decoder)
        cmd_ln_free_r(config)
    }

    func startUtterance() throws {
        guard ps_start_utt(decoder) >= 0 else {
            throw EngineError.failed(engine: "pocketsphinx", reason: "ps_start_utt failed")
        }
    }

    func endUtterance() throws {
        guard ps_end_utt(decoder) >= 0 else {
            throw EngineError.failed(engine: "pocketsphinx", reason: "ps_end_utt failed")
        }
    }

    /// Decodes samples; `fullUtterance` tells the decoder this is all of the utterance.
    func process(_ samples: [Int16], fullUtterance: Bool) throws {
        let status = samples.withUnsafeBufferPointer {
            ps_process_raw(decoder, $0.baseAddress, $0.count, 0, fullUtterance ? 1 : 0)
        }
        guard status >= 0 else { throw EngineError.failed(engine: "pocketsphinx", reason: "ps_process_raw failed") }
    }

    var inSpeech: Bool { ps_get_in_speech(decoder) != 0 }

    /// The current best hypothesis text (filler words removed).
    func hypothesis() -> [String] {
        var score: Int32 = 0
        guard let text = ps_get_hyp(decoder, &score) else { return [] }
        return String(cString: text).split(separator: " ").compactMap { PocketSphinxDecoder.clean(String($0)) }
    }

    /// Words of the best path with times (offset by `origin`) and posterior confidences.
    func words(origin: MediaTime) -> [RecognizedWord] {
        var words: [RecognizedWord] = []
        let logmath = ps_get_logmath(decoder)
        var iterator = ps_seg_iter(decoder)
        while let segment = iterator {
            if let raw = ps_seg_word(segment), let word = PocketSphinxDecoder.clean(String(cString: raw)) {
                var startFrame: Int32 = 0, endFrame: Int32 = 0
                ps_seg_frames(segment, &startFrame, &endFrame)
                var acoustic: Int32 = 0, language: Int32 = 0, backoff: Int32 = 0
                let posterior = ps_seg_prob(segment, &acoustic, &language, &backoff)
                let confidence = logmath.map { min(1, max(0, logmath_exp($0, posterior))) }
                let start = origin + MediaTime(value: Int64(startFrame), timescale: 100)
                let end = origin + MediaTime(value: Int64(endFrame + 1), timescale: 100)
                words.append(
                    RecognizedWord(text: word, range: TimeRange(start: start, end: end), confidence: confidence))
            }
            iterator = ps_seg_next(segment)
        }
        return words
    }

    /// Up to `count` other whole hypotheses of the last utterance.
    func alternatives(count: Int, excluding best: [String]) -> [[String]] {
        guard count > 0 else { return [] }
        var out: [[String]] = []
        var iterator = ps_nbest(decoder)
        var seen = 0
        while let nbest = iterator, out.count < count, seen < 50 {
            seen += 1
            var score: Int32 = 0
            if let text = ps_nbest_hyp(nbest, &score) {
                let words = String(cString: text).split(separator: " ").compactMap {
                    PocketSphinxDecoder.clean(String($0))
                }
                if words != best && !words.isEmpty && !out.contains(words) { out.append(words) }
            }
            iterator = ps_nbest_next(nbest)
        }
        if let iterator { ps_nbest_free(iterator) }
        return out
    }

    /// Drops silence and noise markers and alternate-pronunciation suffixes: `word(2)` → `word`.
    static func clean(_ token: String) -> String? {
        if token.hasPrefix("<") || token.hasPrefix("[") || token.hasPrefix("++") { return nil }
        var word = token
        if let paren = token.firstIndex(of: "("), token.hasSuffix(")") { word = String(token[..<paren]) }
        return word.isEmpty ? nil : word
    }
}
