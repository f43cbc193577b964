import Dispatch
import LintSyntax
import Synchronization

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
///
/// Files are parsed when first read. A question about a name reads only the files whose text
/// contains it (``units(mentioning:)``), and the rules read a file only when it contains one of
/// their words (``LintRule/triggers``), so the many files of an app that name nothing the rules
/// follow are never parsed. The files that name the rules' words are parsed up front, side by side.
final class ProjectIndex: Sendable {
    let units: [Unit]
    /// The rules that read each unit (same order as `units`): those whose words its text holds,
    /// with the rule about unreadable files beside them; none for a file no rule reads.
    let readers: [[any LintRule.Type]]
    /// What finishes an analyzer, per unit (same order as `units`).
    let finishers: [AnalyzerFinishers]
    /// The functions and stored closures that finish an analyzer, in any unit: what a call on
    /// another type's receiver must be called to finish one.
    let finishingHelpers: Set<String>
    /// Whether a file of the run re-exports Speech (`@_exported import Speech`), so that every file
    /// of the module sees its names.
    let reexportsSpeech: Bool
    /// Functions of the project that return a `Locale` and call `supportedLocale(equivalentTo:)`:
    /// wrappers whose answer is the framework's usable equivalent.
    let localeResolvers: Set<String>
    /// ``declaresType(_:)``'s answers so far: the rules ask about the same few names for every file.
    private let declaredTypeAnswers = Mutex<[String: Bool]>([:])

    init(_ sources: [LintSource]) {
        let units = sources.map { Unit($0) }
        let readers = units.map(Self.readers(of:))
        Self.parse(zip(units, readers).filter { !$0.1.isEmpty }.map(\.0))
        self.units = units
        self.readers = readers
        localeResolvers = Self.localeResolvers(units)
        reexportsSpeech = units.contains { unit in
            guard unit.mentions("@_exported") else { return false }
            let tokens = unit.structure.tokens
            return tokens.indices.contains { index in
                tokens[index].kind == .attribute && tokens[index].text == "@_exported"
                    && LintedFile.importedModule(tokens, at: index + 1) == "Speech"
            }
        }
        // Only the input rule asks what finishes an analyzer; without a file it reads, nothing does.
        let input = ObjectIdentifier(InputFinishWithoutAnalyzerFinishRule.self)
        guard readers.contains(where: { $0.contains { ObjectIdentifier($0) == input } }) else {
            finishers = units.map { _ in AnalyzerFinishers(analyzers: []) }
            finishingHelpers = []
            return
        }
        // Two rounds: a handler closure written in one file may call a helper that finishes the
        // analyzer in its own file, which the first round finds.
        var finishers = units.map { Self.finishers(of: $0, handlers: []) }
        for _ in 0..<2 {
            let handlers = Self.finishingHandlers(units, finishers)
            finishers = zip(units, finishers).map { unit, current in
                var next = Self.finishers(of: unit, handlers: handlers)
                next.handlers.formUnion(current.handlers)
                return next
            }
        }
        self.finishers = finishers
        finishingHelpers = finishers.reduce(into: []) { $0.formUnion($1.helpers) }
    }

    /// The rules whose words `unit`'s text holds, and the rule about unreadable files with them: a
    /// syntax error matters wherever a rule reads.
    private static func readers(of unit: Unit) -> [any LintRule.Type] {
        var rules = LintRules.all.filter { $0.reads(unit) }
        let unreadable = ObjectIdentifier(UnreadableSourceRule.self)
        if !rules.isEmpty, !rules.contains(where: { ObjectIdentifier($0) == unreadable }) {
            rules.append(UnreadableSourceRule.self)
        }
        return rules
    }

    /// Whether `unit` may finish an analyzer or hold one: it names an analyzer, or a finish or
    /// cancel call (`finalizeAndFinish…`, `cancelAndFinishNow`, `finalize(through:)`, `finish(after:)`).
    static func mayFinish(_ unit: Unit) -> Bool {
        unit.mentions(any: ["SpeechAnalyzer", "AndFinish", "finalize"])
            || unit.mentions("finish") && unit.mentions("after")
    }

    /// What finishes an analyzer in `unit`; a file without any finishing word or handler name has
    /// nothing (and is not parsed for it).
    private static func finishers(of unit: Unit, handlers: Set<String>) -> AnalyzerFinishers {
        guard mayFinish(unit) || handlers.contains(where: unit.mentions) else {
            return AnalyzerFinishers(analyzers: [], handlers: handlers)
        }
        return LintedFile(unit: unit, index: nil).analyzerFinishers(handlers: handlers)
    }

    /// Parses `units` on every core, each file on its own.
    private static func parse(_ units: [Unit]) {
        DispatchQueue.concurrentPerform(iterations: units.count) { units[$0].parse() }
    }

    /// The units whose text contains `word`, with their indices: the only ones a question about
    /// that name can concern.
    func units(mentioning word: String) -> [(number: Int, unit: Unit)] {
        units.enumerated().compactMap { $1.mentions(word) ? ($0, $1) : nil }
    }

    /// Whether a file of the run declares a type of this name (`struct`, `class`, `enum`, `actor`,
    /// `protocol`, `typealias`): where the project has its own type of a name, that name is not Apple's.
    func declaresType(_ name: String) -> Bool {
        if let known = declaredTypeAnswers.withLock({ $0[name] }) { return known }
        let answer = units(mentioning: name).contains { Self.declaredTypes($0.unit.structure.tokens).contains(name) }
        declaredTypeAnswers.withLock { $0[name] = answer }
        return answer
    }

    static func declaredTypes(_ tokens: [SwiftToken]) -> [String] {
        tokens.indices.compactMap { index in
            guard ["struct", "class", "enum", "actor", "protocol", "typealias"].contains(tokens[index].text),
                tokens[index].kind == .identifier, index + 1 < tokens.count, tokens[index + 1].kind == .identifier
            else { return nil }
            return tokens[index + 1].text
        }
    }

    static func localeResolvers(_ units: [Unit]) -> Set<String> {
        var names: Set<String> = []
        for unit in units where unit.mentions("supportedLocale") {
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

    /// Unit `index` as the rules read it, able to look at the others.
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
        for (number, unit) in units.enumerated() where unit.mentions(name) {
            let tokens = unit.structure.tokens
            for index in tokens.indices where tokens[index].kind == .identifier && tokens[index].text == name {
                let value = index + 2
                guard value < tokens.count, boundName(of: value, in: tokens) != nil else { continue }
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
    ///
    /// Such a name's bindings are closures that finish, each bound to it directly or through names
    /// it is handed on to (``bindings(of:in:)``), so the names worth checking are found from those
    /// closures back: the names finishing closures are bound to, then the names handed on to them.
    static func finishingHandlers(_ units: [Unit], _ finishers: [AnalyzerFinishers]) -> Set<String> {
        let handlers = finishers.reduce(into: Set<String>()) { $0.formUnion($1.handlers) }
        var candidates: Set<String> = []
        for (number, unit) in units.enumerated()
        where mayFinish(unit) || handlers.contains(where: unit.mentions) {
            let file = LintedFile(unit: unit, index: nil)
            for block in file.structure.blocks where block.kind == .other {
                guard let name = boundName(of: block.open, in: file.tokens),
                    file.finishesAnalyzer((block.open + 1)..<block.close, finishers[number])
                else { continue }
                candidates.insert(name)
            }
        }
        var frontier = candidates
        for _ in 0..<3 {
            var next: Set<String> = []
            for name in frontier {
                for (_, unit) in units.enumerated() where unit.mentions(name) {
                    let tokens = unit.structure.tokens
                    for index in tokens.indices where tokens[index].text == name && tokens[index].kind == .identifier {
                        if let handedOn = boundName(of: index, in: tokens), !candidates.contains(handedOn) {
                            next.insert(handedOn)
                        }
                    }
                }
            }
            candidates.formUnion(next)
            frontier = next
        }
        return candidates.filter { name in
            let declared = units.contains { unit in
                unit.mentions(name) && LintedFile(unit: unit, index: nil).closureTypedNames().contains(name)
            }
            let bindings = bindings(of: name, in: units)
            return declared && !bindings.isEmpty
                && bindings.allSatisfy { binding in
                    LintedFile(unit: units[binding.unit], index: nil).finishesAnalyzer(
                        binding.body, finishers[binding.unit])
                }
        }
    }

    /// The name a value at `value` is bound to, as ``bindings(of:in:)`` reads a binding: the label
    /// of an argument (`onFailure: value`) or the target of an assignment (`x.onFailure = value`).
    private static func boundName(of value: Int, in tokens: [SwiftToken]) -> String? {
        guard value >= 2, tokens[value - 2].kind == .identifier else { return nil }
        let previous = value >= 3 ? tokens[value - 3] : nil
        let labelled = tokens[value - 1].is(":") && previous.map({ $0.is("(") || $0.is(",") }) == true
        let assigned = tokens[value - 1].is("=") && previous.map({ !$0.is("let") && !$0.is("var") }) ?? true
        return labelled || assigned ? tokens[value - 2].text : nil
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
        let ownerName = String(owner.split(separator: ".").last ?? "")
        for other in units where other.mentions(ownerName) {
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
                // `let live = engine as? LiveEngine`, `if let live = engine as? LiveEngine`.
                let end = structure.statementEnd(from: index)
                if let cast = (cursor..<min(end, tokens.count)).first(where: {
                    tokens[$0].is("as") && $0 + 2 < tokens.count && (tokens[$0 + 1].is("?") || tokens[$0 + 1].is("!"))
                }), tokens[cast + 2].kind == .identifier, isTypeName(tokens[cast + 2].text),
                    cast + 3 >= end || tokens[cast + 3].is(",") || tokens[cast + 3].is("{")
                        || tokens[cast + 3].is("else")
                {
                    return tokens[cast + 2].text
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
    /// a `Capture`, or `(object as? Capture)?.stop()`), across the run, outside `type` itself.
    func qualifiedCalls(of function: String, on type: String) -> [(unit: Int, site: Int, receiver: String)] {
        var sites: [(Int, Int, String)] = []
        for (number, unit) in units(mentioning: function) {
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
                // `(sink as? Sink)?.finish()`: the cast names the receiver's type.
                if receiver.is(")"), receiverIndex >= 4, tokens[receiverIndex - 1].text == type,
                    tokens[receiverIndex - 2].is("?") || tokens[receiverIndex - 2].is("!"),
                    tokens[receiverIndex - 3].is("as")
                {
                    sites.append((number, index, "as? \(type)"))
                    continue
                }
                guard receiver.kind == .identifier, receiver.text != "self" else { continue }
                if receiverType(receiver.text, at: index, in: number) == type {
                    sites.append((number, index, receiver.text))
                }
            }
        }
        return sites
    }
}
