import Foundation

/// Rewrites written English prompt text as the words a speaker says, so that references and
/// recogniser output can be compared word for word: "Press 1, then #." → "press one then pound".
///
/// Rules (documented in `Corpus/README.md`): numbers of up to three digits are read as cardinals
/// ("500" → "five hundred"); longer digit runs, as extensions and PINs are, digit by digit;
/// decimals with "point"; `#` pound, `*` star, `%` percent, `&` and, `+` plus, `@` at; bracketed
/// text (stage directions such as "[beep tone]") is dropped; letters with dots (A.M.) are spelled;
/// hyphens split words; other punctuation goes, apostrophes inside words stay; lower case.
public enum SpokenForm {
    static let ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen",
    ]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let symbols: [Character: String] = [
        "#": "pound", "*": "star", "%": "percent", "&": "and", "+": "plus",
        "@": "at", "=": "equals", "$": "dollar",
    ]

    /// The spoken form, or nil when nothing speakable remains (a prompt that is only a tone).
    public static func english(_ written: String) -> String? {
        // Drop bracketed stage directions.
        var text = ""
        var depth = 0
        for ch in written {
            if ch == "[" {
                depth += 1
                continue
            }
            if ch == "]" {
                depth = max(0, depth - 1)
                continue
            }
            if depth == 0 { text.append(ch) }
        }
        // Spell dotted abbreviations (A.M., H.323 keeps its number part).
        text = text.replacingOccurrences(of: #"\b([A-Za-z])\.(?=[A-Za-z]\.)"#, with: "$1 ", options: .regularExpression)
        var words: [String] = []
        for rawToken in text.split(whereSeparator: { $0.isWhitespace || $0 == "-" || $0 == "/" || $0 == "_" }) {
            words += spell(String(rawToken))
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    static func spell(_ token: String) -> [String] {
        var out: [String] = []
        var current = ""
        var kind: Character = " "  // "a" letters, "d" digits
        func flush() {
            guard !current.isEmpty else { return }
            if kind == "d" { out += number(current) } else { out.append(current.lowercased()) }
            current = ""
        }
        let chars = Array(token)
        for (i, ch) in chars.enumerated() {
            if ch.isNumber && ch.isASCII {
                if kind != "d" {
                    flush()
                    kind = "d"
                }
                current.append(ch)
            } else if ch == "." && kind == "d" && i + 1 < chars.count && chars[i + 1].isNumber {
                current.append(ch)  // decimal point
            } else if ch.isLetter || (ch == "'" && kind == "a" && i + 1 < chars.count && chars[i + 1].isLetter) {
                if kind != "a" {
                    flush()
                    kind = "a"
                }
                current.append(ch)
            } else if let word = symbols[ch] {
                flush()
                kind = " "
                out.append(word)
            } else {
                flush()
                kind = " "
            }
        }
        flush()
        return out
    }

    /// "7" → seven, "28.8" → twenty eight point eight, "500" → five hundred, "1234" → one two three four.
    /// Anything else in the token (a second point, stray characters) is read one digit at a time.
    static func number(_ digits: String) -> [String] {
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty {
            return number(String(parts[0])) + ["point"] + oneByOne(parts[1])
        }
        guard parts.count == 1, digits.count <= 3, let value = Int(digits), value >= 0 else {
            return oneByOne(Substring(digits))
        }
        if digits.count > 1 && digits.hasPrefix("0") { return oneByOne(Substring(digits)) }
        return cardinal(value)
    }

    /// Each ASCII digit as its word, "." as "point"; other characters are dropped.
    static func oneByOne(_ text: Substring) -> [String] {
        text.compactMap { ch in
            if ch == "." { return "point" }
            guard ch.isASCII, let digit = ch.wholeNumberValue else { return nil }
            return ones[digit]
        }
    }

    /// Cardinal words for 0…999.
    public static func cardinal(_ value: Int) -> [String] {
        precondition((0..<1000).contains(value))
        if value < 20 { return [ones[value]] }
        if value < 100 { return [tens[value / 10]] + (value % 10 == 0 ? [] : [ones[value % 10]]) }
        return [ones[value / 100], "hundred"] + (value % 100 == 0 ? [] : cardinal(value % 100))
    }

    /// The word for each digit 0–9 in the locales whose digit recordings the corpus uses.
    public static let digitWords: [String: [String]] = [
        "en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
        "es": ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"],
        "fr": ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"],
        "it": ["zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove"],
        "ru": ["ноль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"],
    ]
}
