/// A file the tokenizer could not read cleanly; later findings in it may be wrong.
struct UnreadableSourceRule: LintRule {
    static let id = "unreadable-source"
    static let summary = "the file could not be read or tokenized cleanly"
    static let hint = "fix the file or exclude it; findings after a lexical problem may be wrong"
    static let explanation = """
        The tokenizer met an unterminated string or comment, or a file is not UTF-8. Findings after that
        point may be wrong, so the problem is reported rather than hidden.
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        for problem in file.problems {
            findings.append(file.finding(Self.self, at: problem.location, problem.message))
        }
        return findings
    }
}
