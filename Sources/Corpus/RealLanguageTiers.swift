import AudioIO
import Foundation
import Metrics

extension CorpusBuilder {
    /// The real-speech tiers in other languages: each Asterisk voice's prompts, with the
    /// transcripts its `asterisk-core-sounds-<lang>` package ships.
    static let realLanguageTiers = SpokenLanguage.allCases.map { "real-\($0.rawValue)" }

    /// A real-speech tier in `language`: every prompt of the locale's Asterisk voice whose
    /// transcript has a spoken form (``SpokenLanguage/spoken(_:)``). Digits, letters and the
    /// phonetic alphabet are left out (single symbols, or the digit tiers'), and so are prompts
    /// with a longer number, whose reading the text does not settle.
    func buildRealLanguage(tier: String, language: SpokenLanguage) throws -> TierResult {
        guard let spec = recipe.realDigits.locales.first(where: { $0.locale.hasPrefix(language.rawValue + "-") }) else {
            return TierResult(
                tier: tier, manifest: nil, utterances: 0, seconds: 0, skipped: "no locale for '\(language)'")
        }
        let transcriptPackage = "asterisk-core-sounds-\(language.rawValue)"
        let transcriptPath = recipe.sources.asteriskLanguageTranscripts.replacingOccurrences(
            of: "LANG", with: language.rawValue)
        let folder = recipe.sources.asteriskSounds + "/" + spec.folder
        guard FileManager.default.fileExists(atPath: transcriptPath) else {
            if spec.optional {
                return TierResult(
                    tier: tier, manifest: nil, utterances: 0, seconds: 0,
                    skipped: "\(transcriptPath) not installed (\(transcriptPackage))")
            }
            throw CorpusBuildError.missingSource(path: transcriptPath, package: transcriptPackage)
        }
        let writer = try TierWriter(root: output, tier: tier)
        var unread = 0
        for (prompt, written) in try readAsteriskTranscript(transcriptPath) {
            if prompt.hasPrefix("digits/") || prompt.hasPrefix("letters/") || prompt.hasPrefix("phonetic/") { continue }
            // One Russian line repeats its prompt's name before the text.
            let text = written.hasPrefix(prompt + ":") ? String(written.dropFirst(prompt.count + 1)) : written
            let path = folder + "/" + prompt + ".g722"
            guard FileManager.default.fileExists(atPath: path) else { continue }
            guard let words = language.spoken(text) else {
                unread += 1
                continue
            }
            try writer.add(
                id: "ast-\(language.rawValue)-" + prompt, samples: try G722Decoder.decodeFile(path: path),
                sampleRate: G722Decoder.sampleRate, reference: words.joined(separator: " "), locale: spec.locale,
                speaker: spec.speaker, task: "prompts", split: .test)
        }
        if writer.count == 0 {
            if spec.optional {
                return TierResult(
                    tier: tier, manifest: nil, utterances: 0, seconds: 0,
                    skipped: "no prompt of \(folder) has a transcript (asterisk-core-sounds-\(language.rawValue)-g722)")
            }
            throw CorpusBuildError.missingSource(
                path: folder, package: "asterisk-core-sounds-\(language.rawValue)-g722")
        }
        log("\(tier): \(unread) prompts left out (a number the text does not say how to read, or nothing to say)")
        return try writer.finish()
    }
}
