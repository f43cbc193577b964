/// What finishes or cancels an analyzer, followed across functions, stored closures, handlers
/// passed in and callers. Ending the input does not end the session (only
/// `finalizeAndFinishThroughEndOfInput()` waits for it), so the input rules ask this whether a
/// path that ends the input also ends the analysis, or runs after the analyzer's own error ended it.
/// What finishes an analyzer in this file: its finish and cancel calls, and calls of functions
/// or stored closures whose bodies make one, followed to any depth.
struct AnalyzerFinishers {
    /// Names holding an analyzer, for telling its errors from others.
    var analyzers: Set<String>
    /// Functions and stored closures (by name) that finish or cancel an analyzer.
    var helpers: Set<String> = []
    /// Closure-typed names whose every binding in the run, wherever written, finishes or
    /// cancels an analyzer (``ProjectIndex/finishingHandlers(_:_:)``).
    var handlers: Set<String> = []
}

extension LintedFile {
    /// Names holding a `SpeechAnalyzer`: declared with that type, or made by its initializer.
    func analyzerNames() -> Set<String> {
        var names: Set<String> = []
        for index in tokens.indices where tokens[index].is("SpeechAnalyzer") {
            if token(index - 1)?.is(":") == true, let name = token(index - 2), name.kind == .identifier {
                names.insert(name.text)
            }
            var before = index - 1
            while let word = token(before), word.is("try") || word.is("await") { before -= 1 }
            guard token(before)?.is("=") == true, token(index + 1)?.is("(") == true else { continue }
            if let name = (structure.statementStart(of: before)..<before).last(where: { tokens[$0].kind == .identifier }
            ) {
                names.insert(tokens[name].text)
            }
        }
        return propagatingAssignments(names)
    }

    /// `names` plus the targets of one round of `self.x = y` / `x = y` with `y` among them.
    func propagatingAssignments(_ names: Set<String>) -> Set<String> {
        var result = names
        for index in tokens.indices where tokens[index].is("=") {
            if let value = token(index + 1), names.contains(value.text), let target = token(index - 1),
                target.kind == .identifier
            {
                result.insert(target.text)
            }
        }
        return result
    }

    func analyzerFinishers(handlers: Set<String> = []) -> AnalyzerFinishers {
        var finishers = AnalyzerFinishers(analyzers: analyzerNames(), handlers: handlers)
        // Bodies that may finish: functions, and closures stored by assignment (`onFailure = { … }`).
        // A reducer's finish in one case is not a finish of every action it is sent, so its cases
        // are left out here and followed one by one where an action is sent (``handOffs(in:depth:visited:)``).
        var bodies: [(name: String, body: Range<Int>, cases: [Range<Int>])] = []
        for block in structure.blocks {
            if case .function(let name) = block.kind {
                let body = (block.open + 1)..<block.close
                bodies.append((name, body, reducerCases(ofFunctionAt: block)))
            } else if block.kind == .other, token(block.open - 1)?.is("=") == true,
                let name = storedName(assignedAt: block.open - 1)
            {
                bodies.append((name, (block.open + 1)..<block.close, []))
            }
        }
        var changed = true
        while changed {
            changed = false
            for entry in bodies
            where !finishers.helpers.contains(entry.name)
                && finishesAnalyzer(entry.body, finishers, excluding: entry.cases)
            {
                finishers.helpers.insert(entry.name)
                changed = true
            }
        }
        return finishers
    }

    /// The property a `=` assigns: `onFailure = …`, `self.onFailure = …`, `var onFailure: T = …`.
    func storedName(assignedAt assign: Int) -> String? {
        let start = structure.statementStart(of: assign)
        if let introducer = (start..<assign).first(where: { tokens[$0].is("var") || tokens[$0].is("let") }),
            let name = token(introducer + 1), name.kind == .identifier
        {
            return name.text
        }
        guard let name = token(assign - 1), name.kind == .identifier else { return nil }
        return name.text
    }

    /// True when `range` finishes or cancels an analyzer.
    func finishesAnalyzer(_ range: Range<Int>, _ finishers: AnalyzerFinishers, excluding: [Range<Int>] = []) -> Bool {
        range.contains { index in
            let token = tokens[index]
            if excluding.contains(where: { $0.contains(index) }) { return false }
            guard token.kind == .identifier else { return false }
            switch token.text {
            case "finalizeAndFinishThroughEndOfInput", "finalizeAndFinish", "cancelAndFinishNow": return true
            case "finish": return matches(index + 1, ["(", "after"])
            case "finalize": return matches(index + 1, ["(", "through"])
            default:
                if (finishers.helpers.contains(token.text) || finishers.handlers.contains(token.text))
                    && isOwnCall(at: index)
                {
                    return true
                }
                return callsFinishingMethod(at: index)
            }
        }
    }

    /// `session.stop()` where `session`'s type is evident and that type's `stop()` finishes or
    /// cancels its analyzer (in any file of the run).
    func callsFinishingMethod(at index: Int) -> Bool {
        guard let run, run.finishingHelpers.contains(tokens[index].text), token(index - 1)?.is(".") == true,
            matches(index + 1, ["("]), let receiver = receiverName(beforeDot: index - 1), receiver != "self",
            let type = run.receiverType(receiver, at: index, in: unitIndex)
        else { return false }
        let method = tokens[index].text
        return run.units(mentioning: type).contains { number, unit in
            run.finishers[number].helpers.contains(method)
                && unit.structure.blocks.contains { block in
                    block.kind == .function(name: method) && unit.structure.enclosingTypeName(of: block.open) == type
                }
        }
    }

    /// Names declared with a function type in this file, as stored properties or parameters:
    /// `onFailure: (Error) -> Void`, `var onEnd: (@Sendable () async -> Void)?`.
    func closureTypedNames() -> Set<String> {
        var names: Set<String> = []
        for index in tokens.indices where tokens[index].is(":") {
            guard let name = token(index - 1), name.kind == .identifier else { continue }
            var cursor = index + 1
            while let word = token(cursor), word.kind == .attribute || word.is("escaping") { cursor += 1 }
            guard token(cursor)?.is("(") == true, let close = structure.partner[cursor] else { continue }
            var after = close + 1
            // `((Error) -> Void)?`: the function type is inside the parentheses.
            if token(cursor + 1)?.is("(") == true || token(cursor + 1)?.kind == .attribute,
                token(close + 1)?.is("?") == true || token(close + 1)?.is("!") == true
            {
                var inner = cursor + 1
                while let word = token(inner), word.kind == .attribute { inner += 1 }
                guard token(inner)?.is("(") == true, let innerClose = structure.partner[inner] else { continue }
                after = innerClose + 1
            }
            while let word = token(after), word.is("async") || word.is("throws") { after += 1 }
            if token(after)?.is("->") == true { names.insert(name.text) }
        }
        return names
    }

    /// Whether the declaration whose body is `block` carries `@_spi(…)` naming tests
    /// (`@_spi(Testing)`, `@_spi(ForTests)`).
    func isTestSPI(_ block: SourceStructure.Block) -> Bool {
        let start = max(0, structure.statementStart(of: block.open) - 8)
        return (start..<block.open).contains { index in
            tokens[index].text.hasPrefix("@_spi") && token(index + 1)?.is("(") == true
                && token(index + 2)?.text.contains("Test") == true
        }
    }

    /// `name(…)`, `name?(…)`, `self.name(…)`, and for a static member `Self.name(…)` or
    /// `TypeName.name(…)` inside that type: a call of this type's own function or stored closure,
    /// not a method of some other value that happens to share the name (`audioEngine.stop()`).
    func isOwnCall(at index: Int) -> Bool {
        guard matches(index + 1, ["("]) || matches(index + 1, ["?", "("]) else { return false }
        guard let before = token(index - 1) else { return true }
        if before.is("func") { return false }
        if before.is(".") {
            var receiver = index - 2
            while let mark = token(receiver), mark.is("?") || mark.is("!") { receiver -= 1 }
            guard let name = token(receiver) else { return false }
            if name.is("self") || name.is("Self") { return true }
            guard name.kind == .identifier, token(receiver - 1)?.is(".") != true,
                let type = structure.enclosingTypeName(of: index)
            else { return false }
            return type == name.text || type.hasSuffix("." + name.text)
        }
        return true
    }

    /// True when `position` is in a `catch` whose `do` ran the analyzer or iterated its results:
    /// an error there already finished the session.
    func isAfterAnalyzerError(_ position: Int, _ finishers: AnalyzerFinishers) -> Bool {
        let work: Set<String> = [
            "start", "analyzeSequence", "finalize", "finalizeAndFinish", "finalizeAndFinishThroughEndOfInput",
            "prepareToAnalyze",
        ]
        /// The analyzer's own work at `index`: `analyzer.start(…)` and the like, or its results.
        func isAnalyzerWork(_ index: Int) -> Bool {
            if matches(index, [".", "results"]) { return true }
            guard tokens[index].is("."), let method = token(index + 1), work.contains(method.text),
                matches(index + 2, ["("]),
                let receiver = receiverName(beforeDot: index)
            else { return false }
            return finishers.analyzers.contains(receiver)
        }
        return structure.enclosingBlocks(of: position).contains { block in
            guard case .catchClause(let tried) = block.kind, tried.contains(where: isAnalyzerWork) else { return false }
            // Only when nothing else in the `do` can throw: an error from a converter or the
            // microphone leaves the analyzer running.
            let closures = structure.blocks.filter { $0.kind == .other && tried.contains($0.open) }
            return tried.allSatisfy { index in
                guard tokens[index].is("try"), !closures.contains(where: { $0.open < index && index < $0.close })
                else { return true }
                let end = structure.statementEnd(from: index)
                return (index..<end).contains(where: isAnalyzerWork)
            }
        }
    }

    /// Whether every call of `function` is on a path that finishes the analyzer (in the calling
    /// function, before or after the call, or further up through that function's callers), and
    /// the path followed. Calls are the type's own (`stop()`, `self.stop()`) and, across the run,
    /// calls on a receiver whose type is evident (`capture.stop()` with `let capture = Capture(…)`);
    /// calls from test code are left out.
    func followCallers(
        of function: String, from position: Int, _ finishers: AnalyzerFinishers, visited: inout Set<String>,
        depth: Int = 0
    ) -> (finished: Bool, trail: String, evidence: [LintStep]) {
        guard let type = structure.enclosingTypeName(of: position) else {
            return (false, "\(function)() is not in a type, so no caller was followed", [])
        }
        visited.insert("\(type).\(function)")
        // Test API (`@_spi(Testing) public func …`) is no path of the app.
        if let body = structure.enclosingFunction(of: position)?.body, let block = structure.block(enclosing: body),
            isTestSPI(block)
        {
            return (true, "\(type).\(function)() is test API (@_spi)", [])
        }
        var sites: [(unit: Int, site: Int, receiver: String?)] = tokens.indices.filter { index in
            tokens[index].kind == .identifier && tokens[index].text == function && isOwnCall(at: index)
                && structure.enclosingTypeName(of: index) == type
        }.map { (unitIndex, $0, nil) }
        if let run {
            sites += run.qualifiedCalls(of: function, on: type).map { ($0.unit, $0.site, $0.receiver) }
            // Calls from test code are not paths of the app: a function only tests call (a test
            // fixture) is none of the app's either.
            let app = sites.filter { $0.unit == unitIndex || !run.units[$0.unit].isTestCode }
            if app.isEmpty, !sites.isEmpty {
                return (true, "only test code calls \(type).\(function)()", [])
            }
            sites = app
        }
        guard !sites.isEmpty else {
            guard let count = run?.units.count, count > 1 else {
                return (false, "nothing in \(type) calls \(function)()", [])
            }
            return (false, "nothing in the files linted calls \(type).\(function)()", [])
        }
        var finished = true
        var steps: [String] = []
        var evidence: [LintStep] = []
        let callee = "\(type).\(function)()"
        for (unit, site, receiver) in sites {
            let caller = unit == unitIndex ? self : run!.file(unit, project: project)
            let callerFinishers = unit == unitIndex ? finishers : run!.finishers[unit]
            let line = caller.tokens[site].location.line
            let place = unit == unitIndex ? "line \(line)" : "\(caller.file):\(line)"
            let how = receiver.map { " as \($0).\(function)()" } ?? ""
            guard let function = caller.structure.enclosingFunction(of: site) else {
                finished = false
                steps.append("\(place) calls it outside any function")
                evidence.append(caller.step(at: site, "called outside any function"))
                continue
            }
            let callerType = caller.structure.enclosingTypeName(of: site)
            let owner = callerType.map { "\($0)." } ?? ""
            let name = callerType == type ? "\(function.name)()" : "\(owner)\(function.name)()"
            let others = caller.reducerCases(inBody: function.body).filter { !$0.contains(site) }
            if caller.finishesAnalyzer(function.body, callerFinishers, excluding: others) {
                steps.append("\(name) calls it\(how) at \(place) and finishes the analyzer")
                evidence.append(
                    caller.step(at: site, "\(name) calls \(callee)\(how) and finishes the analyzer"))
            } else if visited.contains("\(owner)\(function.name)") {
                // Another call in a function already followed: its verdict is counted there.
                steps.append("\(name) calls it\(how) at \(place) again (followed above)")
            } else if depth < 4 {
                let upward = caller.followCallers(
                    of: function.name, from: site, callerFinishers, visited: &visited, depth: depth + 1)
                finished = finished && upward.finished
                steps.append(
                    "\(name) calls it\(how) at \(place) and does not finish the analyzer, so its callers were followed: \(upward.trail)"
                )
                evidence.append(
                    caller.step(at: site, "\(name) calls \(callee)\(how) and does not finish the analyzer"))
                evidence += upward.evidence
            } else {
                finished = false
                steps.append("\(name) calls it\(how) at \(place) and does not finish the analyzer")
                evidence.append(
                    caller.step(at: site, "\(name) calls \(callee)\(how) and does not finish the analyzer"))
            }
        }
        return (finished, steps.joined(separator: "; "), evidence)
    }
}

extension LintedFile {
    /// True when `position` is in a `catch` whose `do` starts the analyzer (`start(inputSequence:)`,
    /// `analyzeSequence(…)`, `SpeechAnalyzer(inputSequence:…)`) and every call there that can throw
    /// comes before that start or is the start itself: the error came before any session ran, so
    /// there is none to finish.
    func endsBeforeAnalyzerStart(_ position: Int, _ finishers: AnalyzerFinishers) -> Bool {
        structure.enclosingBlocks(of: position).contains { block in
            guard case .catchClause(let tried) = block.kind,
                let start = tried.first(where: { isAnalyzerStart($0, finishers) })
            else { return false }
            let closures = structure.blocks.filter { $0.kind == .other && tried.contains($0.open) }
            return tried.allSatisfy { index in
                guard tokens[index].is("try"), !closures.contains(where: { $0.open < index && index < $0.close })
                else { return true }
                return index < start
            }
        }
    }

    /// Whether `index` starts an analyzer: `analyzer.start(inputSequence:`,
    /// `analyzer.analyzeSequence(`, or `SpeechAnalyzer(inputSequence:` / `(inputAudioFile:`.
    private func isAnalyzerStart(_ index: Int, _ finishers: AnalyzerFinishers) -> Bool {
        if tokens[index].is("SpeechAnalyzer"),
            matches(index + 1, ["(", "inputSequence"]) || matches(index + 1, ["(", "inputAudioFile"])
        {
            return true
        }
        guard tokens[index].is("."), let method = token(index + 1),
            method.is("start") && matches(index + 2, ["(", "inputSequence"])
                || method.is("analyzeSequence") && matches(index + 2, ["("]),
            let receiver = receiverName(beforeDot: index)
        else { return false }
        return finishers.analyzers.contains(receiver) || receiver.lowercased().contains("analyzer")
    }
}
