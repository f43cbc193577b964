import Speech

/// A bare regex literal with apostrophes in a character class, beside division: both read as Swift
/// reads them, so the file lints clean.
struct NameFinder {
    let namePattern = /^[A-Z][a-zA-Z'-]+(?:\s[A-Z][a-zA-Z'-]+){0,3}$/

    func names(in lines: [String]) -> [String] {
        lines.filter { $0.wholeMatch(of: namePattern) != nil }
    }

    func share(of total: Double, parts: Double, scale: Double) -> Double {
        total / parts / scale
    }
}
