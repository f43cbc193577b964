/// Result type names that never shipped, where the name would be Speech's.
struct NonexistentResultTypeRule: LintRule {
    static let id = "nonexistent-result-type"
    static let triggers: [[String]] = [["TranscriptionResult"]]
    static let summary = "names a result type the Speech framework does not have"
    static let hint =
        "the element type of `transcriber.results` is `SpeechTranscriber.Result` (or `DictationTranscriber.Result`)"
    static let explanation = """
        `SpeechTranscriptionResult` and `DictationTranscriptionResult` never shipped. Code naming them
        does not compile against the real SDK; the result types are nested in their modules. Reported
        only where the name would be Speech's: in a file that imports Speech (or a module that
        re-exports it), and not when the project declares a type of that name itself.
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        for (index, token) in file.tokens.enumerated()
        where token.kind == .identifier
            && ["SpeechTranscriptionResult", "DictationTranscriptionResult"].contains(token.text)
            && file.token(index - 1)?.is(".") != true && file.namesSpeechType(token.text)
        {
            let shipped =
                token.text == "SpeechTranscriptionResult" ? "SpeechTranscriber.Result" : "DictationTranscriber.Result"
            findings.append(
                file.finding(
                    Self.self, at: token.location, "\(token.text) → \(shipped)",
                    fix: LintFix(
                        start: token.location.column, end: token.location.column + token.text.count,
                        replacement: shipped)))
        }
        return findings
    }
}
