import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import Metrics

/// The Swift port of Whisper's normalisers against the PyPI reference (`whisper-normalizer`, run
/// from `.venv` by `scripts/reference/whisper_normalize.py`): equal output, code point for code
/// point, on generated text that exercises every rule and on real prompt transcripts.
@Suite("Whisper normalisers")
struct WhisperNormalizerTests {
    static let python = SystemFixture.packageRoot + "/.venv/bin/python"
    static let script = SystemFixture.packageRoot + "/scripts/reference/whisper_normalize.py"
    static let available = SystemFixture.isCI || FileManager.default.isExecutableFile(atPath: python)

    /// The reference's [english, basic] for each text, and its version.
    static func reference(_ texts: [String]) throws -> (outputs: [[String]], version: String) {
        let run = try ExternalProgram.run(python, [script], input: try JSONEncoder().encode(texts))
        guard run.status == 0 else { throw ReferenceFailure(message: "exit \(run.status): \(run.errors.suffix(2000))") }
        return (
            try JSONDecoder().decode([[String]].self, from: Data(run.output.utf8)),
            run.errors.trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    struct ReferenceFailure: Error { var message: String }

    @Test(.enabled(if: available)) func equalsTheReferenceOnGeneratedAndRealText() throws {
        let real = WhisperTextGenerator.realTranscripts()
        #expect(
            real.count >= 500,
            "the Asterisk prompt texts and pocketsphinx transcripts (scripts/bootstrap installs them)")
        let texts = WhisperTextGenerator.texts(count: 12_000, seed: 7) + real
        let (expected, version) = try Self.reference(texts)
        #expect(version == WhisperTextNormalizer.referenceVersion)
        #expect(expected.count == texts.count)
        var englishMismatches: [String] = [], basicMismatches: [String] = []
        for (text, pair) in zip(texts, expected) {
            let english = WhisperTextNormalizer.english(text), basic = WhisperTextNormalizer.basic(text)
            if english != pair[0] {
                englishMismatches.append("\(debug(text)) → ours \(debug(english)), reference \(debug(pair[0]))")
            }
            if basic != pair[1] {
                basicMismatches.append("\(debug(text)) → ours \(debug(basic)), reference \(debug(pair[1]))")
            }
        }
        #expect(
            englishMismatches.count == 0,
            "\(englishMismatches.count) of \(texts.count) differ (english):\n\(englishMismatches.prefix(15).joined(separator: "\n"))"
        )
        #expect(
            basicMismatches.count == 0,
            "\(basicMismatches.count) of \(texts.count) differ (basic):\n\(basicMismatches.prefix(15).joined(separator: "\n"))"
        )
    }

    func debug(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// A few outputs worked out by hand from the rules, so the rules are visible here too.
    @Test(arguments: [
        ("Two thousand and five", "2005"),
        ("one oh one", "101"),
        ("double five triple oh", "55000"),
        ("twenty dollars and five cents", "$20.05"),
        ("It costs $0.07.", "it costs ¢7"),
        ("five per cent of twenty-first", "5% of 21st"),
        ("I can't colour it, um, Mr. Smith!", "i can not color it mister smith"),
        ("[laughter] (inaudible) they'd been there", "they had been there"),
        ("one and a half", "one.5"),  // 1.5, then a lone "1" reads "one": the reference's quirk
        ("the 1960 s and 1 s", "the 1960s and ones"),
        ("minus five point two", "-5.2"),
        ("1,000,000 people", "1000000 people"),
    ])
    func handWorkedExamples(text: String, expected: String) {
        #expect(WhisperTextNormalizer.english(text).trimmingCharacters(in: .whitespaces) == expected)
    }

    @Test func hugeNumbersStayExact() {
        #expect(
            WhisperTextNormalizer.english("two decillion and three") == "2" + String(repeating: "0", count: 32) + "3")
        #expect(
            WhisperTextNormalizer.english("nine hundred ninety nine decillion") == "999"
                + String(repeating: "0", count: 33))
    }

    @Test func hostileTextStaysLinear() {
        // Openers without closers: the reference's regex scans each to the end; ours is linear.
        let text = String(repeating: "([<", count: 100_000)
        #expect(WhisperTextNormalizer.english(text).count <= text.count)
    }
}

/// Text for the cross-check: random mixtures of everything Whisper's English normaliser has a
/// rule for (numbers in words and numerals, currencies, ordinals, contractions, titles, fillers,
/// brackets, British spellings, diacritics, symbols, unusual whitespace and scripts).
enum WhisperTextGenerator {
    static let numberWords = [
        "zero", "oh", "o", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        "ten", "eleven", "twelve", "thirteen", "fifteen", "nineteen", "twenty", "thirty", "forty",
        "fifty", "ninety", "hundred", "thousand", "million", "billion", "trillion", "decillion",
        "first", "second", "third", "fifth", "eighth", "nineth", "ninth", "twelfth", "twentieth",
        "thirties", "sixes", "ones", "hundreds", "thousandth", "millions", "zeroth", "and", "double",
        "triple", "point", "minus", "negative", "plus", "positive", "dollar", "dollars", "pound",
        "pounds", "euro", "euros", "cent", "cents", "per", "percent", "a", "half", "and a half",
    ]
    static let numerals = [
        "0", "1", "5", "07", "12", "1s", "21st", "2nd", "3rd", "4th", "10 th", "1960s", "1960 s",
        "3.14", "1.50", "2.0", "0.5", ".5", "5.", "1,000", "1,000,000", "12,34,56", "$5", "$0.07",
        "$2", "¢7", "£20", "€3.50", "5%", "50 %", "1.2.3", "192.168.0.1", "٣", "١٢", "१२",
        "٣.٥", "$0 5", "$0x12", "2 and ¢7", "$10 and ¢5", "$3 ¢45", "¢123",
    ]
    static let contractions = [
        "won't", "can't", "let's", "ain't", "y'all", "wanna", "kinda", "sorta", "dunno", "gotta",
        "gonna", "i'ma", "imma", "woulda", "coulda", "shoulda", "cause", "because", "ma'am",
        "don't", "they'd been", "she's been", "he'd gone", "it's gone", "we'd done", "he's got",
        "you're", "it's", "i'd", "we'll", "isn't", "i've", "i'm", "o'clock", "rock 'n' roll",
        "it 's", "dogs '",
    ]
    static let titles = [
        "Mr", "Mr.", "Mrs", "St", "St.", "Dr", "Prof", "Capt", "Gov", "Ald", "Gen", "Sen", "Rep",
        "Pres", "Rev", "Hon", "Asst", "Assoc", "Lt", "Col", "Jr", "Sr", "Esq", "Mrs.", "stop", "drive",
    ]
    static let fillers = ["um", "uh", "hmm", "mm", "mhm", "mmm", "umm", "Um,", "UH", "hum", "summer"]
    static let brackets = [
        "[laughter]", "<unk>", "(inaudible)", "()", "(( x)", "[ unclosed", "<a]", "[b>", "(", ")",
        "[[nested]]", "(a (b) c)", "<", ">",
    ]
    static let other = [
        "café", "naïve", "Œuvre", "straße", "Łódź", "ﬁle", "①", "½", "x²", "ÆSIR", "þorn", "Ðð",
        "ΟΔΟΣ", "Σ", "ΣΑΣ.", "Ἀθῆναι", "Москва", "שלום", "مرحبا", "日本語", "一二三", "e\u{301}",
        "\u{200B}", "\u{200D}", "\u{200F}", "😀", "👍🏽", "™", "&", "@", "#", "*", "/", "\\", "—", "…",
        "\"quoted\"", "'single'", "it’s", "’", "hello.", "end.", "...", "a.b", "U.S.A.", "e.g.", "$", "%",
        "%%", "£.", "Σ1", "İstanbul", "ǅ", "_", "snake_case", "\u{0}", "\u{7}",
    ]
    static let separators = [
        " ", " ", " ", " ", " ", "", ", ", ". ", "-", "\t", "\n", "  ", "\u{A0}", "\u{2003}",
        "\u{1C}", "\u{85}", "\u{3000}", " '", "' ",
    ]

    static func texts(count: Int, seed: UInt64) -> [String] {
        var rng = SeededGenerator(seed: seed)
        let british = WhisperTextNormalizer.spellings.keys.sorted()
        let american = Array(Set(WhisperTextNormalizer.spellings.values)).sorted()
        var out: [String] = []
        for index in 0..<count {
            // Every fourth text is a spelled-out number phrase, the others a mixture.
            if index % 4 == 0 {
                out.append(spelledNumber(&rng))
                continue
            }
            let length = Int.random(in: 1...10, using: &rng)
            var text = ""
            for position in 0..<length {
                var token: String
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<30: token = numberWords.randomElement(using: &rng)!
                case 30..<45: token = numerals.randomElement(using: &rng)!
                case 45..<55: token = contractions.randomElement(using: &rng)!
                case 55..<60: token = titles.randomElement(using: &rng)!
                case 60..<64: token = fillers.randomElement(using: &rng)!
                case 64..<69: token = brackets.randomElement(using: &rng)!
                case 69..<76: token = british.randomElement(using: &rng)!
                case 76..<79: token = american.randomElement(using: &rng)!
                case 79..<88: token = other.randomElement(using: &rng)!
                default:
                    token = ["the", "a", "of", "and", "in", "is", "to", "half", "cent", "per"].randomElement(
                        using: &rng)!
                }
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: token = token.uppercased()
                case 1: token = token.capitalized
                default: break
                }
                if position > 0 { text += separators.randomElement(using: &rng)! }
                text += token
            }
            out.append(text)
        }
        return out
    }

    /// "three hundred and twenty-one thousand, four hundred five dollars" and the like.
    static func spelledNumber(_ rng: inout SeededGenerator) -> String {
        let units = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
        let teens = [
            "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
            "nineteen",
        ]
        let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        func belowThousand() -> [String] {
            var words: [String] = []
            if Bool.random(using: &rng) { words += [units.randomElement(using: &rng)!, "hundred"] }
            if !words.isEmpty && Int.random(in: 0..<3, using: &rng) == 0 { words.append("and") }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: words.append(teens.randomElement(using: &rng)!)
            case 1: words.append(tens.randomElement(using: &rng)!)
            case 2: words += [tens.randomElement(using: &rng)!, units.randomElement(using: &rng)!]
            default: words.append(units.randomElement(using: &rng)!)
            }
            return words
        }
        var words: [String] = []
        if Int.random(in: 0..<6, using: &rng) == 0 {
            words.append(["minus", "plus", "negative"].randomElement(using: &rng)!)
        }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:  // digit by digit, with oh and doubles
            for _ in 0..<Int.random(in: 2...8, using: &rng) {
                words.append((units + ["oh", "zero", "double", "triple"]).randomElement(using: &rng)!)
            }
        default:
            for scale in ["billion", "million", "thousand", ""].shuffled(using: &rng).prefix(
                Int.random(in: 1...3, using: &rng))
            {
                words += belowThousand()
                if !scale.isEmpty { words.append(scale) }
            }
        }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: words += ["point", units.randomElement(using: &rng)!, units.randomElement(using: &rng)!]
        case 1: words += ["and", "a", "half"]
        case 2: words.append(["dollars", "pounds", "euros", "cents"].randomElement(using: &rng)!)
        case 3: words += ["dollars", "and", units.randomElement(using: &rng)!, "cents"]
        case 4: words += ["per", "cent"]
        case 5: words.append("percent")
        case 6: words.append(["th", "s", "st", "thousandth", "millionth"].randomElement(using: &rng)!)
        default: break
        }
        let separator = [" ", " ", "-", ", "].randomElement(using: &rng)!
        return words.joined(separator: separator)
    }

    /// The Asterisk prompt texts and the pocketsphinx test transcripts, where installed.
    static func realTranscripts() -> [String] {
        var texts: [String] = []
        if let prompts = try? ExternalProgram.run(
            "/bin/gzip", ["-dc", "/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz"])
        {
            for line in prompts.output.split(separator: "\n") where !line.hasPrefix(";") {
                if let colon = line.firstIndex(of: ":") { texts.append(String(line[line.index(after: colon)...])) }
            }
        }
        if let cards = try? String(
            contentsOfFile: "/usr/share/pocketsphinx/test/data/cards/cards.transcription", encoding: .utf8)
        {
            texts += cards.split(separator: "\n").map(String.init)
        }
        return texts
    }
}
