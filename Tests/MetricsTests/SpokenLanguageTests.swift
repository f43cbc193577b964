import Foundation
import Metrics
import TestSupport
import Testing

/// The spoken forms of the Spanish, French, Italian and Russian prompts: cardinals equal to
/// num2words (PyPI, run from `.venv` by `scripts/reference/cardinals.py`), and the prompt rules.
@Suite("Spoken forms in four languages")
struct SpokenLanguageTests {
    static let python = SystemFixture.packageRoot + "/.venv/bin/python"
    static let available = SystemFixture.isCI || FileManager.default.isExecutableFile(atPath: python)

    @Test(.enabled(if: available)) func cardinalsEqualTheReference() throws {
        let run = try ExternalProgram.run(Self.python, [SystemFixture.packageRoot + "/scripts/reference/cardinals.py"])
        try #require(run.status == 0, "\(run.errors.suffix(1000))")
        let version = run.errors.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines)
        #expect(version == "0.5.14")
        let reference = try JSONDecoder().decode([String: [String]].self, from: Data(run.output.utf8))
        var mismatches: [String] = []
        for language in SpokenLanguage.allCases {
            let expected: [String] = reference[language.rawValue] ?? []
            try #require(expected.count == 100, "num2words gave no cardinals for \(language.rawValue)")
            for value in 0..<100 {
                let words: [String] = expected[value].split(whereSeparator: { $0 == " " || $0 == "-" }).map(String.init)
                let ours: [String] = language.cardinal(value)
                if ours != words {
                    mismatches.append("\(language.rawValue) \(value): ours \(ours), num2words \(words)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func promptsAreReadAsSpoken() {
        #expect(
            SpokenLanguage.spanish.spoken("Por favor marque 1 para salir, u 8 para más opciones.")
                == "por favor marque uno para salir u ocho para más opciones".split(separator: " ").map(String.init))
        #expect(
            SpokenLanguage.french.spoken("“Pour activer, appuyez sur 1.")?.joined(separator: " ")
                == "pour activer appuyez sur un")
        #expect(SpokenLanguage.italian.spoken("Premere 3 per espellere l'ultimo utente")?.last == "utente")
        #expect(SpokenLanguage.italian.spoken("l'ultimo")?.first == "l'ultimo")
        #expect(
            SpokenLanguage.russian.spoken("Нажмите 2 - чтобы заблокировать")?.joined(separator: " ")
                == "нажмите два чтобы заблокировать")
        // Bracketed sounds are not words; a prompt that is only one has no spoken form.
        #expect(SpokenLanguage.spanish.spoken("[tono simple]") == nil)
        #expect(SpokenLanguage.spanish.spoken("Gracias [tono]")?.joined(separator: " ") == "gracias")
        // A longer number or a decimal has no reading the text settles: no spoken form.
        #expect(SpokenLanguage.spanish.spoken("marque 8500 ahora") == nil)
        #expect(SpokenLanguage.russian.spoken("скорость 28,8 килобит") == nil)
    }

    @Test func theNormalisersReadWhatRecognisersWrite() {
        // A recogniser's digits and accents compare with the transcripts' words.
        #expect(TextNormalizer.spokenSpanish.normalize("Marque 1. Número de agente") == "marque uno numero de agente")
        #expect(TextNormalizer.spokenSpanish.normalize("marque uno numero de agente") == "marque uno numero de agente")
        #expect(TextNormalizer.spokenFrench.normalize("Appuyez sur 17") == "appuyez sur dix sept")
        #expect(TextNormalizer.spokenItalian.normalize("Premere 28, poi ventitré") == "premere ventotto poi ventitre")
        #expect(TextNormalizer.spokenRussian.normalize("Ещё 1 раз") == "еще один раз")
        // A longer number is read digit by digit rather than refused.
        #expect(TextNormalizer.spokenSpanish.normalize("1234") == "uno dos tres cuatro")
        #expect(TextNormalizer(name: "spoken-ru") == .spokenRussian)
    }
}
