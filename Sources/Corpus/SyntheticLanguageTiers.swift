import AudioIO
import Foundation
import Metrics
import SpeechCore

extension CorpusBuilder {
    /// The tiers of synthetic digit strings in the corpus's other languages.
    static let syntheticLanguageTiers = [
        "synthetic-digits-es", "synthetic-digits-fr", "synthetic-digits-it", "synthetic-digits-ru",
    ]

    /// Digit strings in `tier`'s language from voices no engine enrolled (festival's Italian and
    /// Russian voices, espeak-ng's Spanish and French where nothing better is packaged), dealt in
    /// turn to each voice at each rate. A voice whose package is missing is left out with a note;
    /// a language with none is skipped, naming the packages.
    func buildSyntheticLanguage(tier: String) throws -> TierResult {
        let l = recipe.syntheticLanguages, s = recipe.synthetic
        let language = String(tier.dropFirst("synthetic-digits-".count))
        let voices = l.voices.filter { LocaleTag.language($0.locale) == language }
        guard let names = SpokenForm.digitWords[language], !voices.isEmpty else {
            return TierResult(
                tier: tier, manifest: nil, utterances: 0, seconds: 0, skipped: "no voices for '\(language)'")
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
            let asVoice = CorpusRecipe.Voice(synthesizer: voice.synthesizer, voice: voice.voice, split: .test)
            return Self.settings(for: asVoice, s).map { (voice, asVoice, $0) }
        }
        let writer = try TierWriter(root: output, tier: tier)
        var rng = SeededGenerator(seed: recipe.seed ^ Self.stableHash(tier))
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "speech-harness-synth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for index in 0..<l.stringsPerLanguage {
            let (voice, asVoice, setting) = takes[index % takes.count]
            let length = Int.random(in: l.minDigits...l.maxDigits, using: &rng)
            let text = (0..<length).map { _ in names[Int.random(in: 0...9, using: &rng)] }.joined(separator: " ")
            let wav = scratch.appendingPathComponent("utt.wav").path
            try synthesize(text: text, voice: asVoice, setting: setting, to: wav)
            let (raw, rate) = try AudioFileReader.readMono(path: wav)
            let samples = try SampleRateConverter.convert(raw, from: rate, to: recipe.sampleRate, quality: .best)
            try writer.add(
                id: String(format: "%@-%@-%@-%03d", tier, voice.voice, setting, index), samples: samples,
                sampleRate: recipe.sampleRate, reference: text, locale: voice.locale,
                speaker: "\(voice.synthesizer):\(voice.voice)", task: "digits", split: .test)
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
