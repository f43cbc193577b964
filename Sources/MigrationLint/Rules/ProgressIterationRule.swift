/// `for await` over a Foundation Progress.
struct ProgressIterationRule: LintRule {
    static let id = "progress-async-iteration"
    static let triggers: [[String]] = [["rogress"], ["for await", "for try await"]]
    static let summary = "iterates a Foundation Progress with `for await`"
    static let hint = "Progress is not an AsyncSequence: observe it (fractionCompleted, KVO, ProgressView) instead"
    static let explanation = """
        An asset installation request exposes a Foundation `Progress`, which is not an AsyncSequence;
        `for await` over it does not compile against the real SDK. Observe fractionCompleted instead.
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        for index in file.tokens.indices where file.tokens[index].is("for") {
            var cursor = index + 1
            if file.token(cursor)?.is("try") == true { cursor += 1 }
            guard file.token(cursor)?.is("await") == true else { continue }
            guard
                let inIndex = (cursor..<min(file.tokens.count, cursor + 40)).first(where: { file.tokens[$0].is("in") }),
                let open = (inIndex..<file.tokens.count).first(where: { file.tokens[$0].is("{") })
            else { continue }
            let sequence = (inIndex + 1)..<open
            let names = file.identifiers(in: sequence)
            if names.last == "progress" || names.last == "Progress"
                || sequence.contains(where: { file.matches($0, [".", "progress"]) && $0 + 2 == open })
            {
                findings.append(
                    file.finding(
                        Self.self, at: file.tokens[index].location, "for await … in \(names.joined(separator: "."))"))
            }
        }
        return findings
    }
}
