/// A task consuming results that nothing keeps.
struct UntrackedResultTaskRule: LintRule {
    static let id = "untracked-result-task"
    static let triggers: [[String]] = [[".results"], ["Task"]]
    static let summary = "consumes results in a Task nobody keeps"
    static let hint =
        "store the task and cancel or await it on teardown, or use `async let` / a task group so its errors have an owner"
    static let explanation = """
        A `Task { for try await r in transcriber.results … }` that nothing stores cannot be cancelled on
        teardown, and its error is lost. Store it, await it, or use structured concurrency. A task
        that only holds such a task (the results are read in a task inside it) is not the one
        reported: the inner one is. Nor is a task a function returns (the only statement of a
        function declared `-> Task<…>`), which its caller keeps. Results are a module's only in a file
        that sees Speech, and consumed only where the statement awaits them (a Vision request's
        `results` is read synchronously).
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        // A module's results exist only where the file sees Speech (a Vision request has `results` too).
        guard file.importsSpeech || file.run?.reexportsSpeech == true else { return [] }
        var findings: [LintFinding] = []
        for index in file.tokens.indices where file.tokens[index].is("Task") {
            var cursor = index + 1
            if file.matches(cursor, [".", "detached"]) { cursor += 2 }
            if file.token(cursor)?.is("(") == true { cursor = (file.structure.partner[cursor] ?? cursor) + 1 }
            guard file.token(cursor)?.is("{") == true, let close = file.structure.partner[cursor] else { continue }
            let body = (cursor + 1)..<close
            // The results read directly in this body, not in a task nested in it.
            let nested = body.compactMap { position -> Range<Int>? in
                guard position != index, file.tokens[position].is("Task") else { return nil }
                var open = position + 1
                if file.matches(open, [".", "detached"]) { open += 2 }
                if file.token(open)?.is("(") == true { open = (file.structure.partner[open] ?? open) + 1 }
                guard file.token(open)?.is("{") == true, let end = file.structure.partner[open] else { return nil }
                return open..<end
            }
            // Consumed: awaited in its statement (`for try await r in transcriber.results`,
            // `try await transcriber.results.first { … }`); a synchronous `.results` is another API's.
            let consumesResults = body.contains { position in
                guard file.matches(position, [".", "results"]), !nested.contains(where: { $0.contains(position) })
                else { return false }
                let start = file.outerStatementStart(of: position)
                let end = file.structure.statementEnd(from: start)
                return (start..<min(end, file.tokens.count)).contains { file.tokens[$0].is("await") }
            }
            guard consumesResults else { continue }
            let start = file.structure.statementStart(of: index)
            let discarded =
                (start == index && !file.isImplicitlyReturned(statementAt: index)) || file.matches(start, ["_", "="])
            if discarded {
                findings.append(
                    file.finding(Self.self, at: file.tokens[index].location, "Task { … .results … } is not stored"))
            }
        }
        return findings
    }
}

extension LintedFile {
    /// Whether the statement at `index` is the whole body of a function that returns a value, so
    /// Swift returns it without `return`.
    fileprivate func isImplicitlyReturned(statementAt index: Int) -> Bool {
        guard let block = structure.enclosingBlocks(of: index).last, case .function = block.kind,
            block.open + 1 == index, structure.statementEnd(from: index) >= block.close
        else { return false }
        // `->` after the parameter list, not inside a closure parameter's type.
        guard let list = structure.parameterList(ofFunctionAt: block) else { return false }
        return ((list.close + 1)..<block.open).contains { tokens[$0].is("->") }
    }
}
