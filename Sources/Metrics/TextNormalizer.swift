import Foundation

/// How reference and hypothesis text are made comparable before scoring. Reports always name
/// the normaliser used (``name``, with the reference's version for Whisper's).
public enum TextNormalizer: String, Sendable, CaseIterable, Codable {
    /// Whitespace tokenisation only.
    case none
    /// Lower case; punctuation and bracketed annotations removed; hyphens split words.
    case basic
    /// `basic`, plus numbers written as words, contractions expanded and fillers dropped.
    case english
    /// Whisper's English normaliser (numbers as numerals, British spellings as American, …), as
    /// the Open ASR Leaderboard and Whisper's paper score: ``WhisperTextNormalizer/english(_:)``.
    case whisperEnglish = "whisper-en"
    /// Whisper's basic normaliser, for other languages: ``WhisperTextNormalizer/basic(_:)``.
    case whisperBasic = "whisper-basic"
    /// Digit strings: every digit counts once however it is written (``DigitTranscript``).
    case digits
    /// Spanish as spoken (``SpokenLanguage/normalized(_:)``): lower case, punctuation and bracketed
    /// text removed, numbers read as words, diacritics folded.
    case spokenSpanish = "spoken-es"
    /// French as spoken, as ``spokenSpanish`` is for Spanish.
    case spokenFrench = "spoken-fr"
    /// Italian as spoken, as ``spokenSpanish`` is for Spanish.
    case spokenItalian = "spoken-it"
    /// Russian as spoken: numbers read as words, ё as е.
    case spokenRussian = "spoken-ru"

    public func normalize(_ text: String) -> String {
        switch self {
        case .none: return WordAligner.tokens(text).joined(separator: " ")
        case .basic: return Self.basic(text).joined(separator: " ")
        case .english: return Self.english(text).joined(separator: " ")
        case .whisperEnglish: return WordAligner.tokens(WhisperTextNormalizer.english(text)).joined(separator: " ")
        case .whisperBasic: return WordAligner.tokens(WhisperTextNormalizer.basic(text)).joined(separator: " ")
        case .digits: return DigitTranscript.words(text).joined(separator: " ")
        case .spokenSpanish: return SpokenLanguage.spanish.normalized(text).joined(separator: " ")
        case .spokenFrench: return SpokenLanguage.french.normalized(text).joined(separator: " ")
        case .spokenItalian: return SpokenLanguage.italian.normalized(text).joined(separator: " ")
        case .spokenRussian: return SpokenLanguage.russian.normalized(text).joined(separator: " ")
        }
    }

    /// The name reports use: Whisper's carry the version of the reference they equal
    /// (`whisper-en@0.1.15`).
    public var name: String {
        switch self {
        case .whisperEnglish, .whisperBasic: return rawValue + "@" + WhisperTextNormalizer.referenceVersion
        default: return rawValue
        }
    }

    /// From a name as given on the command line or written in a report (a version is ignored).
    public init?(name: String) {
        self.init(rawValue: String(name.prefix { $0 != "@" }))
    }

    static func basic(_ text: String) -> [String] {
        var cleaned = ""
        var depth = 0
        for ch in text.precomposedStringWithCanonicalMapping.lowercased() {
            if ch == "[" || ch == "(" || ch == "<" {
                depth += 1
                continue
            }
            if ch == "]" || ch == ")" || ch == ">" {
                depth = max(0, depth - 1)
                continue
            }
            guard depth == 0 else { continue }
            if ch.isLetter || ch.isNumber || ch == "'" {
                cleaned.append(ch)
            } else if ch == "." && cleaned.last?.isNumber == true {
                cleaned.append(ch)  // decimal point, settled below
            } else {
                cleaned.append(" ")
            }
        }
        return cleaned.split(separator: " ").map { token in
            var t = String(token)
            while t.hasSuffix(".") || t.hasSuffix("'") { t.removeLast() }
            while t.hasPrefix("'") { t.removeFirst() }
            return t
        }.filter { !$0.isEmpty }
    }

    static let fillers: Set<String> = ["uh", "um", "er", "erm", "ah", "eh", "hmm", "mm", "mhm", "uhm"]
    static let contractions: [String: [String]] = [
        "won't": ["will", "not"], "can't": ["can", "not"], "shan't": ["shall", "not"], "ain't": ["is", "not"],
        "let's": ["let", "us"], "i'm": ["i", "am"],
    ]
    static let suffixes: [(String, String)] = [
        ("n't", "not"), ("'re", "are"), ("'ll", "will"), ("'ve", "have"), ("'d", "would"), ("'s", "is"),
    ]

    static func english(_ text: String) -> [String] {
        var out: [String] = []
        for token in basic(text) {
            if fillers.contains(token) { continue }
            if let expansion = contractions[token] {
                out += expansion
                continue
            }
            if let (suffix, word) = suffixes.first(where: { token.hasSuffix($0.0) && token.count > $0.0.count }) {
                out += [String(token.dropLast(suffix.count)), word]
                continue
            }
            if let first = token.first, first.isASCII, first.isNumber {
                out += SpokenForm.spell(token)
                continue
            }
            out.append(token)
        }
        return out
    }
}

/// Words that count as the same when scoring, in the spirit of sclite's GLM files: each line of
/// a mapping file is `word => canonical` (e.g. `oh => zero`); `;` starts a comment.
public struct EquivalenceMap: Sendable, Hashable, Codable {
    public var name: String
    public var canonical: [String: String]

    public init(name: String, canonical: [String: String]) {
        self.name = name
        self.canonical = canonical
    }

    /// "oh" and "o" as spoken zero.
    public static let ohIsZero = EquivalenceMap(name: "oh=zero", canonical: ["oh": "zero", "o": "zero"])

    public func apply(_ text: String) -> String {
        WordAligner.tokens(text).map { canonical[$0] ?? $0 }.joined(separator: " ")
    }

    /// Reads `word => canonical` lines; returns the problem with its line number on error.
    public static func parse(_ text: String, name: String) throws(MetricsError) -> EquivalenceMap {
        var map: [String: String] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line =
                raw.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let parts = line.components(separatedBy: "=>")
            guard parts.count == 2 else { throw .invalidMapping(name: name, line: index + 1, text: String(raw)) }
            let from = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            let to = parts[1].trimmingCharacters(in: .whitespaces).lowercased()
            guard !from.isEmpty, !to.isEmpty, !from.contains(" ") else {
                throw .invalidMapping(name: name, line: index + 1, text: String(raw))
            }
            map[from] = to
        }
        return EquivalenceMap(name: name, canonical: map)
    }
}

/// Problems with scoring inputs.
public enum MetricsError: Error, CustomStringConvertible, Equatable, Sendable {
    case invalidMapping(name: String, line: Int, text: String)

    public var description: String {
        switch self {
        case .invalidMapping(let name, let line, let text):
            return "\(name):\(line): expected 'word => canonical', got '\(text)'"
        }
    }
}

/// A named scoring policy: normaliser plus optional equivalences.
public struct ScoringPolicy: Sendable, Hashable, Codable {
    public var normalizer: TextNormalizer
    public var equivalences: EquivalenceMap?

    public init(normalizer: TextNormalizer, equivalences: EquivalenceMap? = nil) {
        self.normalizer = normalizer
        self.equivalences = equivalences
    }

    public var name: String { normalizer.name + (equivalences.map { "+" + $0.name } ?? "") }

    /// The policy for digit strings.
    public static let digits = ScoringPolicy(normalizer: .digits)

    public func prepare(_ text: String) -> String {
        let normal = normalizer.normalize(text)
        return equivalences?.apply(normal) ?? normal
    }
}
