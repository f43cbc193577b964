import AudioIO
import Foundation
import Metrics
import SpeechCore

/// Builds the default corpus from Debian packages into an output folder, one sub-folder per tier,
/// each with `manifest.jsonl` and its audio. Deterministic for a recipe and package versions.
public struct CorpusBuilder {
    public static let tiers =
        [
            "real-en", "real-en-8k", "real-digits-en", "real-digits-en-8k", "real-digits-en-joined",
            "real-digits-es", "real-digits-fr", "real-digits-it", "real-digits-ru",
            "synthetic-digits-en", "synthetic-commands-en", "synthetic-words-en",
        ] + realLanguageTiers + syntheticLanguageTiers

    public let recipe: CorpusRecipe
    public let output: String
    public let log: (String) -> Void

    public init(recipe: CorpusRecipe, output: String, log: @escaping (String) -> Void = { print($0) }) {
        self.recipe = recipe
        self.output = output
        self.log = log
    }

    /// What one tier produced.
    public struct TierResult: Sendable {
        public var tier: String
        public var manifest: String?
        public var utterances: Int
        public var seconds: Double
        /// Why an optional tier was not built.
        public var skipped: String?
    }

    // MARK: real-en, real-en-8k

    func buildRealEnglish(tier: String, wideband: Bool) throws -> TierResult {
        let folder = recipe.sources.asteriskSounds + "/" + recipe.realEnglish.folder
        let package = wideband ? "asterisk-core-sounds-en-g722" : "asterisk-core-sounds-en-wav"
        let transcript = try readAsteriskTranscript(recipe.sources.asteriskTranscript)
        let writer = try TierWriter(root: output, tier: tier)
        for (prompt, written) in transcript {
            // Digits and letters have their own tier or are single symbols; keep whole prompts.
            if prompt.hasPrefix("digits/") || prompt.hasPrefix("letters/") || prompt.hasPrefix("phonetic/") { continue }
            guard let reference = SpokenForm.english(written) else { continue }
            let samples: [Float], rate: Double
            if wideband {
                let path = folder + "/" + prompt + ".g722"
                guard FileManager.default.fileExists(atPath: path) else { continue }
                (samples, rate) = (try G722Decoder.decodeFile(path: path), G722Decoder.sampleRate)
            } else {
                let path = folder + "/" + prompt + ".wav"
                guard FileManager.default.fileExists(atPath: path) else { continue }
                (samples, rate) = try AudioFileReader.readMono(path: path)
            }
            try writer.add(
                id: "ast-en-" + prompt, samples: samples, sampleRate: rate, reference: reference,
                locale: "en-US", speaker: recipe.realEnglish.speaker, task: "prompts", split: .test)
        }
        if writer.count == 0 { throw CorpusBuildError.missingSource(path: folder, package: package) }
        if wideband { try addPocketSphinxClips(to: writer) }
        return try writer.finish()
    }

    /// The transcribed 16 kHz clips from pocketsphinx's test data: "cards" and five LibriVox sentences.
    func addPocketSphinxClips(to writer: TierWriter) throws {
        let root = recipe.sources.pocketsphinxTestData
        let sets = [
            ("cards", "cards/cards.transcription", "cards", "ps-cards"),
            ("librivox", "librivox/transcription", "read", "librivox-austen"),
        ]
        for (folder, transcriptFile, task, speaker) in sets {
            let path = root + "/" + transcriptFile
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CorpusBuildError.missingSource(path: path, package: "pocketsphinx-testdata")
            }
            for line in text.split(separator: "\n") {
                // "<s> ten of clubs </s> (001)"
                guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else {
                    continue
                }
                let id = String(line[line.index(after: open)..<close])
                let words = line[..<open].split(separator: " ").filter { $0 != "<s>" && $0 != "</s>" }
                let (samples, rate) = try AudioFileReader.readMono(path: "\(root)/\(folder)/\(id).wav")
                try writer.add(
                    id: "ps-\(folder)-\(id)", samples: samples, sampleRate: rate,
                    reference: words.joined(separator: " ").lowercased(), locale: "en-US",
                    speaker: speaker, task: task, split: .test)
            }
        }
    }

    func readAsteriskTranscript(_ path: String) throws -> [(String, String)] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CorpusBuildError.missingSource(path: path, package: "asterisk-core-sounds-en")
        }
        let text = String(decoding: try ExternalTool.run("gzip", ["-dc", path]), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            if line.hasPrefix(";") { return nil }
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
    }

    // MARK: real-digits-*

    /// How a tier's digit strings are drawn.
    struct DigitStrings {
        var count: Int
        var digits: ClosedRange<Int>
        var gaps: ClosedRange<Double>
        /// Silence before the first word and after the last.
        var lead: Double
        var ohShare: Double
        var seed: UInt64
    }

    func buildRealDigits(
        tier: String, language: String, wideband: Bool, strings: DigitStrings? = nil
    ) throws
        -> TierResult
    {
        let r = recipe.realDigits
        // The same seed for the wideband and telephone tiers gives the same strings and gaps.
        let drawn =
            strings
            ?? DigitStrings(
                count: r.strings, digits: r.minDigits...r.maxDigits, gaps: r.minGap...r.maxGap, lead: r.lead,
                ohShare: r.ohShare, seed: recipe.seed ^ Self.stableHash(language))
        guard let spec = r.locales.first(where: { $0.locale.hasPrefix(language + "-") }),
            let names = SpokenForm.digitWords[language]
        else {
            return TierResult(
                tier: tier, manifest: nil, utterances: 0, seconds: 0, skipped: "no recipe for '\(language)'")
        }
        let folder = recipe.sources.asteriskSounds + "/" + spec.folder + "/digits"
        let package = "asterisk-core-sounds-\(language)-\(wideband ? "g722" : "wav")"
        // Isolated recordings of 0–9 (and "oh" where the speaker recorded it), trimmed to the word.
        var clips: [String: [Float]] = [:]
        var clipRate = wideband ? G722Decoder.sampleRate : 8_000
        var missing: String?
        let recordings: [(Int, String)] =
            names.enumerated().map { ($0.offset, $0.element) } + (language == "en" ? [(-1, "oh")] : [])
        for (digit, name) in recordings {
            let file = digit >= 0 ? String(digit) : "oh"
            let path = folder + "/" + file + (wideband ? ".g722" : ".wav")
            guard FileManager.default.fileExists(atPath: path) else {
                missing = path
                break
            }
            let samples: [Float]
            if wideband {
                samples = try G722Decoder.decodeFile(path: path)
            } else {
                (samples, clipRate) = try AudioFileReader.readMono(path: path)
            }
            clips[name] = Array(samples[CorpusSignals.trimmedRange(samples, sampleRate: clipRate)])
        }
        if let missing {
            if spec.optional {
                return TierResult(
                    tier: tier, manifest: nil, utterances: 0, seconds: 0,
                    skipped: "\(missing) not installed (\(package))")
            }
            throw CorpusBuildError.missingSource(path: missing, package: package)
        }
        let writer = try TierWriter(root: output, tier: tier)
        // The English tiers test engines enrolled elsewhere; for other languages there is one speaker,
        // so the isolated digits are the enrollment split and the strings the test split.
        if language != "en" && strings == nil {
            for (digit, name) in names.enumerated() {
                try writer.add(
                    id: "\(tier)-digit-\(digit)", samples: clips[name]!, sampleRate: clipRate, reference: name,
                    locale: spec.locale, speaker: spec.speaker, task: "digits", split: .enrollment,
                    words: [.init(word: name, start: 0, end: Double(clips[name]!.count) / clipRate)])
            }
        }
        var rng = SeededGenerator(seed: drawn.seed)
        for index in 0..<drawn.count {
            let length = Int.random(in: drawn.digits, using: &rng)
            let words: [String] = (0..<length).map { _ in
                let digit = Int.random(in: 0...9, using: &rng)
                if digit == 0 && language == "en" && rng.nextUnit() < drawn.ohShare { return "oh" }
                return names[digit]
            }
            let gaps = (0..<max(0, length - 1)).map { _ in
                drawn.gaps.lowerBound + (drawn.gaps.upperBound - drawn.gaps.lowerBound) * rng.nextUnit()
            }
            let composition = CorpusSignals.compose(
                words.map { ($0, clips[$0]!) }, gaps: gaps, lead: drawn.lead, sampleRate: clipRate)
            try writer.add(
                id: String(format: "%@-%03d", tier, index), samples: composition.samples, sampleRate: clipRate,
                reference: words.joined(separator: " "), locale: spec.locale, speaker: spec.speaker,
                task: "digits", split: .test, words: composition.words)
        }
        return try writer.finish()
    }

    // MARK: synthetic-*

    func buildSynthetic(tier: String, task: String) throws -> TierResult {
        let s = recipe.synthetic
        let clean = try TierWriter(root: output, tier: tier)
        let noisy = try s.snrs.map { try TierWriter(root: output, tier: "\(tier)-snr\(Int($0))") }
        var rng = SeededGenerator(seed: recipe.seed ^ Self.stableHash(tier))
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "speech-harness-synth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let perVoice = task == "digits" ? s.digitStringsPerVoiceAndRate : s.commandsPerVoiceAndRate
        var commandCursor = 0
        for voice in s.voices {
            let settings = Self.settings(for: voice, s)
            for setting in settings {
                for n in 0..<perVoice {
                    let text: String
                    if task == "digits" {
                        let length = Int.random(in: s.minDigits...s.maxDigits, using: &rng)
                        text = (0..<length).map { _ -> String in
                            let digit = Int.random(in: 0...9, using: &rng)
                            if digit == 0 && rng.nextUnit() < s.ohShare { return "oh" }
                            return SpokenForm.digitWords["en"]![digit]
                        }.joined(separator: " ")
                    } else {
                        // Walk the vocabulary so every command is spoken by many voices.
                        text = s.commands[commandCursor % s.commands.count]
                        commandCursor += 1
                    }
                    let wav = scratch.appendingPathComponent("utt.wav").path
                    try synthesize(text: text, voice: voice, setting: setting, to: wav)
                    let (raw, rate) = try AudioFileReader.readMono(path: wav)
                    let samples = try SampleRateConverter.convert(
                        raw, from: rate, to: recipe.sampleRate, quality: .best)
                    let speaker = "\(voice.synthesizer):\(voice.voice)"
                    let id = Self.safeID("\(tier)-\(voice.synthesizer)-\(voice.voice)-\(setting)-\(n)")
                    try clean.add(
                        id: id, samples: samples, sampleRate: recipe.sampleRate, reference: text, locale: "en-US",
                        speaker: speaker, task: task, split: voice.split)
                    for (snr, writer) in zip(s.snrs, noisy) {
                        let seed = recipe.seed ^ Self.stableHash(id) ^ UInt64(snr * 1000)
                        try writer.add(
                            id: "\(id)-snr\(Int(snr))",
                            samples: CorpusSignals.addNoise(
                                samples, sampleRate: recipe.sampleRate, snr: snr, seed: seed),
                            sampleRate: recipe.sampleRate, reference: text, locale: "en-US",
                            speaker: speaker, task: task, split: voice.split)
                    }
                }
            }
        }
        var result = try clean.finish()
        for writer in noisy {
            let extra = try writer.finish()
            log(String(format: "%@: %d utterances, %.1f min", extra.tier, extra.utterances, extra.seconds / 60))
        }
        result.tier = tier
        return result
    }

    /// Every vocabulary entry (the digit words, "oh", the commands) said alone by each enrollment
    /// voice at each rate: the exemplars template-based engines enroll from. Enrollment split only.
    func buildIsolatedWords(tier: String) throws -> TierResult {
        let s = recipe.synthetic
        let writer = try TierWriter(root: output, tier: tier)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "speech-harness-words-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let vocabulary =
            (SpokenForm.digitWords["en"]! + ["oh"]).map { ($0, "digits") } + s.commands.map { ($0, "commands") }
        for voice in s.voices where voice.split == .enrollment {
            let settings = Self.settings(for: voice, s)
            for setting in settings {
                for (text, task) in vocabulary {
                    let wav = scratch.appendingPathComponent("word.wav").path
                    try synthesize(text: text, voice: voice, setting: setting, to: wav)
                    let (raw, rate) = try AudioFileReader.readMono(path: wav)
                    let samples = try SampleRateConverter.convert(
                        raw, from: rate, to: recipe.sampleRate, quality: .best)
                    let id = Self.safeID(
                        "\(tier)-\(voice.synthesizer)-\(voice.voice)-\(setting)-\(text.replacingOccurrences(of: " ", with: "-"))"
                    )
                    try writer.add(
                        id: id, samples: samples, sampleRate: recipe.sampleRate, reference: text, locale: "en-US",
                        speaker: "\(voice.synthesizer):\(voice.voice)", task: task, split: .enrollment)
                }
            }
        }
        return try writer.finish()
    }

    /// A voice's speaking-rate settings: words per minute for espeak-ng, duration stretches for
    /// the unit-selection and diphone synthesizers (flite, festival).
    static func settings(for voice: CorpusRecipe.Voice, _ s: CorpusRecipe.Synthetic) -> [String] {
        voice.synthesizer == "espeak-ng" ? s.espeakRates.map(String.init) : s.fliteStretches.map { String($0) }
    }

    func synthesize(text: String, voice: CorpusRecipe.Voice, setting: String, to path: String) throws {
        switch voice.synthesizer {
        case "espeak-ng":
            _ = try ExternalTool.run("espeak-ng", ["-v", voice.voice, "-s", setting, "-w", path, text])
        case "flite":
            _ = try ExternalTool.run(
                "flite", ["-voice", voice.voice, "--setf", "duration_stretch=\(setting)", "-t", text, "-o", path])
        case "festival":
            // text2wave reads the text from a file; the voice is a Scheme call (voice_<name>).
            let textFile = path + ".txt"
            guard let bytes = voice.textEncoding == "latin1" ? text.data(using: .isoLatin1) : Data(text.utf8) else {
                throw CorpusBuildError.recipe(
                    path: "recipe", reason: "'\(text)' cannot be written in \(voice.voice)'s text encoding (Latin-1)")
            }
            try bytes.write(to: URL(fileURLWithPath: textFile))
            defer { try? FileManager.default.removeItem(atPath: textFile) }
            _ = try ExternalTool.run(
                "text2wave",
                [
                    "-o", path, "-eval", "(voice_\(voice.voice))",
                    "-eval", "(Parameter.set 'Duration_Stretch \(setting))", textFile,
                ])
        default:
            throw CorpusBuildError.recipe(path: "recipe", reason: "unknown synthesizer '\(voice.synthesizer)'")
        }
    }

    // MARK: Helpers

    static func stableHash(_ text: String) -> UInt64 { StableHash.fnv1a(text) }

    /// Letters, digits, `-` and `.` only, so ids are safe as file names everywhere.
    public static func safeID(_ id: String) -> String {
        String(id.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "_" })
    }
}

/// Writes one tier: audio files under `audio/` and `manifest.jsonl` beside them.
final class TierWriter {
    let tier: String
    let directory: String
    private var lines: [String] = []
    private var ids: Set<String> = []
    private(set) var count = 0
    private var seconds = 0.0
    private let encoder: JSONEncoder

    init(root: String, tier: String) throws {
        self.tier = tier
        directory = root + "/" + tier
        do {
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory + "/audio", withIntermediateDirectories: true)
        } catch {
            throw CorpusBuildError.output(path: directory, reason: "\(error)")
        }
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func add(
        id rawID: String, samples: [Float], sampleRate: Double, reference: String, locale: String, speaker: String,
        task: String, split: Utterance.Split, words: [Utterance.AlignedWord]? = nil
    ) throws {
        let id = CorpusBuilder.safeID(rawID)
        guard ids.insert(id).inserted else {
            throw CorpusBuildError.output(
                path: directory, reason: "two utterances would share the id '\(id)' (from '\(rawID)')")
        }
        let relative = "audio/\(id).wav"
        try AudioFileWriter.writeMono(samples, sampleRate: sampleRate, to: directory + "/" + relative)
        let duration = Double(samples.count) / sampleRate
        let utterance = Utterance(
            id: id, audio: relative, reference: reference, locale: locale, speaker: speaker,
            task: task, duration: (duration * 1e6).rounded() / 1e6, tier: tier, split: split,
            words: words?.map {
                .init(
                    word: $0.word, start: ($0.start * 1e6).rounded() / 1e6,
                    end: ($0.end * 1e6).rounded() / 1e6)
            })
        lines.append(String(decoding: try encoder.encode(utterance), as: UTF8.self))
        count += 1
        seconds += duration
    }

    func finish() throws -> CorpusBuilder.TierResult {
        let path = directory + "/manifest.jsonl"
        do {
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw CorpusBuildError.output(path: path, reason: "\(error)")
        }
        return CorpusBuilder.TierResult(tier: tier, manifest: path, utterances: count, seconds: seconds, skipped: nil)
    }
}
