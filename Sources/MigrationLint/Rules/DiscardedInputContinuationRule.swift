/// The input stream's continuation thrown away where the stream is made.
struct DiscardedInputContinuationRule: LintRule {
    static let id = "discarded-input-continuation"
    static let triggers: [[String]] = [["AnalyzerInput"]]
    static let summary = "discards the continuation of the analyzer's input stream"
    static let hint = "keep the continuation: without it no audio can be fed and the input can never end"
    static let explanation = """
        `let (stream, _) = AsyncStream<AnalyzerInput>.makeStream()` throws away the only way to feed
        the stream and to end it. The analyzer then waits for input forever.
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        for index in file.inputContinuationNames().discarded {
            findings.append(
                file.finding(
                    Self.self, at: file.tokens[index].location,
                    "`_` in place of the continuation of AsyncStream<AnalyzerInput>.makeStream()"))
        }
        return findings
    }
}
