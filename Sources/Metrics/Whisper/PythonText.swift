import Foundation

/// Text as Python sees it: a sequence of code points. Whisper's normalisers are defined by Python
/// string methods and `re` patterns on `str`, which work on code points with Python's Unicode
/// classes, so this port works on `Unicode.Scalar`s with the same classes rather than on Swift's
/// grapheme clusters.
typealias CodePoints = [Unicode.Scalar]

extension Array where Element == Unicode.Scalar {
    init(scalars text: String) { self = Array(text.unicodeScalars) }

    var string: String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: self)
        return String(view)
    }
}

/// Python's character classes: `str.isspace` (also `re`'s `\s`), `re`'s `\w` and `\d` on `str`
/// patterns, `str.lower` and `str.split()`.
enum PythonText {
    /// The code points for which `str.isspace()` is true.
    static let whitespace: Set<UInt32> = [
        0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0, 0x1680,
        0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
        0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
    ]

    static func isSpace(_ c: Unicode.Scalar) -> Bool { whitespace.contains(c.value) }

    /// `\d`: a decimal digit of any script (general category Nd).
    static func isDecimal(_ c: Unicode.Scalar) -> Bool { c.properties.numericType == .decimal }

    static func isASCIIDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    static func isASCIILower(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) }

    /// `\w`: letters (categories L*), anything with a numeric value, and the underscore.
    static func isWord(_ c: Unicode.Scalar) -> Bool {
        if c == "_" || c.properties.numericType != nil { return true }
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    /// Whether a `\b` holds between `text[index - 1]` and `text[index]`.
    static func isBoundary(_ text: CodePoints, _ index: Int) -> Bool {
        let before = index > 0 && isWord(text[index - 1])
        let after = index < text.count && isWord(text[index])
        return before != after
    }

    /// `str.lower()`: full lower-case mappings, with capital sigma as final sigma where Unicode's
    /// Final_Sigma context says so.
    static func lower(_ text: CodePoints) -> CodePoints {
        var out = CodePoints()
        out.reserveCapacity(text.count)
        for (index, c) in text.enumerated() {
            if c == "\u{03A3}" {
                out.append(isFinalSigma(text, at: index) ? "\u{03C2}" : "\u{03C3}")
            } else if c.isASCII {
                out.append(("A"..."Z").contains(c) ? Unicode.Scalar(c.value + 32)! : c)
            } else {
                out.append(contentsOf: c.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return out
    }

    /// A cased letter before (case-ignorable ones skipped) and none after.
    private static func isFinalSigma(_ text: CodePoints, at index: Int) -> Bool {
        let before = text[..<index].last { !$0.properties.isCaseIgnorable }
        guard let before, before.properties.isCased else { return false }
        let after = text[(index + 1)...].first { !$0.properties.isCaseIgnorable }
        return after.map { !$0.properties.isCased } ?? true
    }

    /// `str.split()`: runs of whitespace separate, none at the ends.
    static func split(_ text: CodePoints) -> [CodePoints] {
        text.split(whereSeparator: isSpace).map(Array.init)
    }

    /// `re.sub(r"\s+", " ", text)`.
    static func collapseWhitespace(_ text: CodePoints) -> CodePoints {
        var out = CodePoints()
        out.reserveCapacity(text.count)
        for c in text {
            if isSpace(c) {
                if out.last != " " { out.append(" ") }
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// Unicode general category as Python's `unicodedata.category` spells it, first letter only.
    static func majorCategory(_ c: Unicode.Scalar) -> Character {
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return "L"
        case .nonspacingMark, .spacingMark, .enclosingMark: return "M"
        case .decimalNumber, .letterNumber, .otherNumber: return "N"
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return "P"
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol: return "S"
        case .spaceSeparator, .lineSeparator, .paragraphSeparator: return "Z"
        default: return "C"
        }
    }
}
