/// Where the locale an exact comparison reads comes from, followed for ExactLocaleMatchRule: a
/// constant written in the code, a resolved locale, or what every caller passes.
extension LintedFile {
    /// Where the locale written at `argument` comes from, when that can be told: a constant
    /// (`Locale.ja`, `Self.locale`, `Locale(identifier: "ja_JP")`), which an exact comparison
    /// matches as written, or a value the caller passes for a parameter, followed through every call
    /// of the function in the run (three calls deep). `safe` when every source is a constant or a
    /// locale `supportedLocale(equivalentTo:)` resolved.
    func localeSource(at argument: Int, depth: Int = 0) -> (safe: Bool, trail: String)? {
        // A type's static member: a constant the code wrote.
        if Self.isConstantLocale(tokens, at: argument) { return (true, "a constant") }
        guard let name = token(argument), name.kind == .identifier else { return nil }
        // A stored property initialised with a constant and never assigned again, unless a
        // parameter or local of the same name hides it here.
        if structure.enclosingTypeName(of: argument) != nil, !declaresLocally(name.text, before: argument),
            isConstantProperty(name.text)
        {
            return (true, "a constant property")
        }
        // A stored property given its value only by assignments (`self.locale = locale` in an
        // initializer), each of which is followed.
        if structure.enclosingTypeName(of: argument) != nil, !declaresLocally(name.text, before: argument),
            isStoredProperty(name.text), depth < 3
        {
            let values = tokens.indices.compactMap { index -> Int? in
                guard tokens[index].text == name.text, token(index + 1)?.is("=") == true,
                    token(index + 2)?.is("=") != true
                else { return nil }
                return index + 2
            }
            if !values.isEmpty,
                values.allSatisfy({ token($0 - 3)?.is("let") != true && token($0 - 3)?.is("var") != true }),
                values.allSatisfy({ localeSource(at: $0, depth: depth + 1)?.safe == true })
            {
                return (true, "every value given to the property \(name.text) is a constant")
            }
        }
        guard let function = structure.enclosingFunction(of: argument), let run, depth < 3 else { return nil }
        // Bound in the function from what `supportedLocale(equivalentTo:)` returned, directly or
        // through a function of the project that returns its answer, or from such a locale's
        // identifier (`let id = supported.identifier(.bcp47)`).
        let resolvers = run.localeResolvers
        let resolvedHere = (function.body.lowerBound..<argument).contains { index in
            guard tokens[index].text == name.text,
                token(index - 1)?.is("let") == true || token(index - 1)?.is("var") == true
            else { return false }
            if matches(index + 1, ["="]), let source = token(index + 2), source.kind == .identifier,
                matches(index + 3, [".", "identifier", "("]), index + 2 < argument,
                localeSource(at: index + 2, depth: depth + 1)?.safe == true
            {
                return true
            }
            return (index..<min(argument, index + 12)).contains {
                (tokens[$0].is("supportedLocale") && matches($0 + 1, ["(", "equivalentTo"]))
                    || (tokens[$0].kind == .identifier && matches($0 + 1, ["("])
                        && resolvers.contains(tokens[$0].text))
            }
        }
        if resolvedHere { return (true, "resolved by supportedLocale(equivalentTo:)") }
        // A local: every value it is given (`var chosen = locale`, `chosen = fallback`, `for
        // fallback in Self.fallbacks`) must be safe.
        let body = function.body.lowerBound..<argument
        let values = body.compactMap { index -> Int? in
            // `self.locale = locale` assigns the property, not the local.
            guard tokens[index].text == name.text, token(index + 1)?.is("=") == true, token(index + 2)?.is("=") != true,
                token(index - 1)?.is(".") != true
            else { return nil }
            return index + 2
        }
        let loops = body.filter {
            tokens[$0].text == name.text && token($0 - 1)?.is("for") == true && token($0 + 1)?.is("in") == true
        }
        if !values.isEmpty || !loops.isEmpty {
            for value in values {
                // `x = y`, `var x = try await y`.
                var start = value
                while let word = token(start), word.is("try") || word.is("await") { start += 1 }
                guard start != argument, let source = localeSource(at: start, depth: depth + 1) else { return nil }
                if !source.safe { return source }
            }
            guard loops.allSatisfy({ Self.isConstantLocale(tokens, at: $0 + 2) }) else { return nil }
            return (true, "every value given to \(name.text) is a constant")
        }
        // A parameter of the enclosing function: `func installed(locale: Locale)`.
        let header = structure.statementStart(of: function.body.lowerBound - 1)..<(function.body.lowerBound - 1)
        guard
            let parameter = header.first(where: {
                tokens[$0].text == name.text && token($0 + 1)?.is(":") == true
                    && (token($0 - 1)?.is("(") == true || token($0 - 1)?.is(",") == true
                        || token($0 - 2)?.is("(") == true || token($0 - 2)?.is(",") == true)
            })
        else { return nil }
        // A library's public function has callers outside the files (its users): what they pass
        // cannot be known. An app's code has no such callers.
        if project.appTarget == nil, header.contains(where: { tokens[$0].is("public") || tokens[$0].is("open") }) {
            return nil
        }
        let label = token(parameter - 1).map { $0.kind == .identifier ? $0.text : name.text } ?? name.text
        // `locale: Locale = Locale(identifier: "en_US")`: a call that leaves the argument out passes
        // the default, a constant the code wrote.
        let defaultValue = parameterDefault(at: parameter, before: function.body.lowerBound - 1)
        let constantDefault = defaultValue.map { Self.isConstantLocale(tokens, at: $0) } ?? false
        // An initializer is called by its type's name (`Transcriber(locale: …)`).
        let callee =
            function.name == "init"
            ? (structure.enclosingTypeName(of: argument).map { String($0.split(separator: ".").last ?? "") } ?? "init")
            : function.name
        var sawCall = false
        for (number, unit) in run.units(mentioning: callee) {
            let other = number == unitIndex ? self : run.file(number, project: project)
            for site in unit.structure.tokens.indices
            where unit.structure.tokens[site].text == callee && other.matches(site + 1, ["("])
                && other.token(site - 1)?.is("func") != true
            {
                guard let close = unit.structure.partner[site + 1] else { continue }
                guard
                    let labelled = ((site + 2)..<close).first(where: {
                        other.tokens[$0].text == label && other.token($0 + 1)?.is(":") == true
                    })
                else {
                    if constantDefault { sawCall = true }
                    continue
                }
                sawCall = true
                let value = labelled + 2
                if Self.isConstantLocale(other.tokens, at: value) { continue }
                let upstream = other.localeSource(at: value, depth: depth + 1)
                if upstream?.safe == true { continue }
                var end = value
                while end < close, !other.tokens[end].is(",") {
                    end =
                        other.tokens[end].is("(") || other.tokens[end].is("[")
                        ? (unit.structure.partner[end] ?? close) + 1 : end + 1
                }
                let written = (value..<min(end, value + 8)).map { other.tokens[$0].text }.joined()
                let place =
                    "\(function.name)() is called with \(written) at \(other.file):\(other.tokens[site].location.line)"
                return (false, upstream.map { "\(place); \($0.trail)" } ?? place)
            }
        }
        if !sawCall, constantDefault { return (true, "no call passes \(label):, so its constant default is used") }
        return sawCall ? (true, "every caller passes a constant or leaves the constant default") : nil
    }

    /// The first token of the default value of the parameter declared at `parameter`
    /// (`locale: Locale = …`), before `end` (the parameter list's end).
    func parameterDefault(at parameter: Int, before end: Int) -> Int? {
        var index = parameter + 2
        while index < end {
            let token = tokens[index]
            if token.is(",") || token.is(")") { return nil }
            if token.is("=") { return index + 1 }
            if token.is("(") || token.is("[") || token.is("<") {
                index = (structure.partner[index] ?? index) + 1
                continue
            }
            index += 1
        }
        return nil
    }

    /// Whether the function around `position` has a parameter called `name` (`func f(locale:
    /// Locale)`, `func f(for locale: Locale)`) or binds it before `position` (`let`, `var`, `for …
    /// in`, `if let`, `guard let`), so that `name` there is not the type's property.
    func declaresLocally(_ name: String, before position: Int) -> Bool {
        guard let function = structure.enclosingFunction(of: position) else { return false }
        let header = structure.statementStart(of: function.body.lowerBound - 1)..<(function.body.lowerBound - 1)
        let parameter = header.contains {
            tokens[$0].text == name && token($0 + 1)?.is(":") == true
                && (token($0 - 1).map { $0.is("(") || $0.is(",") || $0.kind == .identifier } ?? false)
        }
        let bound = (function.body.lowerBound..<position).contains {
            tokens[$0].text == name && (token($0 - 1).map { ["let", "var", "for"].contains($0.text) } ?? false)
        }
        return parameter || bound
    }

    /// `private var locale = Locale(identifier: "en-US")` in a type's body, with no other
    /// assignment to it in the file.
    func isConstantProperty(_ name: String) -> Bool {
        guard isStoredProperty(name) else { return false }
        let assignments = tokens.indices.filter {
            tokens[$0].text == name && token($0 + 1)?.is("=") == true && token($0 + 2)?.is("=") != true
        }
        guard assignments.count == 1, let only = assignments.first,
            token(only - 1)?.is("var") == true || token(only - 1)?.is("let") == true
        else { return false }
        return Self.isConstantLocale(tokens, at: only + 2)
    }

    /// `Locale.ja`, `Self.locale`, `SpokenWordTranscriber.locale`, `Locale(identifier: "ja_JP")`,
    /// `Locale(components: .init(languageCode: .english, languageRegion: .unitedStates))`: a locale
    /// written in the code, not the user's (`Locale.current`, `.autoupdatingCurrent`).
    static func isConstantLocale(_ tokens: [SwiftToken], at index: Int) -> Bool {
        guard index + 2 < tokens.count, tokens[index].kind == .identifier else { return false }
        let first = tokens[index].text
        guard first == "Self" || ProjectIndex.isTypeName(first) else { return false }
        if tokens[index + 1].is("."), tokens[index + 2].kind == .identifier {
            return !["current", "autoupdatingCurrent", "init"].contains(tokens[index + 2].text)
        }
        guard first == "Locale", tokens[index + 1].is("(") else { return false }
        return isConstantArguments(tokens, from: index + 1)
    }

    /// Whether the parenthesised arguments opening at `open` are written out in full: literals,
    /// labels, and members or types named by the code (`.english`, `Locale.Region("US")`,
    /// `.init(…)`), with no value read from elsewhere (a variable, `Locale.current`).
    static func isConstantArguments(_ tokens: [SwiftToken], from open: Int) -> Bool {
        var depth = 0
        var index = open
        var sawValue = false
        while index < tokens.count {
            let token = tokens[index]
            if token.is("(") || token.is("[") { depth += 1 }
            if token.is(")") || token.is("]") {
                depth -= 1
                if depth == 0 { return sawValue }
            }
            switch token.kind {
            case .string, .number:
                sawValue = true
            case .identifier:
                let label = index + 1 < tokens.count && tokens[index + 1].is(":")
                let member = index > 0 && tokens[index - 1].is(".")
                if ["current", "autoupdatingCurrent"].contains(token.text) { return false }
                if !(label || member || ProjectIndex.isTypeName(token.text) || token.text == "nil") { return false }
                if member { sawValue = true }
            case .poundKeyword, .regex: return false
            default: break
            }
            index += 1
        }
        return false
    }
}
