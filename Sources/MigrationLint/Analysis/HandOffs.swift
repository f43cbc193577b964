/// Where a path hands its outcome on to code written elsewhere in the run, and what that code does
/// with it: a handler closure (`onError(error)`), a delegate's method (`delegate?.didFail(error)`),
/// an action a `switch` handles (`send(.failed(error))`), or a method of the same type. The input
/// rule asks this when the path that ends the input does not finish the analyzer itself: a hand-off
/// whose every destination finishes or cancels it ends the session; one whose destination is not in
/// the files linted (no closure passed, no type adopting the protocol, a reducer's effect) cannot
/// be followed, and the rule then notes that instead of reporting.
struct HandOffOutcome {
    enum Verdict {
        /// Some hand-off reaches an analyzer finish or cancel on every path it can take.
        case finishes
        /// None does, and at least one leads where the rule cannot see.
        case unfollowable
        /// None does, and every destination was read.
        case doesNotFinish

        var words: String {
            switch self {
            case .finishes: "finishes or cancels the analyzer"
            case .unfollowable: "leads where the rule cannot follow"
            case .doesNotFinish: "does not finish or cancel the analyzer"
            }
        }
    }

    var verdict: Verdict
    /// The hand-offs followed, in words, for the finding's or the note's "followed:".
    var steps: [String] = []
    /// The places those hand-offs went through, in order.
    var evidence: [LintStep] = []

    var trail: String { steps.joined(separator: "; ") }

    /// One hand-off's outcome from those of its destinations: all must finish for it to finish.
    static func all(_ outcomes: [HandOffOutcome]) -> Verdict {
        outcomes.map(\.verdict).contains(.doesNotFinish)
            ? .doesNotFinish : outcomes.allSatisfy { $0.verdict == .finishes } ? .finishes : .unfollowable
    }

    /// A body's outcome from its hand-offs': one that finishes is enough.
    static func any(_ verdicts: [Verdict]) -> Verdict {
        verdicts.contains(.finishes) ? .finishes : verdicts.contains(.unfollowable) ? .unfollowable : .doesNotFinish
    }

    /// `verdict`'s words, with the destinations' own trails when they have any.
    static func words(_ verdict: Verdict, _ outcomes: [HandOffOutcome]) -> String {
        let inner = outcomes.map(\.trail).filter { !$0.isEmpty }
        return inner.isEmpty ? verdict.words : "\(verdict.words) (\(inner.joined(separator: "; ")))"
    }
}

/// One hand-off found in a body: what it came to, how the finding or note says it, and the places.
private typealias HandOffStep = (verdict: HandOffOutcome.Verdict, words: String, evidence: [LintStep])

extension LintedFile {
    /// What the hand-offs in `body` come to, followed up to four levels deep.
    func handOffs(in body: Range<Int>, depth: Int = 0, visited: inout Set<String>) -> HandOffOutcome {
        let finishers = run?.finishers[unitIndex] ?? analyzerFinishers()
        if finishesAnalyzer(body, finishers) { return HandOffOutcome(verdict: .finishes) }
        guard let run, visited.insert("\(unitIndex):\(body.lowerBound)").inserted else {
            return HandOffOutcome(verdict: .doesNotFinish)
        }
        guard depth < 4 else {
            return HandOffOutcome(verdict: .unfollowable, steps: ["followed no further than four hand-offs"])
        }
        let steps =
            handlerHandOffs(in: body, run, depth: depth, visited: &visited)
            + delegateAndActionHandOffs(in: body, run, depth: depth, visited: &visited)
            + ownMethodHandOffs(in: body, depth: depth, visited: &visited)
        return HandOffOutcome(
            verdict: HandOffOutcome.any(steps.map(\.verdict)), steps: steps.map(\.words),
            evidence: steps.flatMap(\.evidence))
    }

    /// What the body's own calls of this type's handler closures (`onError(error)`) come to: the
    /// closures passed for them, or, for a parameter of the function around the call, what that
    /// function's callers pass.
    private func handlerHandOffs(
        in body: Range<Int>, _ run: ProjectIndex, depth: Int, visited: inout Set<String>
    ) -> [HandOffStep] {
        let declared = closureTypedNames()
        var handlers: [String: Int] = [:]
        for index in body where declared.contains(tokens[index].text) && isOwnCall(at: index) {
            handlers[tokens[index].text] = handlers[tokens[index].text] ?? index
        }
        var steps: [HandOffStep] = []
        for (name, call) in handlers.sorted(by: { $0.key < $1.key }) {
            if let function = parameterOwner(of: name, at: call) {
                let arguments = run.arguments(labelled: name, inCallsOf: function)
                let called = step(at: call, "calls \(name)(…), a parameter of \(function)(…)")
                guard !arguments.isEmpty else {
                    steps.append(
                        (
                            .unfollowable,
                            "\(name)(…) is called, and no call of \(function)(…) in the files linted passes it by that label",
                            [called]
                        ))
                    continue
                }
                var outcomes: [HandOffOutcome] = []
                var places: [String] = []
                var evidence = [called]
                for argument in arguments {
                    let file = run.file(argument.unit, project: project)
                    let place = "\(run.units[argument.unit].file):\(argument.line)"
                    places.append(place)
                    evidence.append(file.step(at: argument.value, "a call of \(function)(…) passes this for \(name)"))
                    if file.tokens[argument.value].is("{"), let close = file.structure.partner[argument.value] {
                        outcomes.append(
                            file.handOffs(in: (argument.value + 1)..<close, depth: depth + 1, visited: &visited))
                        continue
                    }
                    let value = file.tokens[argument.value].text
                    let bindings = value == name ? [] : ProjectIndex.bindings(of: value, in: run.units)
                    guard !bindings.isEmpty else {
                        outcomes.append(
                            HandOffOutcome(
                                verdict: .unfollowable,
                                steps: ["handed on as \(value) at \(place), which is not followed"]))
                        continue
                    }
                    outcomes += bindings.map { binding in
                        run.file(binding.unit, project: project).handOffs(
                            in: binding.body, depth: depth + 1, visited: &visited)
                    }
                }
                let verdict = HandOffOutcome.all(outcomes)
                steps.append(
                    (
                        verdict,
                        "\(name)(…) is called, and what the callers of \(function)(…) pass for it (\(places.joined(separator: ", "))) \(HandOffOutcome.words(verdict, outcomes))",
                        evidence + outcomes.flatMap(\.evidence)
                    ))
                continue
            }
            let bindings = ProjectIndex.bindings(of: name, in: run.units)
            let called = step(at: call, "calls \(name)(…)")
            guard !bindings.isEmpty else {
                steps.append(
                    (
                        .unfollowable, "\(name)(…) is called, and no closure is passed for it in the files linted",
                        [called]
                    ))
                continue
            }
            let outcomes = bindings.map { binding in
                run.file(binding.unit, project: project).handOffs(in: binding.body, depth: depth + 1, visited: &visited)
            }
            let places = bindings.map { "\(run.units[$0.unit].file):\($0.line)" }.joined(separator: ", ")
            let verdict = HandOffOutcome.all(outcomes)
            var evidence = [called]
            for (binding, outcome) in zip(bindings, outcomes) {
                evidence.append(
                    run.file(binding.unit, project: project).step(
                        at: binding.body.lowerBound - 1, "the closure passed for \(name) \(outcome.verdict.words)"))
                evidence += outcome.evidence
            }
            steps.append(
                (
                    verdict,
                    "\(name)(…) is called, and the closure passed for it (\(places)) \(HandOffOutcome.words(verdict, outcomes))",
                    evidence
                ))
        }
        return steps
    }

    /// What the body's delegate calls (`delegate?.didFail(…)` on a property typed with a protocol of
    /// the run) and sent actions (`send(.failed(error))`, handled by a `case .failed` of a `switch`)
    /// come to.
    private func delegateAndActionHandOffs(
        in body: Range<Int>, _ run: ProjectIndex, depth: Int, visited: inout Set<String>
    ) -> [HandOffStep] {
        var steps: [HandOffStep] = []
        for index in body where tokens[index].is(".") {
            guard let member = token(index + 1), member.kind == .identifier else { continue }
            if matches(index + 2, ["("]), let receiver = receiverName(beforeDot: index), receiver != "self",
                let type = run.receiverType(receiver, at: index, in: unitIndex), run.declaresProtocol(type)
            {
                let methods = run.implementations(of: member.text, adopting: type)
                let called = step(at: index + 1, "calls \(receiver).\(member.text)(…) on a \(type)")
                guard !methods.isEmpty else {
                    steps.append(
                        (
                            .unfollowable,
                            "\(receiver).\(member.text)(…) goes to an adopter of \(type), and no type in the files linted adopts it",
                            [called]
                        ))
                    continue
                }
                let outcomes = methods.map { method in
                    run.file(method.unit, project: project).handOffs(
                        in: method.body, depth: depth + 1, visited: &visited)
                }
                let places = methods.map { "\($0.type).\(member.text)() at \(run.units[$0.unit].file):\($0.line)" }
                let verdict = HandOffOutcome.all(outcomes)
                var evidence = [called]
                for (method, outcome) in zip(methods, outcomes) {
                    evidence.append(
                        run.file(method.unit, project: project).step(
                            at: method.body.lowerBound - 1,
                            "\(method.type).\(member.text)() \(outcome.verdict.words)"))
                    evidence += outcome.evidence
                }
                steps.append(
                    (
                        verdict,
                        "\(receiver).\(member.text)(…) goes to \(places.joined(separator: ", ")), which \(HandOffOutcome.words(verdict, outcomes))",
                        evidence
                    ))
                continue
            }
            guard token(index - 1)?.is("(") == true, token(index - 2)?.kind == .identifier,
                matches(index + 2, ["("]) || matches(index + 2, [")"]) || matches(index + 2, [","])
            else { continue }
            let cases = run.switchCases(named: member.text)
            guard !cases.isEmpty else { continue }
            var outcomes: [HandOffOutcome] = []
            var places: [String] = []
            var evidence = [step(at: index + 1, "sends .\(member.text)")]
            for handled in cases {
                let file = run.file(handled.unit, project: project)
                var outcome = file.handOffs(in: handled.body, depth: depth + 1, visited: &visited)
                if outcome.verdict != .finishes, let effect = file.effect(in: handled.body) {
                    outcome = HandOffOutcome(
                        verdict: .unfollowable, steps: ["it returns an effect (\(effect)), which is not followed"])
                }
                outcomes.append(outcome)
                places.append("\(run.units[handled.unit].file):\(handled.line)")
                let first = min(handled.body.lowerBound, max(0, file.tokens.count - 1))
                evidence.append(file.step(at: first, "case .\(member.text) \(outcome.verdict.words)"))
                evidence += outcome.evidence
            }
            // The action reaches one reducer; the other switches over the same cases only show them.
            let verdict = HandOffOutcome.any(outcomes.map(\.verdict))
            steps.append(
                (
                    verdict,
                    ".\(member.text) is sent, and its case (\(places.joined(separator: ", "))) \(HandOffOutcome.words(verdict, outcomes))",
                    evidence
                ))
        }
        return steps
    }

    /// What the type's own methods the body calls come to, through the hand-offs they make in
    /// turn; a reducer is reached through the actions it is sent, case by case, instead.
    private func ownMethodHandOffs(in body: Range<Int>, depth: Int, visited: inout Set<String>) -> [HandOffStep] {
        let type = structure.enclosingTypeName(of: body.lowerBound)
        var steps: [HandOffStep] = []
        for block in structure.blocks {
            guard case .function(let name) = block.kind, structure.enclosingTypeName(of: block.open) == type,
                body.contains(where: { tokens[$0].text == name && isOwnCall(at: $0) }),
                reducerCases(ofFunctionAt: block).isEmpty
            else { continue }
            let outcome = handOffs(in: (block.open + 1)..<block.close, depth: depth + 1, visited: &visited)
            guard outcome.verdict != .doesNotFinish else { continue }
            let call = body.first(where: { tokens[$0].text == name && isOwnCall(at: $0) }) ?? block.open
            steps.append(
                (
                    outcome.verdict, "\(name)() is called, and it \(HandOffOutcome.words(outcome.verdict, [outcome]))",
                    [step(at: call, "calls \(name)(), which \(outcome.verdict.words)")] + outcome.evidence
                ))
        }
        return steps
    }

    /// The function whose parameter list declares `name`, when the call at `position` is inside
    /// it (`func start(failureHandler: @escaping (String) -> Void)`, called in a closure there).
    func parameterOwner(of name: String, at position: Int) -> String? {
        guard let function = structure.enclosingFunction(of: position),
            let block = structure.block(enclosing: function.body),
            structure.parameterNames(ofFunctionAt: block).contains(name)
        else { return nil }
        return function.name
    }

    /// The analyzer `body` makes for itself and gives to nothing else (`let analyzer =
    /// SpeechAnalyzer(…)`, never assigned, passed, captured or returned), when it uses no other: no
    /// code elsewhere can finish that one, so the body's hand-offs cannot matter.
    func localAnalyzer(in body: Range<Int>) -> String? {
        var local: Set<String> = []
        for index in body where tokens[index].is("SpeechAnalyzer") && matches(index + 1, ["("]) {
            var before = index - 1
            while let word = token(before), word.is("try") || word.is("await") { before -= 1 }
            guard token(before)?.is("=") == true, let name = token(before - 1), name.kind == .identifier,
                token(before - 2)?.is("let") == true || token(before - 2)?.is("var") == true
            else { return nil }
            local.insert(name.text)
        }
        guard !local.isEmpty else { return nil }
        let elsewhere = analyzerNames().subtracting(local).subtracting(["_"])
        for index in body where tokens[index].kind == .identifier {
            if elsewhere.contains(tokens[index].text) { return nil }
            guard local.contains(tokens[index].text), let before = token(index - 1) else { continue }
            let handsOver = ["=", "(", ",", ":", "[", "return"].contains(before.text) && before.kind != .string
            if handsOver && token(index + 1)?.is(".") != true { return nil }
        }
        return local.sorted().first
    }

    /// The case bodies of a reducer function: a `switch` over one of the function's parameters
    /// (`func send(_ action: Action) { switch action { … } }`), each case a path of its own.
    func reducerCases(ofFunctionAt block: SourceStructure.Block) -> [Range<Int>] {
        let parameters = structure.parameterNames(ofFunctionAt: block)
        guard !parameters.isEmpty else { return [] }
        var cases: [Range<Int>] = []
        for inner in structure.blocks where inner.open > block.open && inner.close < block.close {
            guard let keyword = structure.switchKeyword(of: inner), inner.open - keyword == 2,
                parameters.contains(tokens[keyword + 1].text)
            else { continue }
            cases += structure.cases(ofSwitchAt: inner).map(\.body)
        }
        return cases
    }

    /// ``reducerCases(ofFunctionAt:)`` for the function whose body is `body`.
    func reducerCases(inBody body: Range<Int>) -> [Range<Int>] {
        guard let block = structure.block(enclosing: body) else { return [] }
        return reducerCases(ofFunctionAt: block)
    }

    /// The effect a reducer's case returns, when it hands work to the effect runtime
    /// (`.run { … }`, `.cancel(id:)`, `.merge(…)`, `.concatenate(…)`): where it leads is not followed.
    func effect(in body: Range<Int>) -> String? {
        for index in body where tokens[index].is(".") {
            if matches(index + 1, ["run", "{"]) || matches(index + 1, ["run", "("]) { return ".run" }
            if matches(index + 1, ["cancel", "(", "id"]) { return ".cancel(id:)" }
            if matches(index + 1, ["merge", "("]) { return ".merge" }
            if matches(index + 1, ["concatenate", "("]) { return ".concatenate" }
        }
        return nil
    }
}
