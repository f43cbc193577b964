import Foundation
import Metrics
import SpeechCore

/// The recipe `Corpus/recipe.json` describes: where the sources are and how each tier is made.
public struct CorpusRecipe: Codable, Sendable {
    public struct Sources: Codable, Sendable {
        public var asteriskSounds: String
        public var asteriskTranscript: String
        /// The other languages' transcripts, with `LANG` for the language code.
        public var asteriskLanguageTranscripts: String
        public var pocketsphinxTestData: String
    }

    public struct RealEnglish: Codable, Sendable {
        public var folder: String
        public var speaker: String
    }

    public struct DigitLocale: Codable, Sendable {
        public var locale: String
        public var folder: String
        public var speaker: String
        /// Optional tiers are skipped, with a note, when their package is not installed.
        public var optional: Bool
    }

    public struct RealDigits: Codable, Sendable {
        public var strings: Int
        public var minDigits: Int
        public var maxDigits: Int
        public var minGap: Double
        public var maxGap: Double
        public var lead: Double
        public var ohShare: Double
        public var locales: [DigitLocale]
    }

    /// A second set of English digit strings from the same isolated recordings, made the way
    /// held-out strings are: another seed, gaps from `minGap` to `maxGap`, `edge` seconds of
    /// silence at each end (tier `real-digits-en-joined`).
    public struct JoinedDigits: Codable, Sendable {
        public var strings: Int
        public var minDigits: Int
        public var maxDigits: Int
        public var minGap: Double
        public var maxGap: Double
        public var edge: Double
    }

    public struct Voice: Codable, Sendable, Hashable {
        public var synthesizer: String
        public var voice: String
        public var split: Utterance.Split
        /// How the synthesizer reads its text: UTF-8 unless `latin1` (festival's Italian voices).
        public var textEncoding: String?
    }

    public struct Synthetic: Codable, Sendable {
        public var digitStringsPerVoiceAndRate: Int
        public var commandsPerVoiceAndRate: Int
        public var minDigits: Int
        public var maxDigits: Int
        public var ohShare: Double
        public var snrs: [Double]
        /// espeak-ng speaking rates (words per minute).
        public var espeakRates: [Int]
        /// Duration stretches for the flite and festival voices (1 = the voice's own pace).
        public var fliteStretches: [Double]
        public var voices: [Voice]
        public var commands: [String]
    }

    /// A voice of another language, for the synthetic digit strings of that language.
    public struct LanguageVoice: Codable, Sendable, Hashable {
        /// The locale the utterances are tagged with: the real tier's of the same language, so that
        /// engines are compared on one locale (the voice's own accent may differ; the speaker
        /// field names the voice).
        public var locale: String
        public var synthesizer: String
        public var voice: String
        /// The Debian package that ships the voice, named when it is missing.
        public var package: String
        /// How the synthesizer reads its text: UTF-8 unless `latin1` (festival's Italian voices,
        /// which say nothing for a UTF-8 "sì").
        public var textEncoding: String?
    }

    /// Digit strings in the corpus's other languages from synthetic voices no engine enrolled
    /// (tiers `synthetic-digits-es`, `-fr`, `-it`, `-ru`; test split only). A language's strings
    /// are dealt in turn to its voices and their rates.
    public struct SyntheticLanguages: Codable, Sendable {
        public var stringsPerLanguage: Int
        public var minDigits: Int
        public var maxDigits: Int
        public var voices: [LanguageVoice]
        /// The English commands (`synthetic.commands`, in order) in each other language, by its
        /// ISO 639 code: each said once by each of the language's voices.
        public var commands: [String: [String]]
    }

    public var version: Int
    public var seed: UInt64
    public var sampleRate: Double
    public var sources: Sources
    public var realEnglish: RealEnglish
    public var realDigits: RealDigits
    public var joinedDigits: JoinedDigits
    public var synthetic: Synthetic
    public var syntheticLanguages: SyntheticLanguages

    /// Reads and checks a recipe file.
    public static func load(path: String) throws -> CorpusRecipe {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CorpusBuildError.recipe(path: path, reason: "cannot read the file")
        }
        let recipe: CorpusRecipe
        do {
            recipe = try DecodingProblem.decode(CorpusRecipe.self, from: data, strict: true)
        } catch {
            throw CorpusBuildError.recipe(path: path, reason: error.description)
        }
        let d = recipe.realDigits, s = recipe.synthetic, j = recipe.joinedDigits, l = recipe.syntheticLanguages
        guard l.minDigits >= 1, l.maxDigits >= l.minDigits, l.stringsPerLanguage >= 0,
            l.voices.allSatisfy({ SpokenForm.digitWords[LocaleTag.language($0.locale)] != nil }),
            l.commands.values.allSatisfy({ $0.count == s.commands.count && $0.allSatisfy { !$0.isEmpty } }),
            d.minDigits >= 1, d.maxDigits >= d.minDigits, s.minDigits >= 1, s.maxDigits >= s.minDigits,
            d.minGap >= 0, d.maxGap >= d.minGap, j.minDigits >= 1, j.maxDigits >= j.minDigits, j.minGap >= 0,
            j.maxGap >= j.minGap, j.edge >= 0, recipe.sampleRate >= 8_000
        else {
            throw CorpusBuildError.recipe(
                path: path,
                reason:
                    "digit counts, gaps or sample rate out of range, or a language's commands not one per English command"
            )
        }
        return recipe
    }

}

/// Why a corpus could not be built.
public enum CorpusBuildError: Error, CustomStringConvertible, Sendable {
    case recipe(path: String, reason: String)
    case missingSource(path: String, package: String)
    case toolFailed(tool: String, arguments: [String], status: Int32, stderr: String)
    case output(path: String, reason: String)
    /// A voice produced no usable audio for a text.
    case synthesis(tier: String, voice: String, text: String, reason: String)

    public var description: String {
        switch self {
        case .recipe(let path, let reason): return "\(path): bad corpus recipe: \(reason)"
        case .missingSource(let path, let package):
            return "\(path): missing; install the Debian package \(package) (scripts/bootstrap does)"
        case .toolFailed(let tool, let arguments, let status, let stderr):
            return "\(tool) \(arguments.joined(separator: " ")) exited with \(status): \(stderr.suffix(400))"
        case .output(let path, let reason): return "\(path): cannot write corpus output: \(reason)"
        case .synthesis(let tier, let voice, let text, let reason):
            return "\(tier): voice \(voice) could not say '\(text)': \(reason)"
        }
    }
}
