import AudioIO
import Foundation
import Metrics
import SpeechCore

extension CorpusBuilder {
    /// The tiers of synthetic digit strings and commands in the corpus's other languages.
    static let syntheticLanguageTiers = ["digits", "commands"].flatMap { task in
        ["es", "fr", "it", "ru"].map { "synthetic-\(task)-\($0)" }
    }

    /// Digit strings or commands in `tier`'s language from voices no engine enrolled (festival's
    /// Italian and Russian voices, espeak-ng's Spanish and French where nothing better is
    /// packaged). Digit strings are dealt in turn to each voice at each rate; each command is said
    /// once by each voice, at a rate dealt in turn. A voice whose package is missing is left out
    /// with a note; a language with none is skipped, naming the packages.
    func buildSyntheticLanguage(tier: String) throws -> TierResult {
        let l = recipe.syntheticLanguages, s = recipe.synthetic
        let task = tier.hasPrefix("synthetic-commands-") ? "commands" : "digits"
        let language = String(tier.dropFirst("synthetic-\(task)-".count))
        let voices = l.voices.filter { LocaleTag.language($0.locale) == language }
        let vocabulary = task == "digits" ? SpokenForm.digitWords[language] : l.commands[language]
        guard let vocabulary, !voices.isEmpty else {
            return TierResult(
                tier: tier, manifest: nil, utterances: 0, seconds: 0,
                skipped: "no voices or \(task) for '\(language)'")
        }
        let present = voices.filter { Self.voiceIsInstalled($0) }
        for voice in voices where !present.contains(voice) {
            log("\(tier): voice \(voice.synthesizer):\(voice.voice) left out (install \(voice.package))")
        }
        guard !present.isEmpty else {
            let packages = voices.map(\.package).joined(separator: ", ")
            return TierResult(
                tier: tier, manifest: nil, utterances: 0, seconds: 0, skipped: "no voice installed (\(packages))")
        }
        let takes = present.flatMap { voice in
            let asVoice = CorpusRecipe.Voice(
                synthesizer: voice.synthesizer, voice: voice.voice, split: .test, textEncoding: voice.textEncoding)
            return Self.settings(for: asVoice, s).map { (voice, asVoice, $0) }
        }
        var rng = SeededGenerator(seed: recipe.seed ^ Self.stableHash(tier))
        // (voice, its settings, the text) for every utterance.
        var lines: [(CorpusRecipe.LanguageVoice, CorpusRecipe.Voice, String, String)] = []
        if task == "digits" {
            for index in 0..<l.stringsPerLanguage {
                let (voice, asVoice, setting) = takes[index % takes.count]
                let length = Int.random(in: l.minDigits...l.maxDigits, using: &rng)
                let text = (0..<length).map { _ in vocabulary[Int.random(in: 0...9, using: &rng)] }.joined(
                    separator: " ")
                lines.append((voice, asVoice, setting, text))
            }
        } else {
            for (index, command) in vocabulary.enumerated() {
                for voice in present {
                    let own = takes.filter { $0.0 == voice }
                    let (_, asVoice, setting) = own[index % own.count]
                    lines.append((voice, asVoice, setting, command))
                }
            }
        }
        let writer = try TierWriter(root: output, tier: tier)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "speech-harness-synth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (index, (voice, asVoice, setting, text)) in lines.enumerated() {
            let wav = scratch.appendingPathComponent("utt.wav").path
            let raw: [Float], rate: Double
            do {
                try synthesize(text: text, voice: asVoice, setting: setting, to: wav)
                (raw, rate) = try AudioFileReader.readMono(path: wav)
            } catch {
                throw CorpusBuildError.synthesis(
                    tier: tier, voice: "\(voice.synthesizer):\(voice.voice)", text: text, reason: "\(error)")
            }
            let samples = try SampleRateConverter.convert(raw, from: rate, to: recipe.sampleRate, quality: .best)
            try writer.add(
                id: String(format: "%@-%@-%@-%03d", tier, voice.voice, setting, index), samples: samples,
                sampleRate: recipe.sampleRate, reference: text, locale: voice.locale,
                speaker: "\(voice.synthesizer):\(voice.voice)", task: task, split: .test)
        }
        return try writer.finish()
    }

    /// Whether a voice's data is installed: festival's voice folder, or espeak-ng itself.
    static func voiceIsInstalled(_ voice: CorpusRecipe.LanguageVoice) -> Bool {
        switch voice.synthesizer {
        case "festival":
            let root = "/usr/share/festival/voices"
            let languages = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            return languages.contains { FileManager.default.fileExists(atPath: "\(root)/\($0)/\(voice.voice)") }
        default:
            return ExternalTool.locate(voice.synthesizer) != nil
        }
    }
}
