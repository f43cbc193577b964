/// The continuations that feed an analyzer's input (`AsyncStream<AnalyzerInput>`), told apart
/// from those of other streams, such as a capture pipeline's buffers.
extension LintedFile {
    /// Names holding the continuation of an `AsyncStream<AnalyzerInput>`.
    func inputContinuationNames() -> (names: Set<String>, discarded: [Int], others: Set<String>) {
        var names: Set<String> = []
        var discarded: [Int] = []
        var others: Set<String> = []
        for index in tokens.indices {
            // Continuations of streams of anything else (`AsyncStream<AVAudioPCMBuffer>`): a
            // capture pipeline's, which may end without the analyzer's input ending.
            if let name = otherContinuation(at: index) { others.insert(name) }
            // let (sequence, continuation) = AsyncStream<AnalyzerInput>.makeStream()
            //                              or AsyncStream.makeStream(of: AnalyzerInput.self)
            if matches(index, ["AsyncStream", "<", "AnalyzerInput", ">", ".", "makeStream"])
                || matches(index, ["AsyncStream", ".", "makeStream", "(", "of", ":", "AnalyzerInput"]),
                token(index - 1)?.is("=") == true, token(index - 2)?.is(")") == true,
                let open = structure.partner[index - 2]
            {
                let parts = ((open + 1)..<(index - 2)).filter { !tokens[$0].is(",") }
                if parts.count == 2 {
                    if tokens[parts[1]].is("_") {
                        discarded.append(parts[1])
                    } else {
                        names.insert(tokens[parts[1]].text)
                    }
                }
            }
            // var continuation: AsyncStream<AnalyzerInput>.Continuation
            if matches(index, [":", "AsyncStream", "<", "AnalyzerInput", ">", ".", "Continuation"]),
                let name = token(index - 1), name.kind == .identifier
            {
                names.insert(name.text)
            }
            // AsyncStream<AnalyzerInput> { continuation in … }
            if matches(index, ["AsyncStream", "<", "AnalyzerInput", ">", "{"]), let name = token(index + 5),
                name.kind == .identifier, token(index + 6)?.is("in") == true
            {
                names.insert(name.text)
            }
        }
        // A name declared with another element type stays another stream's, though an assignment
        // somewhere (`activity = continuation`) passes it a name the input uses elsewhere.
        let input = names.union(propagatingAssignments(names).subtracting(others))
        return (input, discarded, others.subtracting(input))
    }

    /// The name declared at `index` as the continuation of a stream whose element is not
    /// `AnalyzerInput`: `c: AsyncStream<T>.Continuation`, `let (s, c) = AsyncStream<T>.makeStream()`
    /// or `AsyncStream.makeStream(of: T.self)`.
    func otherContinuation(at index: Int) -> String? {
        let streams = ["AsyncStream", "AsyncThrowingStream"]
        guard streams.contains(tokens[index].text) else { return nil }
        var element: String?
        if matches(index + 1, ["<"]), let type = token(index + 2), type.kind == .identifier { element = type.text }
        if matches(index + 1, [".", "makeStream", "(", "of", ":"]), let type = token(index + 6) { element = type.text }
        guard let element, element != "AnalyzerInput" else { return nil }
        if token(index - 1)?.is(":") == true, let name = token(index - 2), name.kind == .identifier,
            (index..<min(tokens.count, index + 8)).contains(where: { tokens[$0].is("Continuation") })
        {
            return name.text
        }
        if token(index - 1)?.is("=") == true, token(index - 2)?.is(")") == true, let open = structure.partner[index - 2]
        {
            let parts = ((open + 1)..<(index - 2)).filter { !tokens[$0].is(",") }
            if parts.count == 2, tokens[parts[1]].kind == .identifier, !tokens[parts[1]].is("_") {
                return tokens[parts[1]].text
            }
        }
        return nil
    }
}
