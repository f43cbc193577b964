// One file: a port of `EnglishNumberNormalizer` in OpenAI's Whisper (whisper/normalizers/
// english.py), which is one class; kept in one piece so it reads against that source, whose
// quirks the scores depend on.
/// The number step of Whisper's English normaliser: spelled-out numbers become Arabic numerals
/// ("two thousand and five" → "2005", "one oh one" → "101", "double five" → "55"), currency and
/// percent words become symbols ("twenty dollars" → "$20", "5 per cent" → "5%"), ordinal and
/// plural suffixes stay ("twenty first" → "21st", "1960 s" → "1960s"), and a lone 1 reads "one".
///
/// Its rules, quirks included, are those of `EnglishNumberNormalizer` in OpenAI's Whisper, so that
/// scores equal those computed with it.
struct WhisperNumberNormalizer: Sendable {
    private static let onesNames = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen",
    ]
    static let zeros: Set<String> = ["o", "oh", "zero"]
    static let ones: [String: Int] = Dictionary(uniqueKeysWithValues: onesNames.enumerated().map { ($1, $0 + 1) })
    /// "fives", "sixes"; "first", "fifth", "twelfth", "eighth", "ninth", …
    static let onesSuffixed: [String: (Int, String)] = {
        var table: [String: (Int, String)] = [:]
        for (name, value) in ones {
            table[name == "six" ? "sixes" : name + "s"] = (value, "s")
        }
        let irregular: [String: (Int, String)] = [
            "zeroth": (0, "th"), "first": (1, "st"), "second": (2, "nd"),
            "third": (3, "rd"), "fifth": (5, "th"), "twelfth": (12, "th"),
        ]
        for (name, value) in ones where value > 3 && value != 5 && value != 12 {
            table[name + (name.hasSuffix("t") ? "h" : "th")] = (value, "th")
        }
        return table.merging(irregular) { _, new in new }
    }()
    static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
        "seventy": 70, "eighty": 80, "ninety": 90,
    ]
    /// "twenties", "twentieth", …
    static let tensSuffixed: [String: (Int, String)] = {
        var table: [String: (Int, String)] = [:]
        for (name, value) in tens {
            table[name.replacingOccurrences(of: "y", with: "ies")] = (value, "s")
            table[name.replacingOccurrences(of: "y", with: "ieth")] = (value, "th")
        }
        return table
    }()
    /// Powers of ten by name: hundred (2) … decillion (33).
    static let multipliers: [String: Int] = {
        var table = ["hundred": 2, "thousand": 3]
        let large = [
            "million", "billion", "trillion", "quadrillion", "quintillion", "sextillion", "septillion",
            "octillion", "nonillion", "decillion",
        ]
        for (index, name) in large.enumerated() { table[name] = 6 + 3 * index }
        return table
    }()
    static let multipliersSuffixed: [String: (Int, String)] = {
        var table: [String: (Int, String)] = [:]
        for (name, power) in multipliers {
            table[name + "s"] = (power, "s")
            table[name + "th"] = (power, "th")
        }
        return table
    }()
    static let precedingPrefixers: [String: String] = ["minus": "-", "negative": "-", "plus": "+", "positive": "+"]
    static let followingPrefixers: [String: String] = [
        "pound": "£", "pounds": "£", "euro": "€", "euros": "€",
        "dollar": "$", "dollars": "$", "cent": "¢", "cents": "¢",
    ]
    static let prefixes: Set<Unicode.Scalar> = ["-", "+", "£", "€", "$", "¢"]
    static let specials: Set<String> = ["and", "double", "triple", "point"]
    static let decimals: Set<String> = zeros.union(ones.keys).union(tens.keys)
    /// Every word the number step treats specially.
    static let words: Set<String> = {
        var all = zeros.union(ones.keys).union(onesSuffixed.keys).union(tens.keys).union(tensSuffixed.keys)
        all.formUnion(multipliers.keys)
        all.formUnion(multipliersSuffixed.keys)
        all.formUnion(precedingPrefixers.keys)
        all.formUnion(followingPrefixers.keys)
        all.formUnion(["per", "percent"])
        return all.union(specials)
    }()

    func normalize(_ text: CodePoints) -> CodePoints {
        let words = PythonText.split(Self.preprocess(text)).map(\.string)
        var state = NumberState()
        let numbers = state.process(words)
        return Self.postprocess(CodePoints(scalars: numbers.joined(separator: " ")))
    }

    // MARK: Before the words are read

    static func preprocess(_ text: CodePoints) -> CodePoints {
        var spaced = halvesAsPoints(text)
        // A space at every letter/digit boundary, then suffixes joined back on.
        spaced = insertSpace(spaced) { PythonText.isASCIILower($0) && PythonText.isASCIIDigit($1) }
        spaced = insertSpace(spaced) { PythonText.isASCIIDigit($0) && PythonText.isASCIILower($1) }
        return joinSuffixes(spaced)
    }

    /// "<number> and a half" → "<number> point five"; other "and a half" stay, except one that
    /// opens the text, which goes (as in the reference).
    static func halvesAsPoints(_ text: CodePoints) -> CodePoints {
        var segments: [CodePoints] = []
        var start = 0, index = 0
        while index < text.count {
            if let end = matchAndAHalf(text, at: index) {
                segments.append(Array(text[start..<index]))
                start = end
                index = end
            } else {
                index += 1
            }
        }
        segments.append(Array(text[start...]))
        var results: [CodePoints] = []
        for (i, segment) in segments.enumerated() {
            let words = PythonText.split(segment)
            guard let lastWord = words.last?.string else { continue }
            results.append(segment)
            if i < segments.count - 1 {
                let keepsNumber = decimals.contains(lastWord) || multipliers[lastWord] != nil
                results.append(CodePoints(scalars: keepsNumber ? "point five" : "and a half"))
            }
        }
        return Array(results.joined(separator: [" "]))
    }

    /// Matches `\band\s+a\s+half\b` at `index`; returns the end.
    private static func matchAndAHalf(_ text: CodePoints, at index: Int) -> Int? {
        guard PythonText.isBoundary(text, index) else { return nil }
        var i = index
        for (n, word) in ["and", "a", "half"].enumerated() {
            if n > 0 {
                let spaceStart = i
                while i < text.count && PythonText.isSpace(text[i]) { i += 1 }
                guard i > spaceStart else { return nil }
            }
            for c in word.unicodeScalars {
                guard i < text.count, text[i] == c else { return nil }
                i += 1
            }
        }
        return PythonText.isBoundary(text, i) ? i : nil
    }

    private static func insertSpace(
        _ text: CodePoints, between pair: (Unicode.Scalar, Unicode.Scalar) -> Bool
    ) -> CodePoints {
        var out = CodePoints()
        var i = 0
        while i < text.count {
            if i + 1 < text.count && pair(text[i], text[i + 1]) {
                out += [text[i], " ", text[i + 1]]
                i += 2
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return out
    }

    private static let suffixes: [CodePoints] = ["st", "nd", "rd", "th", "s"].map { CodePoints(scalars: $0) }

    /// `([0-9])\s+(st|nd|rd|th|s)\b` → the digit and the suffix, joined.
    private static func joinSuffixes(_ text: CodePoints) -> CodePoints {
        var out = CodePoints()
        var i = 0
        scan: while i < text.count {
            if PythonText.isASCIIDigit(text[i]) {
                var j = i + 1
                while j < text.count && PythonText.isSpace(text[j]) { j += 1 }
                if j > i + 1 {
                    for suffix in suffixes where text[j...].starts(with: suffix) {
                        let end = j + suffix.count
                        if end == text.count || !PythonText.isWord(text[end]) {
                            out.append(text[i])
                            out += suffix
                            i = end
                            continue scan
                        }
                    }
                }
            }
            out.append(text[i])
            i += 1
        }
        return out
    }

    // MARK: After

    static func postprocess(_ text: CodePoints) -> CodePoints {
        onesAsWords(extractCents(combineCents(text)))
    }

    /// "$2 ¢7" and "$2 and ¢7" → "$2.07".
    private static func combineCents(_ text: CodePoints) -> CodePoints {
        var out = CodePoints()
        var i = 0
        while i < text.count {
            if ["€", "£", "$"].contains(text[i]) {
                var j = i + 1
                while j < text.count && PythonText.isASCIIDigit(text[j]) { j += 1 }
                if j > i + 1 && j < text.count && text[j] == " " {
                    var k = j + 1
                    if text[k...].starts(with: CodePoints(scalars: "and ¢")) { k += 4 }
                    if k < text.count && text[k] == "¢", let (cents, end) = centDigits(text, from: k + 1) {
                        out.append(text[i])
                        out += text[(i + 1)..<j]
                        out += CodePoints(scalars: "." + (cents < 10 ? "0" : "") + String(cents))
                        i = end
                        continue
                    }
                }
            }
            out.append(text[i])
            i += 1
        }
        return out
    }

    /// "$0.07" → "¢7" (the reference's pattern takes any character for the point).
    private static func extractCents(_ text: CodePoints) -> CodePoints {
        var out = CodePoints()
        var i = 0
        while i < text.count {
            if ["€", "£", "$"].contains(text[i]), i + 2 < text.count, text[i + 1] == "0", text[i + 2] != "\n",
                let (cents, end) = centDigits(text, from: i + 3)
            {
                out += CodePoints(scalars: "¢" + String(cents))
                i = end
                continue
            }
            out.append(text[i])
            i += 1
        }
        return out
    }

    /// One or two ASCII digits at `start` followed by a word boundary: their value and end.
    private static func centDigits(_ text: CodePoints, from start: Int) -> (Int, Int)? {
        var end = start
        while end < text.count && end < start + 2 && PythonText.isASCIIDigit(text[end]) { end += 1 }
        guard end > start, end == text.count || !PythonText.isWord(text[end]) else { return nil }
        return (text[start..<end].reduce(0) { $0 * 10 + Int($1.value - 48) }, end)
    }

    /// `\b1(s?)\b` → "one", "ones".
    private static func onesAsWords(_ text: CodePoints) -> CodePoints {
        var out = CodePoints()
        var i = 0
        while i < text.count {
            if text[i] == "1" && (i == 0 || !PythonText.isWord(text[i - 1])) {
                if i + 1 < text.count && text[i + 1] == "s" && (i + 2 == text.count || !PythonText.isWord(text[i + 2]))
                {
                    out += CodePoints(scalars: "ones")
                    i += 2
                    continue
                }
                if i + 1 == text.count || !PythonText.isWord(text[i + 1]) {
                    out += CodePoints(scalars: "one")
                    i += 1
                    continue
                }
            }
            out.append(text[i])
            i += 1
        }
        return out
    }
}

/// The number being read: a Python `int` or a `str` in the reference, whose branches differ.
enum NumberValue {
    case integer(Natural)
    case text(String)

    var string: String {
        switch self {
        case .integer(let n): return n.description
        case .text(let s): return s
        }
    }

    /// `str(value or "")`: zero and the empty string count as nothing.
    var orEmpty: String {
        switch self {
        case .integer(let n): return n.isZero ? "" : n.description
        case .text(let s): return s
        }
    }

    var fraction: DecimalFraction? {
        switch self {
        case .integer(let n): return DecimalFraction(CodePoints(scalars: n.description))
        case .text(let s): return DecimalFraction(CodePoints(scalars: s))
        }
    }
}

/// The reading state over the words: the number so far and a pending sign or currency.
struct NumberState {
    typealias N = WhisperNumberNormalizer
    var value: NumberValue?
    var prefix: String?
    var out: [String] = []

    /// Emits `result` with the pending prefix and clears both.
    mutating func output(_ result: String) {
        out.append((prefix ?? "") + result)
        value = nil
        prefix = nil
    }

    mutating func flush() {
        if let value { output(value.string) }
    }

    static func isArabicNumber(_ word: CodePoints) -> Bool {
        let parts = word.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return !parts[0].isEmpty && parts[0].allSatisfy(PythonText.isDecimal)
            && (parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy(PythonText.isDecimal)))
    }

    mutating func process(_ words: [String]) -> [String] {
        var skip = false
        for index in words.indices {
            if skip {
                skip = false
                continue
            }
            let previous = index > 0 ? words[index - 1] : nil
            let current = words[index]
            let next = index + 1 < words.count ? words[index + 1] : nil
            let nextIsNumeric = next.map { Self.isArabicNumber(CodePoints(scalars: $0)) } ?? false
            let scalars = CodePoints(scalars: current)
            let hasPrefix = N.prefixes.contains(scalars[0])
            let bare = hasPrefix ? Array(scalars.dropFirst()) : scalars

            if Self.isArabicNumber(bare) {
                let fraction = DecimalFraction(bare)!
                if let value {
                    if case .text(let s) = value, s.hasSuffix(".") {
                        self.value = .text(s + current)  // decimals and IP address parts
                        continue
                    }
                    output(value.string)
                }
                if hasPrefix { prefix = String(Character(scalars[0])) }
                value = fraction.integer(times10: 0).map(NumberValue.integer) ?? .text(bare.string)
            } else if !N.words.contains(current) {
                flush()
                output(current)
            } else if N.zeros.contains(current) {
                value = .text((value?.orEmpty ?? "") + "0")
            } else if let ones = N.ones[current] {
                readOnes(ones, previous: previous)
            } else if let (ones, suffix) = N.onesSuffixed[current] {
                readOnes(ones, previous: previous)
                output(value!.string + suffix)
            } else if let tens = N.tens[current] {
                readTens(tens)
            } else if let (tens, suffix) = N.tensSuffixed[current] {
                readTens(tens)
                output(value!.string + suffix)
            } else if let power = N.multipliers[current] {
                readMultiplier(power)
            } else if let (power, suffix) = N.multipliersSuffixed[current] {
                readSuffixedMultiplier(power, suffix: suffix)
            } else if let sign = N.precedingPrefixers[current] {
                flush()
                if let next, N.words.contains(next) || nextIsNumeric { prefix = sign } else { output(current) }
            } else if let symbol = N.followingPrefixers[current] {
                if let value {
                    prefix = symbol
                    output(value.string)
                } else {
                    output(current)
                }
            } else if current == "per" || current == "percent" {
                if let value {
                    if current == "percent" {
                        output(value.string + "%")
                    } else if next == "cent" {
                        output(value.string + "%")
                        skip = true
                    } else {
                        output(value.string)
                        output(current)
                    }
                } else {
                    output(current)
                }
            } else {
                skip = readSpecial(current, previous: previous, next: next, nextIsNumeric: nextIsNumeric)
            }
        }
        flush()
        return out
    }

    /// One to nineteen joins the number: added where it fits ("twenty one" → 21), appended
    /// where it does not ("one two" → "12").
    mutating func readOnes(_ ones: Int, previous: String?) {
        guard let value else {
            self.value = .integer(Natural(ones))
            return
        }
        let afterOnes = previous.map { N.ones[$0] != nil } ?? false
        let afterTens = previous.map { N.tens[$0] != nil } ?? false
        switch value {
        case .text(let s) where afterTens && ones < 10:
            self.value = .text(String(s.dropLast()) + String(ones))
        case .text(let s):
            self.value = .text(s + String(ones))
        case .integer(let n) where afterOnes:
            self.value = .text(n.description + String(ones))
        case .integer(let n):
            let fits = ones < 10 ? n.remainder(digits: 1) == 0 : n.remainder(digits: 2) == 0
            self.value = fits ? .integer(n + ones) : .text(n.description + String(ones))
        }
    }

    mutating func readTens(_ tens: Int) {
        switch value {
        case nil: value = .integer(Natural(tens))
        case .text(let s): value = .text(s + String(tens))
        case .integer(let n):
            value = n.remainder(digits: 2) == 0 ? .integer(n + tens) : .text(n.description + String(tens))
        }
    }

    mutating func readMultiplier(_ power: Int) {
        switch value {
        case nil:
            value = .integer(Natural.power(of: power))
        case .integer(let n) where !n.isZero:
            value = .integer(n.thousandsPart + Natural(n.remainder(digits: 3)).shifted(by: power))
        case .text, .integer:
            if let product = value!.fraction?.integer(times10: power) {
                value = .integer(product)
            } else {
                output(value!.string)
                value = .integer(Natural.power(of: power))
            }
        }
    }

    mutating func readSuffixedMultiplier(_ power: Int, suffix: String) {
        switch value {
        case nil:
            output(Natural.power(of: power).description + suffix)
        case .text(let s):
            if let product = DecimalFraction(CodePoints(scalars: s))?.integer(times10: power) {
                output(product.description + suffix)
            } else {
                output(s)
                output(Natural.power(of: power).description + suffix)
            }
        case .integer(let n):
            output((n.thousandsPart + Natural(n.remainder(digits: 3)).shifted(by: power)).description + suffix)
        }
    }

    /// "and", "double", "triple" and "point"; returns whether the next word was taken too.
    mutating func readSpecial(_ current: String, previous: String?, next: String?, nextIsNumeric: Bool) -> Bool {
        guard let next, N.words.contains(next) || nextIsNumeric else {
            flush()
            output(current)
            return false
        }
        switch current {
        case "and":
            // Dropped after hundred, thousand, …
            if previous.map({ N.multipliers[$0] == nil }) ?? true {
                flush()
                output(current)
            }
        case "double", "triple":
            if N.ones[next] != nil || N.zeros.contains(next) {
                let digit = String(N.ones[next] ?? 0)
                value = .text((value?.orEmpty ?? "") + String(repeating: digit, count: current == "double" ? 2 : 3))
                return true
            }
            flush()
            output(current)
        default:  // "point"
            if N.decimals.contains(next) || nextIsNumeric { value = .text((value?.orEmpty ?? "") + ".") }
        }
        return false
    }
}
