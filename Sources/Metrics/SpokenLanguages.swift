import Foundation

/// Spoken forms of Spanish, French, Italian and Russian prompt text, for the real-speech tiers of
/// those languages and their normalisers: "Marque 1 para salir." → "marque uno para salir".
///
/// Rules (documented in `Corpus/README.md`): bracketed text (a tone, "[tono simple]") is dropped;
/// numbers of one or two digits are read as cardinals in the language (Russian in the masculine
/// nominative, as its digit recordings say them); longer digit runs and decimals have no reading
/// that text settles (a PIN, a year, a speed), so such a prompt has no spoken form; hyphens and
/// other punctuation split or go; apostrophes inside words stay; lower case.
public enum SpokenLanguage: String, Sendable, CaseIterable {
    case spanish = "es"
    case french = "fr"
    case italian = "it"
    case russian = "ru"

    /// The language of a locale identifier (`es-MX`, `fr_CA`), if it is one of these.
    public init?(locale: String) {
        self.init(rawValue: String(locale.prefix(2)).lowercased())
    }

    /// The words `written` is spoken as, or nil when nothing speakable remains or a number in it
    /// has no reading the text settles.
    public func spoken(_ written: String) -> [String]? { words(written, strict: true) }

    /// The words a recogniser's or a reference's text compares as, for scoring: the spoken form
    /// with a longer number read digit by digit (a decimal's separator dropped), diacritics folded
    /// in Spanish, French and Italian (the prompts' transcripts leave many out) and ё read as е.
    public func normalized(_ text: String) -> [String] {
        (words(text, strict: false) ?? []).map { word in
            switch self {
            case .russian: word.replacingOccurrences(of: "ё", with: "е")
            case .spanish, .french, .italian: word.folding(options: .diacriticInsensitive, locale: nil)
            }
        }
    }

    private func words(_ written: String, strict: Bool) -> [String]? {
        var words: [String] = []
        var depth = 0
        var token = ""
        func flush() -> Bool {
            defer { token = "" }
            guard !token.isEmpty else { return true }
            let trimmed = token.trimmingCharacters(in: CharacterSet(charactersIn: "'’"))
            guard !trimmed.isEmpty else { return true }
            if trimmed.allSatisfy({ $0.isASCII && $0.isNumber }), trimmed.count <= 2, let value = Int(trimmed) {
                words += cardinal(value)
            } else if trimmed.contains(where: { $0.isNumber }) {
                guard !strict else { return false }
                for ch in trimmed {
                    if let digit = ch.wholeNumberValue, ch.isASCII {
                        words += cardinal(digit)
                    } else if ch.isLetter {
                        words.append(String(ch).lowercased())
                    }
                }
            } else {
                words.append(trimmed.lowercased())
            }
            return true
        }
        let characters = Array(written.precomposedStringWithCanonicalMapping)
        for (index, ch) in characters.enumerated() {
            if ch == "[" || ch == "(" {
                depth += 1
                guard flush() else { return nil }
                continue
            }
            if ch == "]" || ch == ")" {
                depth = max(0, depth - 1)
                continue
            }
            guard depth == 0 else { continue }
            if ch.isLetter || (ch.isASCII && ch.isNumber) || ((ch == "'" || ch == "’") && !token.isEmpty) {
                token.append(ch == "’" ? "'" : ch)
            } else if ch == "." || ch == ",", token.last?.isNumber == true,
                index + 1 < characters.count, characters[index + 1].isNumber
            {
                token.append(ch)  // a decimal: no reading, refused in flush
            } else {
                guard flush() else { return nil }
            }
        }
        guard flush() else { return nil }
        return words.isEmpty ? nil : words
    }

    /// The cardinal 0…99 as words (French compounds split at their hyphens).
    public func cardinal(_ value: Int) -> [String] {
        precondition((0..<100).contains(value))
        switch self {
        case .spanish: return Self.spanishWords[value].split(separator: " ").map(String.init)
        case .italian: return [Self.italian(value)]
        case .french: return Self.french(value).split(whereSeparator: { $0 == "-" || $0 == " " }).map(String.init)
        case .russian: return Self.russian(value)
        }
    }

    private static let spanishWords: [String] = {
        let units = [
            "cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce",
            "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte", "veintiuno",
            "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete", "veintiocho",
            "veintinueve",
        ]
        let tens = ["", "", "", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]
        return (0..<100).map { n in
            n < 30 ? units[n] : tens[n / 10] + (n % 10 == 0 ? "" : " y " + units[n % 10])
        }
    }()

    private static func italian(_ n: Int) -> String {
        let units = [
            "zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci", "undici",
            "dodici", "tredici", "quattordici", "quindici", "sedici", "diciassette", "diciotto", "diciannove",
        ]
        let tens = ["", "", "venti", "trenta", "quaranta", "cinquanta", "sessanta", "settanta", "ottanta", "novanta"]
        if n < 20 { return units[n] }
        let ten = tens[n / 10], unit = n % 10
        if unit == 0 { return ten }
        // The tens lose their vowel before uno and otto; a final tre takes its accent.
        let stem = unit == 1 || unit == 8 ? String(ten.dropLast()) : ten
        return stem + (unit == 3 ? "tré" : units[unit])
    }

    private static func french(_ n: Int) -> String {
        let units = [
            "zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze",
            "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf",
        ]
        if n < 20 { return units[n] }
        let tens = ["", "", "vingt", "trente", "quarante", "cinquante", "soixante"]
        switch n {
        case 20..<70:
            let unit = n % 10
            return tens[n / 10] + (unit == 0 ? "" : unit == 1 ? " et un" : "-" + units[unit])
        case 70..<80: return n == 71 ? "soixante et onze" : "soixante-" + units[n - 60]
        case 80: return "quatre-vingts"
        default: return "quatre-vingt-" + units[n - 80]
        }
    }

    private static func russian(_ n: Int) -> [String] {
        let units = [
            "ноль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять",
            "одиннадцать", "двенадцать", "тринадцать", "четырнадцать", "пятнадцать", "шестнадцать", "семнадцать",
            "восемнадцать", "девятнадцать",
        ]
        let tens = [
            "", "", "двадцать", "тридцать", "сорок", "пятьдесят", "шестьдесят", "семьдесят", "восемьдесят",
            "девяносто",
        ]
        if n < 20 { return [units[n]] }
        return [tens[n / 10]] + (n % 10 == 0 ? [] : [units[n % 10]])
    }
}
