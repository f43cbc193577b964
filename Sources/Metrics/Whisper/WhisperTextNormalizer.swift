import Foundation

/// Whisper's text normalisers, as the Open ASR Leaderboard, Whisper's paper and most engine
/// vendors score English: the same output, code point for code point, as the PyPI package
/// `whisper-normalizer` (OpenAI's `EnglishTextNormalizer` and `BasicTextNormalizer`) at the
/// version in `referenceVersion`. `Tests/MetricsTests/WhisperNormalizerTests` runs that package
/// from `.venv` on over 10,000 strings and requires equality.
public enum WhisperTextNormalizer {
    /// The `whisper-normalizer` release this port reproduces.
    public static let referenceVersion = "0.1.15"

    /// `EnglishTextNormalizer`: brackets and fillers dropped, contractions and titles expanded,
    /// numbers and currencies as numerals, British spellings as American, symbols removed.
    public static func english(_ text: String) -> String {
        var s = PythonText.lower(CodePoints(scalars: text))
        s = removeBracketed(s)
        s = removeParenthesized(s)
        s = removeFillers(s)
        s = removeSpaceBeforeApostrophe(s)
        for replacer in replacers { s = replacer.apply(s) }
        s = removeCommasBetweenDigits(s)
        s = removePeriodsNotBeforeDigits(s)
        s = removeSymbolsAndDiacritics(s, keeping: [".", "%", "$", "¢", "€", "£"])
        s = WhisperNumberNormalizer().normalize(s)
        s = americanSpellings(s)
        s = removeStraySymbols(s)
        return PythonText.collapseWhitespace(s).string
    }

    /// `BasicTextNormalizer()`: brackets dropped, marks, symbols and punctuation as spaces (after
    /// NFKC), lower case. For languages other than English.
    public static func basic(_ text: String) -> String {
        var s = PythonText.lower(CodePoints(scalars: text))
        s = removeParenthesized(removeBracketed(s))
        s = CodePoints(scalars: s.string.precomposedStringWithCompatibilityMapping).map { c in
            "MSP".contains(PythonText.majorCategory(c)) ? " " : c
        }
        return PythonText.collapseWhitespace(PythonText.lower(s)).string
    }

    // MARK: Steps

    /// `[<\[][^>\]]*[>\]]`: from `<` or `[` to the next `>` or `]`.
    static func removeBracketed(_ s: CodePoints) -> CodePoints {
        removeSpans(s, opens: { $0 == "<" || $0 == "[" }, closes: { $0 == ">" || $0 == "]" }, minimumInside: 0)
    }

    /// `\(([^)]+?)\)`: from `(` to the next `)`, with something between.
    static func removeParenthesized(_ s: CodePoints) -> CodePoints {
        removeSpans(s, opens: { $0 == "(" }, closes: { $0 == ")" }, minimumInside: 1)
    }

    /// Removes each span from an opening character to the next closing one, scanning left to
    /// right as `re.sub` does; an opener without a closer stays. Linear in the text's length.
    private static func removeSpans(
        _ s: CodePoints, opens: (Unicode.Scalar) -> Bool, closes: (Unicode.Scalar) -> Bool,
        minimumInside: Int
    ) -> CodePoints {
        var nextClose = [Int](repeating: s.count, count: s.count + 1)
        for i in stride(from: s.count - 1, through: 0, by: -1) {
            nextClose[i] = closes(s[i]) ? i : nextClose[i + 1]
        }
        var out = CodePoints()
        var i = 0
        while i < s.count {
            if opens(s[i]) {
                let close = nextClose[i + 1]
                if close < s.count && close - i - 1 >= minimumInside {
                    i = close + 1
                    continue
                }
            }
            out.append(s[i])
            i += 1
        }
        return out
    }

    static let fillers: Set<String> = ["hmm", "mm", "mhm", "mmm", "uh", "um"]

    /// `\b(hmm|mm|mhm|mmm|uh|um)\b`: a whole word that is one of these.
    static func removeFillers(_ s: CodePoints) -> CodePoints {
        var out = CodePoints()
        var i = 0
        while i < s.count {
            guard PythonText.isWord(s[i]) else {
                out.append(s[i])
                i += 1
                continue
            }
            var end = i
            while end < s.count && PythonText.isWord(s[end]) { end += 1 }
            let word = Array(s[i..<end])
            if !(word.count <= 3 && fillers.contains(word.string)) { out += word }
            i = end
        }
        return out
    }

    /// `\s+'` → `'`.
    static func removeSpaceBeforeApostrophe(_ s: CodePoints) -> CodePoints {
        var out = CodePoints()
        var i = 0
        while i < s.count {
            if PythonText.isSpace(s[i]) {
                var end = i
                while end < s.count && PythonText.isSpace(s[end]) { end += 1 }
                if end < s.count && s[end] == "'" {
                    i = end
                    continue
                }
                out += s[i..<end]
                i = end
                continue
            }
            out.append(s[i])
            i += 1
        }
        return out
    }

    /// A literal, optionally after a word boundary, always before one, and what replaces it.
    struct Replacer: Sendable {
        var literal: CodePoints
        var afterBoundary: Bool
        var replacement: CodePoints

        init(_ pattern: String, _ replacement: String) {
            afterBoundary = pattern.hasPrefix("\\b")
            literal = CodePoints(scalars: afterBoundary ? String(pattern.dropFirst(2)) : pattern)
            self.replacement = CodePoints(scalars: replacement)
        }

        func apply(_ s: CodePoints) -> CodePoints {
            guard s.count >= literal.count else { return s }
            var out = CodePoints()
            out.reserveCapacity(s.count)
            var i = 0
            while i < s.count {
                if s[i] == literal[0], i + literal.count <= s.count,
                    !afterBoundary || i == 0 || !PythonText.isWord(s[i - 1]),
                    s[i..<(i + literal.count)].elementsEqual(literal),
                    i + literal.count == s.count || !PythonText.isWord(s[i + literal.count])
                {
                    out += replacement
                    i += literal.count
                } else {
                    out.append(s[i])
                    i += 1
                }
            }
            return out
        }
    }

    /// Applied in this order; `\b` marks a word boundary before the literal (every one ends at one).
    static let replacers: [Replacer] = [
        // Common contractions.
        ("\\bwon't", "will not"), ("\\bcan't", "can not"), ("\\blet's", "let us"), ("\\bain't", "aint"),
        ("\\by'all", "you all"), ("\\bwanna", "want to"), ("\\bkinda", "kind of"), ("\\bsorta", "sort of"),
        ("\\bdunno", "do not know"), ("\\bgotta", "got to"), ("\\bgonna", "going to"), ("\\bi'ma", "i am going to"),
        ("\\bimma", "i am going to"), ("\\bwoulda", "would have"), ("\\bcoulda", "could have"),
        ("\\bshoulda", "should have"), ("\\bcause", "because"), ("\\bma'am", "madam"),
        // Titles and other abbreviations.
        ("\\bmr", "mister "), ("\\bmrs", "missus "), ("\\bst", "saint "), ("\\bdr", "doctor "),
        ("\\bprof", "professor "),
        ("\\bcapt", "captain "), ("\\bgov", "governor "), ("\\bald", "alderman "), ("\\bgen", "general "),
        ("\\bsen", "senator "), ("\\brep", "representative "), ("\\bpres", "president "), ("\\brev", "reverend "),
        ("\\bhon", "honorable "), ("\\basst", "assistant "), ("\\bassoc", "associate "), ("\\blt", "lieutenant "),
        ("\\bcol", "colonel "), ("\\bjr", "junior "), ("\\bsr", "senior "), ("\\besq", "esquire "),
        // Perfect tenses.
        ("'d been", " had been"), ("'s been", " has been"), ("'d gone", " had gone"), ("'s gone", " has gone"),
        ("'d done", " had done"), ("'s got", " has got"),
        // Other contractions.
        ("n't", " not"), ("'re", " are"), ("'s", " is"), ("'d", " would"), ("'ll", " will"), ("'t", " not"),
        ("'ve", " have"), ("'m", " am"),
    ].map(Replacer.init)

    /// `(\d),(\d)` → the two digits.
    static func removeCommasBetweenDigits(_ s: CodePoints) -> CodePoints {
        var out = CodePoints()
        var i = 0
        while i < s.count {
            if i + 2 < s.count, s[i + 1] == ",", PythonText.isDecimal(s[i]), PythonText.isDecimal(s[i + 2]) {
                out += [s[i], s[i + 2]]
                i += 3
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return out
    }

    /// `\.([^0-9]|$)` → a space and what followed.
    static func removePeriodsNotBeforeDigits(_ s: CodePoints) -> CodePoints {
        var out = CodePoints()
        var i = 0
        while i < s.count {
            if s[i] == "." {
                if i + 1 == s.count {
                    out.append(" ")
                    i += 1
                    continue
                }
                if !PythonText.isASCIIDigit(s[i + 1]) {
                    out += [" ", s[i + 1]]
                    i += 2
                    continue
                }
            }
            out.append(s[i])
            i += 1
        }
        return out
    }

    /// Letters that compatibility decomposition does not split from their marks.
    static let additionalDiacritics: [Unicode.Scalar: String] = [
        "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "ẞ": "SS", "đ": "d", "Đ": "D",
        "ð": "d", "Ð": "D", "þ": "th", "Þ": "th", "ł": "l", "Ł": "L",
    ]

    /// After NFKD: nonspacing marks dropped, other marks, symbols and punctuation as spaces,
    /// except the characters kept.
    static func removeSymbolsAndDiacritics(_ s: CodePoints, keeping keep: Set<Unicode.Scalar>) -> CodePoints {
        var out = CodePoints()
        for c in s.string.decomposedStringWithCompatibilityMapping.unicodeScalars {
            if keep.contains(c) {
                out.append(c)
            } else if let plain = additionalDiacritics[c] {
                out += plain.unicodeScalars
            } else if c.properties.generalCategory == .nonspacingMark {
                continue
            } else if "MSP".contains(PythonText.majorCategory(c)) {
                out.append(" ")
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// British spellings as American, word by word (the reference's list of 1,739 words).
    static func americanSpellings(_ s: CodePoints) -> CodePoints {
        let words = PythonText.split(s).map { word -> String in
            let text = word.string
            return spellings[text] ?? text
        }
        return CodePoints(scalars: words.joined(separator: " "))
    }

    static let spellings: [String: String] = {
        guard let url = Bundle.module.url(forResource: "whisper-english-spellings", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let table = try? JSONDecoder().decode([String: String].self, from: data)
        else {
            preconditionFailure("the Metrics module's whisper-english-spellings.json resource is missing or unreadable")
        }
        return table
    }()

    /// `[.$¢€£]([^0-9])` → a space and what followed; then `([^0-9])%` → what preceded and a space.
    static func removeStraySymbols(_ s: CodePoints) -> CodePoints {
        let prefixes: Set<Unicode.Scalar> = [".", "$", "¢", "€", "£"]
        var first = CodePoints()
        var i = 0
        while i < s.count {
            if prefixes.contains(s[i]), i + 1 < s.count, !PythonText.isASCIIDigit(s[i + 1]) {
                first += [" ", s[i + 1]]
                i += 2
            } else {
                first.append(s[i])
                i += 1
            }
        }
        var out = CodePoints()
        i = 0
        while i < first.count {
            if i + 1 < first.count, first[i + 1] == "%", !PythonText.isASCIIDigit(first[i]) {
                out += [first[i], " "]
                i += 2
            } else {
                out.append(first[i])
                i += 1
            }
        }
        return out
    }
}
