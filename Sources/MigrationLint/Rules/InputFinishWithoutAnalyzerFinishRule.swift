/// The analyzer's input ended on a path that never finishes or cancels the analyzer.
struct InputFinishWithoutAnalyzerFinishRule: LintRule {
    static let id = "input-finish-without-analyzer-finish"
    static let triggers: [[String]] = [["AnalyzerInput"]]
    static let summary = "ends the input stream without finishing the analyzer"
    static let hint =
        "after `continuation.finish()`, await `analyzer.finalizeAndFinishThroughEndOfInput()` (or `cancelAndFinishNow()`); ending the stream alone does not finish analysis"
    static let explanation = """
        Ending the input stream (`continuation.finish()`) does not end the analysis session: the
        analyzer may be given another input sequence, so it waits. A path that ends the input must also
        end the session with a finish or cancel call (finalizeAndFinishThroughEndOfInput,
        finalizeAndFinish, finish(after:), cancelAndFinishNow). Setting the analyzer to nil is not
        enough: pending results are never finalized, and the running analysis may keep it alive.
        Before reporting, the rule follows: calls to functions and to closures stored on the type whose
        bodies make such a call (to any depth); the callers of the function that ends the input, in its
        own type and, across the files linted, on receivers whose type is evident (a local made with
        `Type(…)`, a stored property or a parameter of that type), each of which must finish or cancel
        the analyzer, before or after the call (followed up to four callers deep); `catch` clauses whose
        `do` only runs the analyzer or iterates its results, where the analyzer's error has already
        finished the session; and where the path hands the failure on, up to four hand-offs deep: a
        handler closure (`onFailure(error)`) to every closure passed for it in the files, also when a
        type in between hands its own handler on under another name (`Input(onError: failureHandler)`);
        a delegate call (`delegate?.didFail(…)`) on a property typed with a protocol of the project, to
        that method of every type adopting it; an action sent (`send(.failed(error))`) to the `case` of
        the `switch` that handles it, each case its own path (a finish in another case does not count).
        Where the path leaves the files linted, the rule cannot judge it and prints a note instead of a
        finding: a handler no closure in the files is passed for, a protocol no type in the files
        adopts, a reducer case returning an effect (`.run`, `.cancel(id:)`, `.merge`), which the effect
        runtime carries out. The finding or note names the path it followed and where it stopped; a
        function nothing in the files calls is reported. Calls from test code are not followed, and a
        function only tests call is no path of the app. The continuation must be proven the input's:
        a declaration in the files gives its stream the element type AnalyzerInput (the generic
        argument, `AnalyzerInput.self`, the declared type the stream is assigned to, the return type of
        the function returning it, or the `inputSequence:` it is passed as); a continuation only named
        like one is noted, not reported, and one of a stream of another element is left alone. A
        `catch` whose every throwing call comes before the analyzer starts (or is the start) ran no
        session, so ending the input there is not reported. Not reported either: a type that keeps its
        analyzer in a stored `let`, whose one analyzer serves session after session (the API reference
        lets an analyzer start again with a new input sequence).
        """

    static func check(_ file: LintedFile) -> [LintFinding] { review(file).findings }

    static func notes(_ file: LintedFile) -> [LintNote] { review(file).notes }

    /// The findings, and the notes for paths that could not be followed to their end.
    private static func review(_ file: LintedFile) -> LintReview {
        var review = LintReview()
        let (names, _, others) = file.inputContinuationNames()
        let mentionsAnalyzerInput = file.tokens.contains { $0.text == "AnalyzerInput" }
        guard mentionsAnalyzerInput else { return review }
        let finishers = file.run?.finishers[file.unitIndex] ?? file.analyzerFinishers()
        for index in file.tokens.indices where file.matches(index, [".", "finish", "(", ")"]) {
            guard let receiver = file.receiverName(beforeDot: index) else { continue }
            // Proven: the declaration in scope (or, for a name declared elsewhere in the file, the
            // file's declarations) gives the stream it continues the element type AnalyzerInput.
            // Only named like one: judged as far as the path goes, then noted.
            let proven: Bool
            switch file.continuationElement(of: receiver, at: index) {
            case .stream(let element):
                guard element == "AnalyzerInput" else { continue }
                proven = true
            case .unknown:
                proven = false
            case .notDeclared:
                if others.contains(receiver) { continue }
                proven = names.contains(receiver)
            }
            let lowered = receiver.lowercased()
            guard proven || lowered.contains("continuation") || lowered.contains("inputbuilder") else { continue }
            if file.isAfterAnalyzerError(index, finishers) { continue }
            if file.endsBeforeAnalyzerStart(index, finishers) { continue }
            let location = file.tokens[index + 1].location
            let unproven =
                "no declaration in the files says that \(receiver) continues an AsyncStream<AnalyzerInput> (only its name suggests it)"
            guard let function = file.structure.enclosingFunction(of: index) else {
                if !file.finishesAnalyzer(0..<file.tokens.count, finishers) {
                    if proven {
                        review.findings.append(
                            file.finding(
                                Self.self, at: location, "\(receiver).finish() with no analyzer finish in this file"))
                    } else {
                        review.notes.append(
                            LintNote(
                                file: file.file, location: location, rule: id,
                                text: "\(receiver).finish() not judged: \(unproven)"))
                    }
                }
                continue
            }
            let otherCases = file.reducerCases(inBody: function.body).filter { !$0.contains(index) }
            if file.finishesAnalyzer(function.body, finishers, excluding: otherCases) { continue }
            // An analyzer the type keeps for its whole life serves session after session: ending
            // one input leaves it ready for the next, as the API reference allows.
            if let type = file.structure.enclosingTypeName(of: index), file.keepsAnalyzer(type) { continue }
            var visited: Set<String> = []
            let callers = file.followCallers(of: function.name, from: index, finishers, visited: &visited)
            if callers.finished { continue }
            var followed: Set<String> = []
            var handOffs = file.handOffs(in: function.body, visited: &followed)
            if handOffs.verdict == .unfollowable, let analyzer = file.localAnalyzer(in: function.body) {
                let made =
                    "\(analyzer) is made in \(function.name)() and given to nothing else, so no code elsewhere can finish it"
                let place = function.body.first { file.tokens[$0].text == analyzer } ?? index
                handOffs = HandOffOutcome(
                    verdict: .doesNotFinish, steps: [made], evidence: [file.step(at: place, made)])
            }
            let trail = handOffs.steps.map { $0 + "; " }.joined() + callers.trail
            let evidence = handOffs.evidence + callers.evidence
            switch handOffs.verdict {
            case .finishes: continue
            case .unfollowable:
                review.notes.append(
                    LintNote(
                        file: file.file, location: location, rule: id,
                        text:
                            "\(receiver).finish() in \(function.name)() not judged: the path goes where the rule cannot follow; followed: \(trail)",
                        evidence: evidence))
            case .doesNotFinish where !proven:
                review.notes.append(
                    LintNote(
                        file: file.file, location: location, rule: id,
                        text:
                            "\(receiver).finish() in \(function.name)() not judged: \(unproven); no analyzer finish or cancel on the path; followed: \(trail)",
                        evidence: evidence))
            case .doesNotFinish:
                review.findings.append(
                    file.finding(
                        Self.self, at: location,
                        "\(receiver).finish() in \(function.name)() with no analyzer finish or cancel there; followed: \(trail)",
                        evidence: evidence))
            }
        }
        return review
    }
}

extension LintedFile {
    /// Whether `type` holds a SpeechAnalyzer in a stored `let` (`let analyzer = SpeechAnalyzer(…)`,
    /// `let analyzer: SpeechAnalyzer`), so one analyzer outlives each session's input.
    fileprivate func keepsAnalyzer(_ type: String) -> Bool {
        tokens.indices.contains { index in
            guard tokens[index].is("let"), let name = token(index + 1), name.kind == .identifier,
                structure.enclosingBlocks(of: index).last?.kind == .type(name: type)
            else { return false }
            return matches(index + 2, [":", "SpeechAnalyzer"]) || matches(index + 2, ["=", "SpeechAnalyzer", "("])
        }
    }
}
