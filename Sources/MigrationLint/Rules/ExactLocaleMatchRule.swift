/// Locale support decided by exact equality against the transcriber's lists.
struct ExactLocaleMatchRule: LintRule {
    static let id = "exact-locale-match"
    static let triggers: [[String]] = [["supportedLocales", "installedLocales"]]
    static let summary = "checks locale support by exact equality"
    static let hint =
        "use `await SpeechTranscriber.supportedLocale(equivalentTo:)`; `contains` rejects usable regional equivalents"
    static let explanation = """
        `supportedLocales.contains(locale)`, and comparing identifier strings
        (`map { $0.identifier(.bcp47) }.contains(…)`, `contains(where: { … == … })`), match exactly, so
        a bare "fr" or en_US with a region override fails against the list.
        `supportedLocale(equivalentTo:)` finds the usable equivalent. The rule follows the compared
        locale first: a constant written in the code (`Locale(identifier: "fr_FR")`, `Locale.french`,
        `Locale(components: …)` with every part written out), or a locale
        `supportedLocale(equivalentTo:)` returned, compares as written; a parameter is followed to
        every caller (three deep; an initializer's callers are its type's), and a call that leaves out
        an argument whose default is a constant passes that constant (not for a `public` or `open`
        function outside an app, whose callers may be outside the files); a stored property given its
        value only by assignments (`self.locale = locale` in an initializer) is followed through them.
        An `installedLocales` check is reported only when it decides alone whether the feature
        runs: where a miss leads to an installation request (the check's function, or one calling
        it, asks `assetInstallationRequest(supporting:)`, which answers nil when the assets are
        there), the comparison costs a request at most and refuses nothing usable. A miss must also
        refuse the feature: the check (or the local or function answer it becomes) is the condition
        of a `guard` or of an `if` whose miss branch throws or returns. An answer only stored, shown
        or never asked for decides nothing, and the rule does not follow it further or report it.
        """

    /// What a finding says of the compared locale's source.
    static func followed(_ source: (safe: Bool, trail: String)?) -> String {
        source.map { "followed: \($0.trail)" } ?? "followed: where the locale comes from is not evident in the files"
    }

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        let lists: Set<String> = ["supportedLocales", "installedLocales"]
        // Names bound to a locale list or to its identifiers:
        // `let all = await SpeechTranscriber.supportedLocales`,
        // `let ids = await Set(SpeechTranscriber.installedLocales.map { $0.identifier(.bcp47) })`.
        var bound: Set<String> = []
        // The names bound to the installed list: a check of those decides something else.
        var installedNames: Set<String> = ["installedLocales", "(installedLocales)"]
        // `SpeechTranscriber.supportedLocales`, not an app's own `Self.supportedLocales`.
        let isTranscriberList = { (index: Int) in
            lists.contains(file.tokens[index].text) && file.token(index - 1)?.is(".") == true
                && ["SpeechTranscriber", "DictationTranscriber"].contains(file.token(index - 2)?.text ?? "")
        }
        for index in file.tokens.indices where isTranscriberList(index) {
            if let name = file.assignedName(at: index) {
                bound.insert(name)
                if file.tokens[index].text == "installedLocales" { installedNames.insert(name) }
            }
        }
        // A finding, unless the list is the installed one and a miss only leads to an installation
        // request (which answers nil when the assets are there), or refuses nothing at all (the
        // answer is stored, shown, or asked for by nobody): then nothing usable is refused.
        let report = { (receiver: String, index: Int, message: String) in
            guard installedNames.contains(receiver) else {
                findings.append(file.finding(Self.self, at: file.tokens[index + 1].location, message))
                return
            }
            if file.requestsInstallation(around: index) != nil { return }
            // A check whose answer is only stored, shown or never asked for decides nothing.
            guard Self.missRefuses(file.structure, at: index, run: file.run, depth: 0) else { return }
            findings.append(
                file.finding(
                    Self.self, at: file.tokens[index + 1].location,
                    message
                        + "; this installed check alone decides whether the feature runs: no installation is requested on a miss"
                ))
        }
        // The list a `.contains` at `dot` is called on: a bound name, the qualified list itself, or
        // a parenthesised expression holding it (`(await SpeechTranscriber.installedLocales)`).
        let listReceiver = { (dot: Int) -> String? in
            var index = dot - 1
            while let mark = file.token(index), mark.is("?") || mark.is("!") { index -= 1 }
            guard let token = file.token(index) else { return nil }
            if token.kind == .identifier {
                return bound.contains(token.text) || isTranscriberList(index) ? token.text : nil
            }
            guard token.is(")"), let open = file.structure.partner[index], open < index,
                let list = ((open + 1)..<index).first(where: isTranscriberList)
            else { return nil }
            return "(\(file.tokens[list].text))"
        }
        // Names this file binds from `supportedLocale(equivalentTo:)`: already the usable equivalent.
        let resolved = Set(
            file.tokens.indices.filter {
                file.tokens[$0].is("supportedLocale") && file.matches($0 + 1, ["(", "equivalentTo"])
            }
            .compactMap(file.assignedName(at:)))
        // `supported.contains(where: { $0.identifier(.bcp47) == locale.identifier(.bcp47) })` and
        // `installed.contains { $0 == locale }`: exact, unless the other side is a constant or resolved.
        for index in file.tokens.indices
        where file.matches(index, [".", "contains", "(", "where", ":", "{"])
            || file.matches(index, [".", "contains", "{"])
        {
            let open = file.tokens[index + 2].is("{") ? index + 2 : index + 5
            guard let receiver = listReceiver(index), let close = file.structure.partner[open],
                let equals = ((open + 1)..<close).first(where: { file.tokens[$0].is("==") })
            else { continue }
            // The element is `$0`, or the closure's one parameter (`{ candidate in … }`).
            var left = open + 1
            var element = "$0"
            if file.token(open + 2)?.is("in") == true {
                element = file.tokens[open + 1].text
                left = open + 3
            }
            let other = file.tokens[left].text == element ? equals + 1 : left
            let source = file.localeSource(at: other)
            if file.tokens[other].text == element || source?.safe == true { continue }
            report(
                receiver, index,
                "\(receiver).contains { … == … } compares locales or their identifiers exactly; \(Self.followed(source))"
            )
        }
        for index in file.tokens.indices
        where file.matches(index, [".", "contains", "("]) && !file.matches(index + 3, ["where", ":"]) {
            // The argument is one of the lists' own elements (`$0`), or a locale already resolved.
            if let close = file.structure.partner[index + 2], close > index + 3,
                let first = file.token(index + 3),
                first.is("$0") || resolved.contains(first.text) && file.token(index + 4)?.is(".") == true
                    || resolved.contains(first.text) && index + 4 == close
            {
                continue
            }
            let source = file.localeSource(at: index + 3)
            if source?.safe == true { continue }
            if let receiver = listReceiver(index) {
                report(receiver, index, "\(receiver).contains(…); \(Self.followed(source))")
                continue
            }
            // `supported.map { $0.identifier(.bcp47) }.contains(…)`: identifier strings compared exactly.
            guard let close = file.token(index - 1), close.is("}") || close.is(")"),
                let open = file.structure.partner[index - 1],
                file.matches(open - 2, [".", "map"]) || file.matches(open - 3, [".", "map", "("]) && close.is("}"),
                ((open + 1)..<(index - 1)).contains(where: { file.tokens[$0].is("identifier") })
            else { continue }
            let dot = file.tokens[open - 1].is("map") ? open - 2 : open - 3
            guard let receiver = listReceiver(dot) else { continue }
            report(
                receiver, index,
                "\(receiver).map { $0.identifier(…) }.contains(…) compares identifier strings exactly; \(Self.followed(source))"
            )
        }
        return findings
    }
}

extension ExactLocaleMatchRule {
    /// Whether a miss of the Bool expression at `position` refuses the feature: it is a `guard`
    /// condition, or an `if` condition whose branch taken on a miss leaves (`throw`, `return`); or
    /// it is bound to a local or returned, and a use of that local or a call of the function (in the
    /// project, three steps deep) is such a condition. A `!` written before it flips what a miss
    /// means (`return !installed.contains(…)` answers true on a miss). An answer only stored, shown
    /// or returned to nobody decides nothing: the path is not followed further, nothing is reported.
    static func missRefuses(
        _ structure: SourceStructure, at position: Int, run: ProjectIndex?, depth: Int, negated: Bool = false
    ) -> Bool {
        let tokens = structure.tokens
        /// Whether the `!`s between the expression's start (after `from`, a `,`, `&&` or `||`) and
        /// `position` flip it.
        func flipped(from: Int) -> Bool {
            let separators: Set<String> = [",", "&&", "||"]
            let begin = (from..<position).last { separators.contains(tokens[$0].text) }.map { $0 + 1 } ?? from
            let count = (begin..<position).filter { tokens[$0].kind == .operator && tokens[$0].text == "!" }.count
            return negated != (count % 2 == 1)
        }
        let leaves = { (open: Int, close: Int) in
            (open..<close).contains { tokens[$0].is("throw") || tokens[$0].is("return") }
        }
        if let entry = structure.guards.first(where: { $0.condition.contains(position) }) {
            // On a miss the condition fails and the `else` leaves, unless a `!` turned it round.
            return !flipped(from: entry.condition.lowerBound)
        }
        for block in structure.blocks where block.kind == .conditional && block.header.contains(position) {
            // `if !installed { … }` runs its block on a miss; `if installed { … } else { … }` its else.
            if flipped(from: block.header.lowerBound) { return leaves(block.open, block.close) }
            if let other = structure.blocks.first(where: { $0.kind == .elseBranch && $0.header == block.header }) {
                return leaves(other.open, other.close)
            }
            return false
        }
        guard depth < 3, let function = structure.enclosingFunction(of: position) else { return false }
        let start = structure.statementStart(of: position)
        // `let found = installed.contains(…)`: follow the local's uses in the function.
        if tokens[start].is("let") || tokens[start].is("var"), start + 2 < position, tokens[start + 2].is("=") {
            let name = tokens[start + 1].text
            let after = structure.statementEnd(from: start)
            let local = flipped(from: start + 3)
            return (after..<function.body.upperBound).contains { use in
                tokens[use].kind == .identifier && tokens[use].text == name && !(use > 0 && tokens[use - 1].is("."))
                    && missRefuses(structure, at: use, run: run, depth: depth + 1, negated: local)
            }
        }
        // `return installed.contains(…)` (or a body of that one expression): follow the callers.
        let lone =
            start == function.body.lowerBound && structure.statementEnd(from: start) + 1 >= function.body.upperBound
        guard tokens[start].is("return") || lone else { return false }
        guard let run else { return false }
        let answer = flipped(from: start)
        return run.callers(of: function.name).contains { caller in
            let other = run.units[caller.unit].structure
            return caller.function.body.contains { site in
                other.tokens[site].text == function.name && site + 1 < other.tokens.count
                    && other.tokens[site + 1].is("(")
                    && missRefuses(other, at: site, run: run, depth: depth + 1, negated: answer)
            }
        }
    }
}

extension LintedFile {
    /// Where the code around `position` asks for an installation: its function, or a function
    /// calling it (two callers deep, in the project), reaches `assetInstallationRequest` or
    /// `downloadAndInstall` itself or through a function of the project it calls. Nil when none does.
    fileprivate func requestsInstallation(around position: Int) -> String? {
        guard let function = structure.enclosingFunction(of: position) else { return nil }
        guard let run else { return Self.installs(tokens, function.body) ? function.name : nil }
        var frontier: [(unit: Int, function: (name: String, body: Range<Int>))] = [(unitIndex, function)]
        var seen: Set<String> = []
        for _ in 0..<3 {
            var callers: [(unit: Int, function: (name: String, body: Range<Int>))] = []
            for (unit, current) in frontier where seen.insert("\(unit):\(current.name)").inserted {
                if run.reachesInstallation(unit: unit, body: current.body) { return "\(current.name)()" }
                callers += run.callers(of: current.name)
            }
            frontier = callers
        }
        return nil
    }

    fileprivate static func installs(_ tokens: [SwiftToken], _ body: Range<Int>) -> Bool {
        body.contains { ["assetInstallationRequest", "downloadAndInstall"].contains(tokens[$0].text) }
    }

}

extension ProjectIndex {
    /// Whether `body` of unit `unit` asks for an installation, itself or through a function of
    /// the project it calls.
    fileprivate func reachesInstallation(unit: Int, body: Range<Int>) -> Bool {
        let tokens = units[unit].structure.tokens
        if LintedFile.installs(tokens, body) { return true }
        let called = Set(
            body.filter { tokens[$0].kind == .identifier && $0 + 1 < tokens.count && tokens[$0 + 1].is("(") }
                .map { tokens[$0].text })
        return units.contains { other in
            other.mentions(any: ["assetInstallationRequest", "downloadAndInstall"])
                && other.structure.blocks.contains { block in
                    guard case .function(let name) = block.kind, called.contains(name) else { return false }
                    return LintedFile.installs(other.structure.tokens, (block.open + 1)..<block.close)
                }
        }
    }

    /// The functions of the project that call a function named `name`.
    fileprivate func callers(of name: String) -> [(unit: Int, function: (name: String, body: Range<Int>))] {
        var found: [(unit: Int, function: (name: String, body: Range<Int>))] = []
        for (number, unit) in units(mentioning: name) {
            let tokens = unit.structure.tokens
            for site in tokens.indices
            where tokens[site].text == name && site + 1 < tokens.count && tokens[site + 1].is("(")
                && (site == 0 || !tokens[site - 1].is("func"))
            {
                if let function = unit.structure.enclosingFunction(of: site) { found.append((number, function)) }
            }
        }
        return found
    }
}
