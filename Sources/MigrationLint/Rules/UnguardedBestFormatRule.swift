/// `bestAvailableAudioFormat(compatibleWith:)` used as if it never returned nil.
struct UnguardedBestFormatRule: LintRule {
    static let id = "unguarded-best-format"
    static let triggers: [[String]] = [["bestAvailableAudioFormat"]]
    static let summary = "uses bestAvailableAudioFormat(compatibleWith:) without handling nil"
    static let hint =
        "it returns an optional: `guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith:) else { … }`"
    static let explanation = """
        `bestAvailableAudioFormat(compatibleWith:)` returns nil when no format suits the modules. Code
        that binds it and then uses the value as if it were present crashes or converts to nothing. A
        `guard let`/`if let`, optional chaining, a nil comparison, a switch, or passing it to a labelled
        parameter (the compiler checks that type) counts as handling; so does a local that takes the
        value as the fallback of `??` and is itself handled. When the value is kept in a stored
        property (directly or from the local it was bound to), the rule follows the property: every
        read of it in the file must handle nil, or sit inside an `if let`/`guard let` that unwrapped it.
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        for index in file.tokens.indices
        where file.tokens[index].is("bestAvailableAudioFormat") && file.matches(index + 1, ["("]) {
            // A declaration of the function itself, or a reference without a call.
            if file.token(index - 1)?.is("func") == true { continue }
            let start = file.structure.statementStart(of: index)
            let close = file.structure.partner[index + 1] ?? file.tokens.count
            let head = file.tokens[start]
            if head.is("guard") || head.is("if") || head.is("while") || head.is("return") { continue }
            // In a condition whatever its statement's start (after a `case …:` label, say).
            if file.structure.guards.contains(where: { $0.condition.contains(index) })
                || file.structure.blocks.contains(where: { $0.kind == .conditional && $0.header.contains(index) })
            {
                continue
            }
            if file.token(close + 1)?.is("?") == true || file.token(close + 1)?.is("??") == true { continue }
            guard let assign = (start..<index).first(where: { file.tokens[$0].is("=") }),
                let nameIndex = (start..<assign).last(where: { file.tokens[$0].kind == .identifier })
            else { continue }
            let name = file.tokens[nameIndex].text
            let body = file.structure.functionBody(of: index)
            let uses = (close..<body.upperBound).filter {
                file.tokens[$0].kind == .identifier && file.tokens[$0].text == name
            }
            if uses.contains(where: file.handlesNil) { continue }
            // `let format = preferred ?? name`: still optional, so it is the local that must be checked.
            if uses.contains(where: { file.token($0 - 1)?.is("??") == true && file.flowsIntoHandledLocal($0) }) {
                continue
            }
            // Stored on the type, directly or from the local: follow the property's reads.
            let property = file.isStoredProperty(name) ? name : uses.compactMap(file.propertyAssigned).first
            // A value nothing in the project reads is not used as if it were there (it may be
            // unused, a mistake of another kind).
            if uses.isEmpty || property != nil, !file.projectReads(property ?? name, besides: nameIndex) { continue }
            if let property {
                let reads = file.propertyReads(property)
                if let unguarded = reads.first(where: {
                    !file.handlesNil($0) && !file.isUnwrappedBinding(property, at: $0)
                        && !file.flowsIntoHandledLocal($0)
                }) {
                    findings.append(
                        file.finding(
                            Self.self, at: file.tokens[index].location,
                            "`\(name)` is stored in `\(property)`, which is read without a nil check at line \(file.tokens[unguarded].location.line)"
                        ))
                } else if reads.isEmpty {
                    findings.append(
                        file.finding(
                            Self.self, at: file.tokens[index].location,
                            "`\(name)` is stored in `\(property)`, and nothing in this file reads it with a nil check"))
                }
                continue
            }
            findings.append(
                file.finding(
                    Self.self, at: file.tokens[index].location,
                    "`\(name)` is used as if bestAvailableAudioFormat never returned nil"))
        }
        return findings
    }
}

extension LintedFile {
    /// Whether any file of the project (this one alone when linted without one) names `name`
    /// other than where it is declared or assigned (`index` in this file).
    fileprivate func projectReads(_ name: String, besides index: Int) -> Bool {
        let units = run.map { run in run.units(mentioning: name).map { ($0.number, $0.unit.structure.tokens) } }
        let own = run == nil ? 0 : unitIndex
        return (units ?? [(0, tokens)]).contains { number, tokens in
            tokens.indices.contains { position in
                guard tokens[position].kind == .identifier, tokens[position].text == name else { return false }
                if number == own, position == index { return false }
                let before = position > 0 ? tokens[position - 1].text : ""
                let after = position + 1 < tokens.count ? tokens[position + 1].text : ""
                // A declaration (`var name`, `let name`) or a plain assignment (`name =`) reads nothing.
                return !(before == "var" || before == "let" || (after == "=" && before != "=="))
            }
        }
    }

    /// True when the name at `use` is read in a way that handles nil: bound by `if let`/`guard let`,
    /// chained or defaulted, compared with nil, switched over, or handed to a labelled parameter
    /// (the callee's type decides, and the compiler checks it).
    fileprivate func handlesNil(_ use: Int) -> Bool {
        // `self.format` reads the same value as `format`.
        if token(use - 1)?.is(".") == true, token(use - 2)?.is("self") == true,
            handlesNil(use, before: use - 2)
        {
            return true
        }
        return handlesNil(use, before: use)
    }

    /// `handlesNil` for the value at `use`, whose expression starts at `start`.
    fileprivate func handlesNil(_ use: Int, before start: Int) -> Bool {
        // `guard let format = analyzerFormat`, `if let x = y, …`: bound.
        if token(start - 1)?.is("=") == true, let bound = token(start - 2), bound.kind == .identifier,
            let introducer = token(start - 3), introducer.is("let") || introducer.is("var"),
            let before = token(start - 4), before.is("if") || before.is("guard") || before.is(",")
        {
            return true
        }
        if token(start - 1)?.is(":") == true, let after = token(use + 1), after.is(")") || after.is(",") { return true }
        if let before = token(use - 1), before.is("let") || before.is("var"), let twoBefore = token(use - 2),
            twoBefore.is("if") || twoBefore.is("guard") || twoBefore.is(",")
        {
            return true
        }
        if let after = token(use + 1), after.is("?") || after.is("??") || after.is("==") || after.is("!=") {
            return true
        }
        if token(use - 1)?.is("switch") == true { return true }
        if token(use - 1)?.is(":") == true, let after = token(use + 1), after.is(")") || after.is(",") { return true }
        return false
    }

    /// True when the read at `use` is the value of `let name = …` (directly or returned from a
    /// closure, as in `let format = lock.withLock { self.format }`) and a later use of `name` in the
    /// function handles nil.
    fileprivate func flowsIntoHandledLocal(_ use: Int) -> Bool {
        var start = outerStatementStart(of: use)
        // Out of a closure that is the whole of its body: `{ self.format }`.
        for _ in 0..<2
        where start > 0 && tokens[start - 1].is("{") && !(tokens[start].is("let") || tokens[start].is("var")) {
            guard let close = structure.partner[start - 1], close == structure.statementEnd(from: start) else { break }
            start = outerStatementStart(of: start - 1)
        }
        guard tokens[start].is("let") || tokens[start].is("var"), let name = token(start + 1),
            name.kind == .identifier, token(start + 2)?.is("=") == true
        else { return false }
        let body = structure.functionBody(of: use)
        return (use..<body.upperBound).contains { index in
            tokens[index].text == name.text && index != start + 1
                && (handlesNil(index) || isUnwrappedBinding(name.text, at: index))
        }
    }

    /// True when `name` at `position` is an unwrapped copy: inside `if let name { … }`, or after
    /// `guard let name … else { … }` in the same scope.
    fileprivate func isUnwrappedBinding(_ name: String, at position: Int) -> Bool {
        let binds = { (range: Range<Int>) in
            range.contains {
                self.tokens[$0].text == name
                    && (self.token($0 - 1)?.is("let") == true || self.token($0 - 1)?.is("var") == true)
            }
        }
        if structure.enclosingBlocks(of: position).contains(where: { $0.kind == .conditional && binds($0.header) }) {
            return true
        }
        return structure.guards.contains {
            $0.condition.upperBound < position && position < $0.scopeEnd && binds($0.condition)
        }
    }

    /// The stored property a statement `property = value` (or `self.property = value`) assigns, when
    /// `value` is the whole right-hand side at `use`.
    fileprivate func propertyAssigned(from use: Int) -> String? {
        guard token(use - 1)?.is("=") == true, let target = token(use - 2), target.kind == .identifier,
            isStoredProperty(target.text)
        else { return nil }
        // `name = value` assigns a local of that name when the function declares one (`self.name`
        // is the property).
        let qualified = token(use - 3)?.is(".") == true && token(use - 4)?.is("self") == true
        if !qualified {
            let body = structure.functionBody(of: use)
            if body.contains(where: {
                (tokens[$0].is("let") || tokens[$0].is("var")) && token($0 + 1)?.text == target.text && $0 < use
            }) {
                return nil
            }
        }
        let next = token(use + 1)
        guard next == nil || next!.location.line > tokens[use].location.line || next!.is(";") || next!.is("}") else {
            return nil
        }
        return target.text
    }

    /// Every place `property` is read: uses that are not its declaration or an assignment to it.
    fileprivate func propertyReads(_ property: String) -> [Int] {
        tokens.indices.filter { index in
            guard tokens[index].kind == .identifier, tokens[index].text == property else { return false }
            // `other.name` is another value's member; `self.name` is the property.
            if token(index - 1)?.is(".") == true, token(index - 2)?.is("self") != true { return false }
            // `name:` is a parameter or an argument's label, or a declaration: no read of the property.
            if token(index + 1)?.is(":") == true { return false }
            if token(index + 1)?.is("=") == true { return false }
            if let before = token(index - 1), before.is("var") || before.is("let") {
                // `guard let property` / `if let property` (shorthand) reads it; a declaration does not.
                return token(index - 2).map { $0.is("if") || $0.is("guard") || $0.is(",") } == true
            }
            return true
        }
    }
}
