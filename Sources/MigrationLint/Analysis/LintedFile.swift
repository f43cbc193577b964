/// One file of a lint run, as the rules read it: its tokens and block structure, its lines, the
/// app around it, and the rest of the run. The queries here are the ones several rules share;
/// a rule's own questions live beside it in its file under `Rules/`.
public struct LintedFile: Sendable {
    let file: String
    let structure: SourceStructure
    let lines: [Substring]
    /// What the parser could not read cleanly.
    let problems: [LexicalProblem]
    let project: ProjectContext
    /// The run's files; nil while the index itself is being built.
    let run: ProjectIndex?
    /// This file's place in `run`.
    let unitIndex: Int

    var tokens: [SwiftToken] { structure.tokens }

    init(unit: ProjectIndex.Unit, index: ProjectIndex?, unitIndex: Int = 0, project: ProjectContext = ProjectContext())
    {
        file = unit.file
        structure = unit.structure
        lines = unit.lines
        problems = unit.problems
        self.project = project
        self.run = index
        self.unitIndex = unitIndex
    }

    /// A finding of `rule` at `location`, carrying the line it is on.
    /// `evidence` is the path the rule followed after the finding's own place (which comes first).
    func finding(
        _ rule: any LintRule.Type, at location: SourceLocation, _ detail: String, fix: LintFix? = nil,
        evidence: [LintStep] = []
    ) -> LintFinding {
        let line = location.line - 1 < lines.count ? lines[location.line - 1] : ""
        return LintFinding(
            file: file, location: location, rule: rule.descriptor, detail: detail, lineText: line.trimmingSpaces(),
            fix: fix, sourceLine: String(line),
            evidence: [LintStep(file: file, location: location, text: detail, sourceLine: line)] + evidence)
    }

    /// A step of a rule's path at token `index` of this file.
    func step(at index: Int, _ text: String) -> LintStep {
        let location = tokens[index].location
        return LintStep(
            file: file, location: location, text: text,
            sourceLine: location.line - 1 < lines.count ? lines[location.line - 1] : nil)
    }

    /// The tokens of every file of the run whose text contains one of `words` (this file's alone
    /// when linted without a run): a scan for tokens spelling those words needs no other file.
    func runTokens(mentioning words: [String]) -> [[SwiftToken]] {
        guard let run else { return [tokens] }
        return run.units.filter { $0.mentions(any: words) }.map(\.structure.tokens)
    }

    func token(_ index: Int) -> SwiftToken? { index >= 0 && index < tokens.count ? tokens[index] : nil }

    /// True when tokens starting at `index` spell `words` (identifiers and punctuation).
    func matches(_ index: Int, _ words: [String]) -> Bool {
        guard index >= 0, index + words.count <= tokens.count else { return false }
        for (offset, word) in words.enumerated() where !tokens[index + offset].is(word) { return false }
        return true
    }

    /// Index of the receiver name before `.member` at `dot`, skipping `?`/`!` and `self.`.
    func receiverName(beforeDot dot: Int) -> String? {
        var index = dot - 1
        while let token = token(index), token.is("?") || token.is("!") { index -= 1 }
        guard let token = token(index), token.kind == .identifier else { return nil }
        return token.text
    }

    func identifiers(in range: Range<Int>) -> [String] {
        range.compactMap { tokens[$0].kind == .identifier ? tokens[$0].text : nil }
    }

    /// Whether `name`, written in this file, would be the Speech framework's: the file sees Speech
    /// (imports it, or the module re-exports it) and the project declares no type of that name.
    func namesSpeechType(_ name: String) -> Bool {
        !declaresOwnType(name) && (importsSpeech || run?.reexportsSpeech == true)
    }

    /// Whether the project (this file alone when linted without a run) declares a type of this name.
    func declaresOwnType(_ name: String) -> Bool {
        run?.declaresType(name) ?? ProjectIndex.declaredTypes(tokens).contains(name)
    }

    /// Whether the file is test code (``ProjectIndex/Unit/isTestCode``).
    var isTestCode: Bool { Self.isTestCode(file: file, tokens: { tokens }) }

    /// Whether `file` is test code: a folder on its path is `Tests` or ends in `Tests` (SwiftPM's and
    /// Xcode's test targets), or it imports XCTest or Testing. `tokens` is read only for the imports.
    static func isTestCode(file: String, tokens: () -> [SwiftToken]) -> Bool {
        if file.split(separator: "/").dropLast().contains(where: { $0.hasSuffix("Tests") }) { return true }
        let tokens = tokens()
        return tokens.indices.contains {
            tokens[$0].is("import") && ["XCTest", "Testing"].contains(importedModule(tokens, at: $0) ?? "")
        }
    }

    /// Whether the file imports Speech (`import Speech`, `@preconcurrency import Speech`,
    /// `import struct Speech.SpeechTranscriber`…).
    var importsSpeech: Bool {
        tokens.indices.contains { tokens[$0].is("import") && Self.importedModule(tokens, at: $0) == "Speech" }
    }

    /// The module an `import` declaration at `index` (or the attribute before it) names.
    static func importedModule(_ tokens: [SwiftToken], at index: Int) -> String? {
        var cursor = index
        while cursor < tokens.count, tokens[cursor].kind == .attribute { cursor += 1 }
        guard cursor < tokens.count, tokens[cursor].is("import") else { return nil }
        cursor += 1
        let kinds = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let", "actor"]
        if cursor < tokens.count, kinds.contains(tokens[cursor].text) { cursor += 1 }
        return cursor < tokens.count && tokens[cursor].kind == .identifier ? tokens[cursor].text : nil
    }

    /// The name a statement binds with the value that holds `index`: `all` in
    /// `let all = await Set(SpeechTranscriber.supportedLocales)`.
    func assignedName(at index: Int) -> String? {
        let start = outerStatementStart(of: index)
        guard let assign = (start..<index).first(where: { tokens[$0].is("=") }),
            let name = (start..<assign).last(where: { tokens[$0].kind == .identifier })
        else { return nil }
        return tokens[name].text
    }

    /// The start of the statement around `position`, through any brackets it sits in.
    func outerStatementStart(of position: Int) -> Int {
        var start = structure.statementStart(of: position)
        while start > 0, tokens[start - 1].is("(") || tokens[start - 1].is("[") {
            start = structure.statementStart(of: start - 1)
        }
        return start
    }

    /// True when `name` is declared with `var`/`let` directly in a type's body.
    func isStoredProperty(_ name: String) -> Bool {
        tokens.indices.contains { index in
            (tokens[index].is("var") || tokens[index].is("let")) && token(index + 1)?.text == name
                && structure.enclosingBlocks(of: index).last.map {
                    if case .type = $0.kind { return true } else { return false }
                } == true
        }
    }
}

extension StringProtocol {
    /// The line without its indentation and trailing blanks (a CR before the line end included).
    func trimmingSpaces() -> String {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" })
        else { return "" }
        return String(self[first...last])
    }
}
