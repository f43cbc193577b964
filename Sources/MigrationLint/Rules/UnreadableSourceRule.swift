/// A file Swift's parser could not read cleanly; later findings in it may be wrong.
struct UnreadableSourceRule: LintRule {
    static let id = "unreadable-source"
    static let triggers: [[String]] = [
        ["import Speech", "import struct Speech", "import class Speech", "import enum Speech"]
    ]
    static let summary = "the file could not be read or parsed cleanly"
    static let hint = "fix the file or exclude it; findings after a syntax error may be wrong"
    static let explanation = """
        Swift's parser (the toolchain's own) met a syntax error, such as an unterminated string or
        comment or a missing brace, or a file is not UTF-8. Findings after that point may be wrong, so
        the problem is reported rather than hidden: the parser's first error, with how many followed
        it. Editor placeholders (`<#name#>`), which sample code leaves for the reader, are not errors.
        Checked in the files the rules read: those importing Speech or naming any rule's words (other
        files are not parsed, and the compiler reports their errors).
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        for problem in file.problems {
            findings.append(file.finding(Self.self, at: problem.location, problem.message))
        }
        return findings
    }
}
