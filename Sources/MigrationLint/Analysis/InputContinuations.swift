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
            // AsyncStream { continuation in … } and its spellings: the element type read from the
            // generic argument, `AnalyzerInput.self`, the declared type of what it is assigned to,
            // the return type of the function returning it, or the `inputSequence:` it is passed as.
            if let (name, element) = streamClosure(at: index) {
                if element == "AnalyzerInput" { names.insert(name) } else { others.insert(name) }
            }
        }
        // A name declared with another element type stays another stream's, though an assignment
        // somewhere (`activity = continuation`) passes it a name the input uses elsewhere.
        let input = names.union(propagatingAssignments(names).subtracting(others))
        return (input, discarded, others.subtracting(input))
    }

    /// The continuation parameter of a stream built with a closure at `index`
    /// (`AsyncStream { c in … }`, `AsyncStream<T>(bufferingPolicy: …) { c in … }`,
    /// `AsyncStream(T.self) { c in … }`), with the stream's element type when a declaration says it.
    func streamClosure(at index: Int) -> (name: String, element: String)? {
        guard tokens[index].is("AsyncStream") || tokens[index].is("AsyncThrowingStream"),
            token(index - 1)?.is(".") != true
        else { return nil }
        var cursor = index + 1
        var element: String?
        if let generic = genericArgument(at: cursor) {
            element = generic.text
            cursor = generic.next
        }
        if token(cursor)?.is("(") == true, let close = structure.partner[cursor] {
            if let type = token(cursor + 1), type.kind == .identifier, matches(cursor + 2, [".", "self"]) {
                element = type.text
            }
            cursor = close + 1
        }
        guard token(cursor)?.is("{") == true, let name = token(cursor + 1), name.kind == .identifier,
            token(cursor + 2)?.is("in") == true
        else { return nil }
        return element.map { (name.text, $0) } ?? declaredElement(ofStreamAt: index).map { (name.text, $0) }
    }

    /// The element type a declaration gives the stream built at `index`: `let s: AsyncStream<T> =`,
    /// a function declared `-> AsyncStream<T>` that returns it, or `inputSequence:` (the analyzer's).
    private func declaredElement(ofStreamAt index: Int) -> String? {
        if token(index - 1)?.is(":") == true, token(index - 2)?.is("inputSequence") == true { return "AnalyzerInput" }
        let start = structure.statementStart(of: index)
        let streams = ["AsyncStream", "AsyncThrowingStream"]
        // `let input: AsyncStream<AnalyzerInput> = AsyncStream { … }`
        if let assign = (start..<index).last(where: { tokens[$0].is("=") }),
            let annotation = (start..<assign).first(where: {
                streams.contains(tokens[$0].text) && matches($0 + 1, ["<"])
            }),
            let generic = genericArgument(at: annotation + 1)
        {
            return generic.text
        }
        // `return AsyncStream { … }`, or the one expression of a function's body.
        guard let function = structure.enclosingFunction(of: index),
            let block = structure.block(enclosing: function.body)
        else { return nil }
        let lone = start == function.body.lowerBound
        guard tokens[start].is("return") || lone else { return nil }
        // The stream built must be the function's, not one inside a closure of it.
        guard structure.enclosingBlocks(of: index).last?.open == block.open else { return nil }
        let header = structure.statementStart(of: block.open)..<block.open
        guard let arrow = header.first(where: { tokens[$0].is("->") }) else { return nil }
        var cursor = arrow + 1
        if token(cursor)?.is("some") == true || token(cursor)?.is("any") == true { cursor += 1 }
        guard let stream = token(cursor), streams.contains(stream.text) || stream.text == "AsyncSequence",
            let generic = genericArgument(at: cursor + 1)
        else { return nil }
        return generic.text
    }

    /// The name declared at `index` as the continuation of a stream whose element is not
    /// `AnalyzerInput`: `c: AsyncStream<T>.Continuation`, `let (s, c) = AsyncStream<T>.makeStream()`
    /// or `AsyncStream.makeStream(of: T.self)`.
    func otherContinuation(at index: Int) -> String? {
        let streams = ["AsyncStream", "AsyncThrowingStream"]
        guard streams.contains(tokens[index].text) else { return nil }
        var element: String?
        if let generic = genericArgument(at: index + 1) { element = generic.text }
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

/// What a continuation at one use is known to continue, from the declaration in scope there.
enum ContinuationElement: Equatable {
    /// A stream of this element type.
    case stream(String)
    /// Declared where the element type is not written (a closure parameter of `AsyncStream { … }`
    /// whose type nothing declares), or something other than a stream's continuation.
    case unknown
    /// No declaration of the name in scope in this file.
    case notDeclared
}

extension LintedFile {
    /// The declaration of `name` in scope at `index`, innermost first: the parameter of an enclosing
    /// stream closure (`AsyncStream { name in … }`), a parameter of the enclosing function, a local
    /// of it, or a stored property of the enclosing type, each read for the stream's element type.
    func continuationElement(of name: String, at index: Int) -> ContinuationElement {
        let blocks = structure.enclosingBlocks(of: index)
        for block in blocks.reversed() {
            if block.kind == .other, token(block.open + 1)?.text == name, token(block.open + 2)?.is("in") == true {
                guard let stream = streamConstructor(ofClosureAt: block.open),
                    let (_, element) = streamClosure(at: stream)
                else { return .unknown }
                return .stream(element)
            }
            guard case .function = block.kind else { continue }
            let header = structure.statementStart(of: block.open)..<block.open
            if let element = declaredContinuation(name, in: header) { return .stream(element) }
            let body = (block.open + 1)..<index
            if let element = declaredContinuation(name, in: body) { return .stream(element) }
        }
        if let type = blocks.last(where: { if case .type = $0.kind { return true } else { return false } }) {
            let members = structure.blocks.filter { $0.open > type.open && $0.close < type.close }
            let direct = ((type.open + 1)..<type.close).filter { position in
                !members.contains { $0.open < position && position < $0.close }
            }
            if let first = direct.first, let last = direct.last,
                let element = declaredContinuation(name, in: first..<(last + 1), only: Set(direct))
            {
                return .stream(element)
            }
        }
        return .notDeclared
    }

    /// The `AsyncStream` token of `AsyncStream { … }`, `AsyncStream<T>(…) { … }` or
    /// `AsyncStream(T.self) { … }` whose closure opens at `open`.
    private func streamConstructor(ofClosureAt open: Int) -> Int? {
        var cursor = open - 1
        if token(cursor)?.is(")") == true, let start = structure.partner[cursor] { cursor = start - 1 }
        if token(cursor)?.is(">") == true, token(cursor - 2)?.is("<") == true { cursor -= 3 }
        guard let stream = token(cursor), stream.is("AsyncStream") || stream.is("AsyncThrowingStream") else {
            return nil
        }
        return cursor
    }

    /// The element type of a continuation called `name` declared in `range`:
    /// `name: AsyncStream<T>.Continuation`, `let (s, name) = AsyncStream<T>.makeStream()` or
    /// `AsyncStream.makeStream(of: T.self)`.
    private func declaredContinuation(_ name: String, in range: Range<Int>, only: Set<Int>? = nil) -> String? {
        let streams = ["AsyncStream", "AsyncThrowingStream"]
        for index in range where tokens[index].text == name && tokens[index].kind == .identifier {
            if let only, !only.contains(index) { continue }
            if token(index + 1)?.is(":") == true, let stream = token(index + 2), streams.contains(stream.text),
                let generic = genericArgument(at: index + 3), matches(generic.next, [".", "Continuation"])
            {
                return generic.text
            }
            // `let (stream, name) = …makeStream…`
            guard token(index + 1)?.is(")") == true, token(index + 2)?.is("=") == true, let stream = token(index + 3),
                streams.contains(stream.text)
            else { continue }
            if let generic = genericArgument(at: index + 4) { return generic.text }
            if matches(index + 4, [".", "makeStream", "(", "of", ":"]), let element = token(index + 9) {
                return element.text
            }
        }
        return nil
    }

    /// The generic argument `<T>` opening at `open`, written out (`AnalyzerInput`,
    /// `(samples:[Float],sampleRate:Double)`; `Speech.AnalyzerInput` is `AnalyzerInput`), and the index
    /// after its `>`; nil when `open` is no `<`.
    func genericArgument(at open: Int) -> (text: String, next: Int)? {
        guard token(open)?.is("<") == true else { return nil }
        var depth = 0
        var cursor = open
        var text = ""
        while cursor < tokens.count {
            let token = tokens[cursor]
            if token.is("<") {
                depth += 1
                if depth > 1 { text += "<" }
            } else if token.is(">") {
                depth -= 1
                if depth == 0 {
                    if text.hasPrefix("Speech.") { text.removeFirst("Speech.".count) }
                    return text.isEmpty ? nil : (text, cursor + 1)
                }
                text += ">"
            } else if token.is("(") || token.is("["), let close = structure.partner[cursor] {
                text += (cursor...close).map { tokens[$0].text }.joined()
                cursor = close
            } else if token.is("{") || token.is(";") || token.is("=") {
                return nil
            } else {
                text += token.text
            }
            cursor += 1
        }
        return nil
    }
}
