/// `.transcription` read from a transcriber's result, which has `text` instead.
struct ResultTranscriptionRule: LintRule {
    static let id = "result-transcription"
    static let triggers: [[String]] = [[".transcription"], ["results", "TranscriptionResult", "Transcriber.Result"]]
    static let summary = "reads `.transcription`, which transcriber results do not have"
    static let hint = "use `result.text` (an AttributedString) or `String(result.text.characters)` for plain text"
    static let explanation = """
        Legacy results carried `bestTranscription`/`transcription`; the new results carry `text`, an
        AttributedString whose runs hold time ranges and confidences. Reported where `.transcription` is
        read from a transcriber result: a loop variable over a `results` sequence, or a value declared
        with a result type. An app's own `memo.transcription` is not reported.
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        let results = file.transcriberResultNames
        for (index, token) in file.tokens.enumerated() {
            guard token.is("."), let member = file.token(index + 1), member.kind == .identifier,
                member.text == "transcription", let receiver = file.receiverName(beforeDot: index),
                results.contains(receiver)
            else { continue }
            findings.append(file.finding(Self.self, at: member.location, "\(receiver).transcription"))
        }
        return findings
    }
}

extension LintedFile {
    /// Names that hold a transcriber's result in this file: loop variables over a `results`
    /// sequence (`for try await r in transcriber.results`) and names declared with a result type.
    /// An app's own `memo.transcription` is not one.
    fileprivate var transcriberResultNames: Set<String> {
        let resultTypes = Set(["SpeechTranscriptionResult", "DictationTranscriptionResult"].filter(namesSpeechType))
        var names: Set<String> = []
        for block in structure.blocks where block.kind == .loop {
            let header = block.header
            guard let inIndex = header.first(where: { tokens[$0].is("in") }),
                ((inIndex + 1)..<header.upperBound).contains(where: { tokens[$0].is("results") })
            else { continue }
            for index in header.lowerBound..<inIndex where tokens[index].kind == .identifier {
                if !["try", "await", "case", "let", "var"].contains(tokens[index].text) {
                    names.insert(tokens[index].text)
                }
            }
        }
        for index in tokens.indices where tokens[index].is(":") {
            guard let name = token(index - 1), name.kind == .identifier, let type = token(index + 1) else { continue }
            if resultTypes.contains(type.text)
                || ["SpeechTranscriber", "DictationTranscriber"].contains(type.text)
                    && matches(index + 2, [".", "Result"])
            {
                names.insert(name.text)
            }
        }
        return names
    }
}
