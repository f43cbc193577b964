/// One Swift file of a lint run.
public struct LintSource: Sendable {
    public var file: String
    public var text: String

    public init(file: String, text: String) {
        self.file = file
        self.text = text
    }
}

/// What one file's rules may know about the rest of the run: every file's structure, the types the
/// files declare, and what finishes an analyzer in each file. Lets a rule follow a call such as
/// `capture.stop()` to the type that declares `stop()`, and a closure passed as an argument to the
/// body written at the call site.
final class ProjectIndex: Sendable {
    /// One file, tokenized.
    struct Unit: Sendable {
        var file: String
        var structure: SourceStructure
        var lines: [Substring]
        var problems: [LexicalProblem]
    }

    let units: [Unit]
    /// What finishes an analyzer, per unit (same order as `units`).
    let finishers: [AnalyzerFinishers]
    /// The type names the run's files declare (`struct`, `class`, `enum`, `actor`, `protocol`,
    /// `typealias`): where the project has its own type of a name, that name is not Apple's.
    let declaredTypes: Set<String>
    /// Whether a file of the run re-exports Speech (`@_exported import Speech`), so that every file
    /// of the module sees its names.
    let reexportsSpeech: Bool
    /// Functions of the project that return a `Locale` and call `supportedLocale(equivalentTo:)`:
    /// wrappers whose answer is the framework's usable equivalent.
    let localeResolvers: Set<String>

    init(_ sources: [LintSource]) {
        let units = sources.map { source -> Unit in
            let tokenized = SwiftTokenizer.tokenize(source.text)
            return Unit(
                file: source.file, structure: SourceStructure(tokenized.tokens),
                lines: source.text.split(separator: "\n", omittingEmptySubsequences: false),
                problems: tokenized.problems)
        }
        self.units = units
        localeResolvers = Self.localeResolvers(units)
        declaredTypes = Set(units.flatMap { Self.declaredTypes($0.structure.tokens) })
        reexportsSpeech = units.contains { unit in
            unit.structure.tokens.indices.contains { index in
                let tokens = unit.structure.tokens
                return tokens[index].kind == .attribute && tokens[index].text == "@_exported"
                    && LintedFile.importedModule(tokens, at: index + 1) == "Speech"
            }
        }
        // Two rounds: a handler closure written in one file may call a helper that finishes the
        // analyzer in its own file, which the first round finds.
        var finishers = units.map { LintedFile(unit: $0, index: nil).analyzerFinishers() }
        for _ in 0..<2 {
            let handlers = Self.finishingHandlers(units, finishers)
            finishers = zip(units, finishers).map { unit, current in
                var next = LintedFile(unit: unit, index: nil).analyzerFinishers(handlers: handlers)
                next.handlers.formUnion(current.handlers)
                return next
            }
        }
        self.finishers = finishers
    }

    static func declaredTypes(_ tokens: [SwiftToken]) -> [String] {
        tokens.indices.compactMap { index in
            guard ["struct", "class", "enum", "actor", "protocol", "typealias"].contains(tokens[index].text),
                tokens[index].kind == .identifier, index + 1 < tokens.count, tokens[index + 1].kind == .identifier
            else { return nil }
            return tokens[index + 1].text
        }
    }

    /// Unit `index` as the rules read it, able to look at the others.
    static func localeResolvers(_ units: [Unit]) -> Set<String> {
        var names: Set<String> = []
        for unit in units {
            let tokens = unit.structure.tokens
            for index in tokens.indices
            where tokens[index].is("supportedLocale") && index + 2 < tokens.count && tokens[index + 1].is("(")
                && tokens[index + 2].is("equivalentTo")
            {
                guard let function = unit.structure.enclosingFunction(of: index),
                    let declaration = tokens[..<function.body.lowerBound].lastIndex(where: {
                        $0.is("func")
                    }),
                    tokens[declaration..<function.body.lowerBound].contains(where: { $0.is("->") }),
                    tokens[declaration..<function.body.lowerBound].contains(where: { $0.is("Locale") })
                else { continue }
                names.insert(function.name)
            }
        }
        return names
    }

    func file(_ index: Int, project: ProjectContext = ProjectContext()) -> LintedFile {
        LintedFile(unit: units[index], index: self, unitIndex: index, project: project)
    }

    // MARK: handlers passed in

    /// Where a closure is given a value: an argument labelled with its name whose value is a
    /// closure literal (`Capture(onFailure: { … })`), or an assignment to it
    /// (`capture.onFailure = { … }`, `onFailure = { … }` in its own type).
    struct Binding: Sendable {
        var unit: Int
        var body: Range<Int>
        var line: Int
    }

    /// Bindings of `name` across the run. A handler handed on under another name
    /// (`Input(onError: failureHandler)`, `self.onError = handler`) is followed to that name's
    /// bindings, up to three levels, so a closure passed in at the top counts for the bottom.
    static func bindings(of name: String, in units: [Unit]) -> [Binding] {
        var visited: Set<String> = []
        return bindings(of: name, in: units, depth: 0, visited: &visited)
    }

    private static func bindings(of name: String, in units: [Unit], depth: Int, visited: inout Set<String>) -> [Binding]
    {
        guard visited.insert(name).inserted else { return [] }
        var found: [Binding] = []
        for (number, unit) in units.enumerated() {
            let tokens = unit.structure.tokens
            for index in tokens.indices where tokens[index].kind == .identifier && tokens[index].text == name {
                let next = index + 1 < tokens.count ? tokens[index + 1] : nil
                let previous = index > 0 ? tokens[index - 1] : nil
                let labelled = next?.is(":") == true && previous.map({ $0.is("(") || $0.is(",") }) == true
                let assigned = next?.is("=") == true && previous.map({ !$0.is("let") && !$0.is("var") }) ?? true
                guard labelled || assigned, index + 2 < tokens.count else { continue }
                let value = index + 2
                if tokens[value].is("{"), let close = unit.structure.partner[value] {
                    found.append(Binding(unit: number, body: (value + 1)..<close, line: tokens[index].location.line))
                    continue
                }
                // Handed on: `label: other` or `x.label = other`, the value a plain name.
                let end = value + 1 < tokens.count ? tokens[value + 1] : nil
                guard depth < 3, tokens[value].kind == .identifier, tokens[value].text != name,
                    tokens[value].text.first?.isLowercase == true,
                    end.map({ $0.is(",") || $0.is(")") || $0.kind == .identifier || $0.is("}") }) ?? true
                else { continue }
                found += bindings(of: tokens[value].text, in: units, depth: depth + 1, visited: &visited)
            }
        }
        return found
    }

    /// Closure-typed names (`onFailure: (Error) -> Void`) that some file calls and every binding
    /// of which, in the whole run, finishes or cancels an analyzer.
    static func finishingHandlers(_ units: [Unit], _ finishers: [AnalyzerFinishers]) -> Set<String> {
        var names: Set<String> = []
        for unit in units { names.formUnion(LintedFile(unit: unit, index: nil).closureTypedNames()) }
        return names.filter { name in
            let bindings = bindings(of: name, in: units)
            return !bindings.isEmpty
                && bindings.allSatisfy { binding in
                    LintedFile(unit: units[binding.unit], index: nil).finishesAnalyzer(
                        binding.body, finishers[binding.unit])
                }
        }
    }

    // MARK: receivers

    /// The type a receiver name holds at `position` of unit `unit`, when evident: a local or
    /// parameter annotated with a type or initialised with `TypeName(…)` in the enclosing function,
    /// or a stored property of the enclosing type declared so (in any file).
    func receiverType(_ name: String, at position: Int, in unit: Int) -> String? {
        let structure = units[unit].structure
        if let function = structure.enclosingBlocks(of: position).last(where: {
            if case .function = $0.kind { return true } else { return false }
        }) {
            let start = structure.statementStart(of: function.open)
            if let type = Self.declaredType(of: name, in: structure, range: start..<position) { return type }
        }
        guard let owner = structure.enclosingTypeName(of: position) else { return nil }
        for other in units {
            for block in other.structure.blocks where block.kind == .type(name: owner) {
                let members = other.structure.blocks.filter { $0.open > block.open && $0.close < block.close }
                // Only declarations directly in the type's body, not locals of its methods.
                let range = (block.open + 1)..<block.close
                if let type = Self.declaredType(of: name, in: other.structure, range: range, skipping: members) {
                    return type
                }
            }
        }
        return nil
    }

    /// `name: Type`, `name: Type?`, `let name = Type(…)` or `= try await Type(…)` in `range`,
    /// outside the `skipping` blocks.
    static func declaredType(
        of name: String, in structure: SourceStructure, range: Range<Int>, skipping: [SourceStructure.Block] = []
    ) -> String? {
        let tokens = structure.tokens
        for index in range where tokens[index].kind == .identifier && tokens[index].text == name {
            if skipping.contains(where: { $0.open < index && index < $0.close }) { continue }
            guard index + 2 < tokens.count else { continue }
            let before = index > 0 ? tokens[index - 1] : nil
            let declares = before.map { $0.is("let") || $0.is("var") || $0.is("(") || $0.is(",") } ?? false
            guard declares else { continue }
            if tokens[index + 1].is(":"), tokens[index + 2].kind == .identifier, isTypeName(tokens[index + 2].text) {
                return tokens[index + 2].text
            }
            if tokens[index + 1].is("=") {
                var cursor = index + 2
                while cursor < tokens.count, tokens[cursor].is("try") || tokens[cursor].is("await") { cursor += 1 }
                if cursor + 1 < tokens.count, tokens[cursor].kind == .identifier, isTypeName(tokens[cursor].text),
                    tokens[cursor + 1].is("(")
                {
                    return tokens[cursor].text
                }
            }
        }
        return nil
    }

    /// Upper camel case: what Swift code names types with.
    static func isTypeName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return first.properties.isUppercase
    }

    /// Calls of `function` on a receiver whose type is `type` (`capture.stop()` with `capture`
    /// a `Capture`), across the run, outside `type` itself.
    func qualifiedCalls(of function: String, on type: String) -> [(unit: Int, site: Int, receiver: String)] {
        var sites: [(Int, Int, String)] = []
        for (number, unit) in units.enumerated() {
            let tokens = unit.structure.tokens
            for index in tokens.indices where tokens[index].kind == .identifier && tokens[index].text == function {
                // `capture.stop()`, `capture?.stop()`, `manager.start { … }` (a trailing closure).
                guard index >= 2, tokens[index - 1].is("."), index + 1 < tokens.count,
                    tokens[index + 1].is("(") || tokens[index + 1].is("{")
                        || (tokens[index + 1].is("?") && index + 2 < tokens.count)
                else { continue }
                var receiverIndex = index - 2
                while receiverIndex > 0, tokens[receiverIndex].is("?") || tokens[receiverIndex].is("!") {
                    receiverIndex -= 1
                }
                let receiver = tokens[receiverIndex]
                guard receiver.kind == .identifier, receiver.text != "self" else { continue }
                if receiverType(receiver.text, at: index, in: number) == type {
                    sites.append((number, index, receiver.text))
                }
            }
        }
        return sites
    }
}
