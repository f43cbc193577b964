extension UnreadableSourceRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "bare-regex: a bare regex literal (`/^[A-Z][a-zA-Z'-]+…$/`, apostrophes in its classes) beside a division `a / b / c`, as held-out set 3's meeting app has it; the twin writes the pattern between apostrophes, which Swift's parser rejects (one finding for the file, as for any syntax error in a file the rules read)",
            files: [
                (
                    "NameFinder.swift",
                    ##"""
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
                    """##
                )
            ]
        )
    ]
    static let triggeringExamples: [LintExample] = [
        LintExample(
            "bare-regex-wrong: a bare regex literal (`/^[A-Z][a-zA-Z'-]+…$/`, apostrophes in its classes) beside a division `a / b / c`, as held-out set 3's meeting app has it; the twin writes the pattern between apostrophes, which Swift's parser rejects (one finding for the file, as for any syntax error in a file the rules read)",
            files: [
                (
                    "NameFinder.swift",
                    ##"""
                    import Speech

                    /// The twin of bare-regex: the pattern written between apostrophes, which Swift does not read.
                    struct NameFinder {
                        let namePattern = ↓'^[A-Z][a-zA-Z-]+$'

                        func names(in lines: [String]) -> [String] {
                            lines.filter { $0 == namePattern }
                        }

                        func share(of total: Double, parts: Double, scale: Double) -> Double {
                            total / parts / scale
                        }
                    }
                    """##
                )
            ]
        )
    ]
}
