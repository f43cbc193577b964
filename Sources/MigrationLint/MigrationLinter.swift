/// What the lint knows about the app around the sources: whether they belong to an app target
/// at all, and the usage-description keys its Info.plist files (or INFOPLIST_KEY_ build settings)
/// declare.
public struct ProjectContext: Sendable {
    /// What marks the sources as an app's (an Info.plist, an .xcodeproj application target, an
    /// XcodeGen `type: application`, INFOPLIST_KEY_ settings); nil: nothing found, as for a
    /// command-line tool or a package, which declare no usage descriptions.
    public var appTarget: String?
    /// Keys declared by the property lists and build settings found; nil when none was found.
    public var usageDescriptionKeys: Set<String>?

    public init(appTarget: String? = nil, usageDescriptionKeys: Set<String>? = nil) {
        self.appTarget = appTarget
        self.usageDescriptionKeys = usageDescriptionKeys
    }

    /// Why the usage-description rule does not apply here; nil when it does.
    public var usageRuleSkipReason: String? {
        guard appTarget == nil, usageDescriptionKeys == nil else { return nil }
        return
            "no app target found (no Info.plist, .xcodeproj application target, project.yml application or INFOPLIST_KEY_ setting); "
            + "command-line tools and packages declare no usage descriptions"
    }
}

/// Finds the mistakes people make moving from SFSpeechRecognizer (or an early draft of the new API)
/// to SpeechAnalyzer. Works on tokens, so nothing inside comments or string text is reported;
/// code inside string interpolations is checked like any other code.
public enum MigrationLinter {
    /// Findings in one file's source text, sorted by position.
    public static func lint(source: String, file: String, project: ProjectContext = ProjectContext()) -> [LintFinding] {
        lint([LintSource(file: file, text: source)], project: project)
    }

    /// Findings in a set of files linted together (an app's sources), sorted by file and position.
    /// Rules follow calls and closures from one file into the others.
    public static func lint(_ sources: [LintSource], project: ProjectContext = ProjectContext()) -> [LintFinding] {
        let index = ProjectIndex(sources)
        var findings: [LintFinding] = []
        for unit in index.units.indices {
            var context = index.context(unit, project: project)
            for problem in index.units[unit].problems {
                context.report(.unreadableSource, at: problem.location, problem.message)
            }
            context.legacyAPI()
            context.allocateLocale()
            context.betaAssetNames()
            context.betaPresetNames()
            context.resultTypes()
            context.progressIteration()
            context.inputContinuations()
            context.reservationRelease()
            context.bestFormat()
            context.untrackedResultTasks()
            context.exactLocaleMatch()
            context.usageDescriptions()
            findings += context.findings.sorted { ($0.location, $0.rule.id) < ($1.location, $1.rule.id) }
        }
        return findings
    }
}

/// The rules, as passes over one file's tokens.
struct RuleContext {
    let file: String
    let structure: SourceStructure
    let lines: [Substring]
    let project: ProjectContext
    /// The run's other files; nil while the index itself is being built.
    let run: ProjectIndex?
    /// This file's place in `run`.
    var unitIndex = 0
    private(set) var findings: [LintFinding] = []
    /// `findings` as a set, so that a finding reported twice is kept once.
    private var reported: Set<LintFinding> = []

    var tokens: [SwiftToken] { structure.tokens }

    init(unit: ProjectIndex.Unit, index: ProjectIndex?, project: ProjectContext = ProjectContext()) {
        file = unit.file
        structure = unit.structure
        lines = unit.lines
        self.project = project
        self.run = index
    }

    mutating func report(_ rule: LintRule, at location: SourceLocation, _ detail: String, fix: LintFix? = nil) {
        let line = location.line - 1 < lines.count ? lines[location.line - 1] : ""
        let finding = LintFinding(
            file: file, location: location, rule: rule, detail: detail, lineText: line.trimmingSpaces(), fix: fix,
            sourceLine: String(line))
        if reported.insert(finding).inserted { findings.append(finding) }
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

    // MARK: legacy API

    static let legacyNames: [String: String] = [
        "SFSpeechRecognizer": "SpeechTranscriber(locale:transcriptionOptions:reportingOptions:attributeOptions:)",
        "SFSpeechRecognizerDelegate": "SpeechTranscriber.isAvailable and AssetInventory.status(forModules:)",
        "SFSpeechRecognitionRequest": "AnalyzerInput values in the analyzer's input sequence",
        "SFSpeechAudioBufferRecognitionRequest": "AnalyzerInput(buffer:) yielded into the analyzer's input sequence",
        "SFSpeechURLRecognitionRequest":
            "SpeechAnalyzer(inputAudioFile:modules:finishAfterFile:) or analyzeSequence(from:)",
        "SFSpeechRecognitionTask": "a tracked task over transcriber.results",
        "SFSpeechRecognitionTaskDelegate": "a tracked task over transcriber.results",
        "SFSpeechRecognitionTaskHint": "SpeechTranscriber presets or DictationTranscriber content hints",
        "SFSpeechRecognitionResult": "SpeechTranscriber.Result",
        "SFTranscription": "SpeechTranscriber.Result.text",
        "SFTranscriptionSegment": "runs of result.text with the audioTimeRange attribute",
        "SFSpeechRecognitionMetadata": "SpeechTranscriber.Result.range",
        "SFSpeechLanguageModel": "AnalysisContext.contextualStrings",
    ]

    /// One finding per type that uses the legacy API (at its first use, naming every legacy name
    /// it uses), one per use in code outside any type. A type kept as a deliberate alternative to
    /// a SpeechAnalyzer-based one is not reported: it conforms to a protocol such a type conforms
    /// to, some file refers to both in one body (a switch between engines, two properties side by
    /// side), or both are public (a library offering both).
    mutating func legacyAPI() {
        var byType: [String: [(index: Int, name: String)]] = [:]
        var order: [String] = []
        for (index, token) in tokens.enumerated() where token.kind == .identifier {
            guard Self.legacyNames[token.text] != nil else { continue }
            // Authorization still goes through SFSpeechRecognizer.
            if token.text == "SFSpeechRecognizer", matches(index + 1, ["."]),
                let member = self.token(index + 2),
                ["requestAuthorization", "authorizationStatus"].contains(member.text)
            {
                continue
            }
            if self.token(index - 1)?.is(".") == true { continue }
            if isDeliberateFallback(index) { continue }
            // Code outside any type is grouped by file (scripts, `main.swift`).
            let type = structure.enclosingTypeName(of: index) ?? declaringType(atHeader: index) ?? ""
            if byType[type] == nil { order.append(type) }
            byType[type, default: []].append((index, token.text))
        }
        for type in order {
            let uses = byType[type]!
            // Code that runs SpeechAnalyzer itself beside the legacy API is comparing or choosing.
            if usesAnalyzer(in: type) { continue }
            if !type.isEmpty, analyzerAlternative(to: type) != nil { continue }
            var names: [String] = []
            for use in uses where !names.contains(use.name) { names.append(use.name) }
            let listed = names.map { "\($0) → \(Self.legacyNames[$0]!)" }.joined(separator: "; ")
            let owner = type.isEmpty ? "code outside any type" : type
            report(.legacyAPI, at: tokens[uses[0].index].location, "\(owner) uses \(listed)")
        }
    }

    /// The type whose declaration (`final class Live: NSObject, SFSpeechRecognizerDelegate {`)
    /// holds `index` before its body.
    func declaringType(atHeader index: Int) -> String? {
        for block in structure.blocks where block.open > index {
            guard case .type(let name) = block.kind else { continue }
            if structure.statementStart(of: block.open) <= index { return name }
        }
        return nil
    }

    /// Whether the type's body (in any file), or for "" this file's code outside types, makes a
    /// SpeechAnalyzer or one of its modules.
    func usesAnalyzer(in type: String) -> Bool {
        let makesAnalyzer = { (structure: SourceStructure, range: Range<Int>) in
            range.contains { index in
                let token = structure.tokens[index]
                return (token.is("SpeechAnalyzer") || token.is("SpeechTranscriber") || token.is("DictationTranscriber"))
                    && index + 1 < structure.tokens.count
                    && (structure.tokens[index + 1].is("(") || structure.tokens[index + 1].is("."))
            }
        }
        guard !type.isEmpty else {
            return tokens.indices.contains {
                makesAnalyzer(structure, $0..<($0 + 1)) && structure.enclosingTypeName(of: $0) == nil
            }
        }
        let units = run?.units.map(\.structure) ?? [structure]
        return units.contains { structure in
            structure.blocks.contains {
                $0.kind == .type(name: type) && makesAnalyzer(structure, ($0.open + 1)..<$0.close)
            }
        }
    }

    /// The SpeechAnalyzer-based type that `type` stands beside as an alternative, if any.
    func analyzerAlternative(to type: String) -> String? {
        guard let run else { return nil }
        var analyzerTypes: [String: Set<String>] = [:]  // name → its conformances
        var legacyConformances: Set<String> = []
        for unit in run.units {
            let structure = unit.structure
            for block in structure.blocks {
                guard case .type(let name) = block.kind else { continue }
                let body = (block.open + 1)..<block.close
                let conformances = Self.conformances(structure, of: block)
                if name == type {
                    legacyConformances.formUnion(conformances)
                } else if body.contains(where: {
                    structure.tokens[$0].is("SpeechAnalyzer") || structure.tokens[$0].is("SpeechTranscriber")
                }) {
                    analyzerTypes[name, default: []].formUnion(conformances)
                }
            }
        }
        let common: Set<String> = [
            "Sendable", "ObservableObject", "NSObject", "Observable", "Equatable", "Hashable", "Identifiable",
            "AnyObject",
        ]
        if let shared = analyzerTypes.first(where: {
            !$0.value.intersection(legacyConformances).subtracting(common).isEmpty
        }) {
            return shared.key
        }
        // A library offering both to its users: both types public.
        if isPublicType(type), let other = analyzerTypes.keys.sorted().first(where: isPublicType) { return other }
        // Referred to side by side: one function or type body names both.
        for unit in run.units {
            let structure = unit.structure
            for block in structure.blocks {
                let isScope: Bool
                switch block.kind {
                case .function: isScope = true
                case .type(let name): isScope = name != type && analyzerTypes[name] == nil
                default: isScope = false
                }
                guard isScope else { continue }
                let names = Set(((block.open + 1)..<block.close).map { structure.tokens[$0].text })
                if names.contains(type), let other = analyzerTypes.keys.sorted().first(where: names.contains) {
                    return other
                }
            }
        }
        return nil
    }

    /// Whether a type of the run is declared `public` or `open`.
    func isPublicType(_ name: String) -> Bool {
        run?.units.contains { unit in
            unit.structure.blocks.contains { block in
                guard block.kind == .type(name: name) else { return false }
                let start = unit.structure.statementStart(of: block.open)
                return (start..<block.open).contains {
                    unit.structure.tokens[$0].is("public") || unit.structure.tokens[$0].is("open")
                }
            }
        } ?? false
    }

    /// The names after `:` in a type's declaration (`final class A: B, C {`).
    static func conformances(_ structure: SourceStructure, of block: SourceStructure.Block) -> Set<String> {
        let tokens = structure.tokens
        let start = structure.statementStart(of: block.open)
        guard let colon = (start..<block.open).first(where: { tokens[$0].is(":") }) else { return [] }
        var names: Set<String> = []
        for index in (colon + 1)..<block.open where tokens[index].kind == .identifier {
            if tokens[index].is("where") { break }
            names.insert(tokens[index].text)
        }
        return names
    }

    /// Inside the `else` of `if #available(…)`, or under `if #unavailable(…)` / `guard #available … else`.
    func isDeliberateFallback(_ index: Int) -> Bool {
        for block in structure.enclosingBlocks(of: index) {
            let header = identifiersAndPounds(block.header)
            if block.kind == .elseBranch && header.contains("#available") { return true }
            if block.kind == .conditional && header.contains("#unavailable") { return true }
            if block.kind == .other,
                structure.guards.contains(where: {
                    $0.condition.upperBound < block.open && block.open - $0.condition.upperBound <= 1
                        && identifiersAndPounds($0.condition).contains("#available")
                })
            {
                return true
            }
        }
        return false
    }

    func identifiersAndPounds(_ range: Range<Int>) -> Set<String> {
        Set(
            range.compactMap {
                tokens[$0].kind == .identifier || tokens[$0].kind == .poundKeyword ? tokens[$0].text : nil
            })
    }

    // MARK: API that never existed

    mutating func allocateLocale() {
        for index in tokens.indices where matches(index, [".", "allocate", "(", "locale", ":"]) {
            report(
                .allocateLocale, at: tokens[index + 1].location,
                "\(receiverName(beforeDot: index) ?? "…").allocate(locale:)")
        }
    }

    /// Beta names of the reservation API and their shipped replacements.
    static let betaAssetNames: [(beta: [String], shipped: String)] = [
        (["allocatedLocales"], "reservedLocales"),
        (["maximumAllocatedLocales"], "maximumReservedLocales"),
        (["deallocate", "(", "locale"], "release(reservedLocale"),
    ]

    mutating func betaAssetNames() {
        for index in tokens.indices
        where token(index - 1)?.is(".") == true && token(index - 2)?.is("AssetInventory") == true {
            for (beta, shipped) in Self.betaAssetNames where matches(index, beta) {
                let first = tokens[index], last = tokens[index + beta.count - 1]
                guard first.location.line == last.location.line else { continue }
                let fix = LintFix(
                    start: first.location.column, end: last.location.column + last.text.count, replacement: shipped)
                let written = beta.count == 1 ? beta[0] : "deallocate(locale:)"
                let replacement = beta.count == 1 ? shipped : "release(reservedLocale:)"
                report(
                    .betaAssetAPI, at: first.location, "AssetInventory.\(written) → AssetInventory.\(replacement)",
                    fix: fix)
            }
        }
    }

    /// The first beta's preset names and the shipped ones.
    static let betaPresets = [
        "offlineTranscription": "transcription", "progressiveLiveTranscription": "progressiveTranscription",
    ]

    mutating func betaPresetNames() {
        guard importsSpeech || run?.reexportsSpeech == true else { return }
        for index in tokens.indices where tokens[index].kind == .identifier && token(index - 1)?.is(".") == true {
            guard let shipped = Self.betaPresets[tokens[index].text] else { continue }
            let afterLabel = token(index - 2)?.is(":") == true && token(index - 3)?.is("preset") == true
            guard afterLabel || token(index - 2)?.is("Preset") == true, !projectDeclaresMember(tokens[index].text)
            else { continue }
            let name = tokens[index]
            report(
                .betaPreset, at: name.location, ".\(name.text) → .\(shipped)",
                fix: LintFix(
                    start: name.location.column, end: name.location.column + name.text.count, replacement: shipped))
        }
    }

    /// Whether a file of the run declares a member called `name` (`case`, `let`, `var`, `func`).
    func projectDeclaresMember(_ name: String) -> Bool {
        let units = run.map { $0.units.map(\.structure.tokens) } ?? [tokens]
        return units.contains { tokens in
            tokens.indices.dropFirst().contains {
                tokens[$0].text == name && tokens[$0].kind == .identifier
                    && ["case", "let", "var", "func"].contains(tokens[$0 - 1].text)
            }
        }
    }

    mutating func resultTypes() {
        let results = transcriberResultNames
        for (index, token) in tokens.enumerated() {
            if token.kind == .identifier,
                ["SpeechTranscriptionResult", "DictationTranscriptionResult"].contains(token.text),
                self.token(index - 1)?.is(".") != true, namesSpeechType(token.text)
            {
                let shipped =
                    token.text == "SpeechTranscriptionResult"
                    ? "SpeechTranscriber.Result" : "DictationTranscriber.Result"
                report(
                    .nonexistentResultType, at: token.location, "\(token.text) → \(shipped)",
                    fix: LintFix(
                        start: token.location.column, end: token.location.column + token.text.count,
                        replacement: shipped))
            }
            if token.is("."), let member = self.token(index + 1), member.kind == .identifier,
                member.text == "transcription", let receiver = receiverName(beforeDot: index),
                results.contains(receiver)
            {
                report(.resultTranscription, at: member.location, "\(receiver).transcription")
            }
        }
    }

    /// Names that hold a transcriber's result in this file: loop variables over a `results`
    /// sequence (`for try await r in transcriber.results`) and names declared with a result type.
    /// An app's own `memo.transcription` is not one.
    var transcriberResultNames: Set<String> {
        let resultTypes = Set(["SpeechTranscriptionResult", "DictationTranscriptionResult"].filter(namesSpeechType))
        var names: Set<String> = []
        for block in structure.blocks where block.kind == .loop {
            let header = block.header
            guard let inIndex = header.first(where: { tokens[$0].is("in") }),
                ((inIndex + 1)..<header.upperBound).contains(where: { tokens[$0].is("results") })
            else { continue }
            for index in header.lowerBound..<inIndex where tokens[index].kind == .identifier {
                if !["try", "await", "case", "let", "var"].contains(tokens[index].text) {
                    names.insert(tokens[index].text)
                }
            }
        }
        for index in tokens.indices where tokens[index].is(":") {
            guard let name = token(index - 1), name.kind == .identifier, let type = token(index + 1) else { continue }
            if resultTypes.contains(type.text)
                || ["SpeechTranscriber", "DictationTranscriber"].contains(type.text)
                    && matches(index + 2, [".", "Result"])
            {
                names.insert(name.text)
            }
        }
        return names
    }

    // MARK: Names in scope

    /// Whether `name`, written in this file, would be the Speech framework's: the file sees Speech
    /// (imports it, or the module re-exports it) and the project declares no type of that name.
    func namesSpeechType(_ name: String) -> Bool {
        let declared = run?.declaredTypes.contains(name) ?? ProjectIndex.declaredTypes(tokens).contains(name)
        return !declared && (importsSpeech || run?.reexportsSpeech == true)
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

    // MARK: Progress

    mutating func progressIteration() {
        for index in tokens.indices where tokens[index].is("for") {
            var cursor = index + 1
            if token(cursor)?.is("try") == true { cursor += 1 }
            guard token(cursor)?.is("await") == true else { continue }
            guard let inIndex = (cursor..<min(tokens.count, cursor + 40)).first(where: { tokens[$0].is("in") }),
                let open = (inIndex..<tokens.count).first(where: { tokens[$0].is("{") })
            else { continue }
            let sequence = (inIndex + 1)..<open
            let names = identifiers(in: sequence)
            if names.last == "progress" || names.last == "Progress"
                || sequence.contains(where: { matches($0, [".", "progress"]) && $0 + 2 == open })
            {
                report(.progressIteration, at: tokens[index].location, "for await … in \(names.joined(separator: "."))")
            }
        }
    }

    // MARK: optional audio format

    mutating func bestFormat() {
        for index in tokens.indices where tokens[index].is("bestAvailableAudioFormat") && matches(index + 1, ["("]) {
            // A declaration of the function itself, or a reference without a call.
            if token(index - 1)?.is("func") == true { continue }
            let start = structure.statementStart(of: index)
            let close = structure.partner[index + 1] ?? tokens.count
            let head = tokens[start]
            if head.is("guard") || head.is("if") || head.is("while") || head.is("return") { continue }
            if token(close + 1)?.is("?") == true || token(close + 1)?.is("??") == true { continue }
            guard let assign = (start..<index).first(where: { tokens[$0].is("=") }),
                let nameIndex = (start..<assign).last(where: { tokens[$0].kind == .identifier })
            else { continue }
            let name = tokens[nameIndex].text
            let body = structure.functionBody(of: index)
            let uses = (close..<body.upperBound).filter { tokens[$0].kind == .identifier && tokens[$0].text == name }
            if uses.contains(where: handlesNil) { continue }
            // Stored on the type, directly or from the local: follow the property's reads.
            let property = isStoredProperty(name) ? name : uses.compactMap(propertyAssigned).first
            if let property {
                let reads = propertyReads(property)
                if let unguarded = reads.first(where: {
                    !handlesNil($0) && !isUnwrappedBinding(property, at: $0) && !flowsIntoHandledLocal($0)
                }) {
                    report(
                        .unguardedBestFormat, at: tokens[index].location,
                        "`\(name)` is stored in `\(property)`, which is read without a nil check at line \(tokens[unguarded].location.line)"
                    )
                } else if reads.isEmpty {
                    report(
                        .unguardedBestFormat, at: tokens[index].location,
                        "`\(name)` is stored in `\(property)`, and nothing in this file reads it with a nil check")
                }
                continue
            }
            report(
                .unguardedBestFormat, at: tokens[index].location,
                "`\(name)` is used as if bestAvailableAudioFormat never returned nil")
        }
    }

    /// True when the name at `use` is read in a way that handles nil: bound by `if let`/`guard let`,
    /// chained or defaulted, compared with nil, switched over, or handed to a labelled parameter
    /// (the callee's type decides, and the compiler checks it).
    func handlesNil(_ use: Int) -> Bool {
        // `self.format` reads the same value as `format`.
        if token(use - 1)?.is(".") == true, token(use - 2)?.is("self") == true,
            handlesNil(use, before: use - 2)
        {
            return true
        }
        return handlesNil(use, before: use)
    }

    /// `handlesNil` for the value at `use`, whose expression starts at `start`.
    func handlesNil(_ use: Int, before start: Int) -> Bool {
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
    func flowsIntoHandledLocal(_ use: Int) -> Bool {
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
    func isUnwrappedBinding(_ name: String, at position: Int) -> Bool {
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

    /// True when `name` is declared with `var`/`let` directly in a type's body.
    func isStoredProperty(_ name: String) -> Bool {
        tokens.indices.contains { index in
            (tokens[index].is("var") || tokens[index].is("let")) && token(index + 1)?.text == name
                && structure.enclosingBlocks(of: index).last.map {
                    if case .type = $0.kind { return true } else { return false }
                } == true
        }
    }

    /// The stored property a statement `property = value` (or `self.property = value`) assigns, when
    /// `value` is the whole right-hand side at `use`.
    func propertyAssigned(from use: Int) -> String? {
        guard token(use - 1)?.is("=") == true, let target = token(use - 2), target.kind == .identifier,
            isStoredProperty(target.text)
        else { return nil }
        let next = token(use + 1)
        guard next == nil || next!.location.line > tokens[use].location.line || next!.is(";") || next!.is("}") else {
            return nil
        }
        return target.text
    }

    /// Every place `property` is read: uses that are not its declaration or an assignment to it.
    func propertyReads(_ property: String) -> [Int] {
        tokens.indices.filter { index in
            guard tokens[index].kind == .identifier, tokens[index].text == property else { return false }
            if token(index + 1)?.is("=") == true { return false }
            if let before = token(index - 1), before.is("var") || before.is("let") {
                // `guard let property` / `if let property` (shorthand) reads it; a declaration does not.
                return token(index - 2).map { $0.is("if") || $0.is("guard") || $0.is(",") } == true
            }
            return true
        }
    }

    // MARK: result tasks

    mutating func untrackedResultTasks() {
        for index in tokens.indices where tokens[index].is("Task") {
            var cursor = index + 1
            if matches(cursor, [".", "detached"]) { cursor += 2 }
            if token(cursor)?.is("(") == true { cursor = (structure.partner[cursor] ?? cursor) + 1 }
            guard token(cursor)?.is("{") == true, let close = structure.partner[cursor] else { continue }
            let body = (cursor + 1)..<close
            let consumesResults = body.contains { matches($0, [".", "results"]) }
            guard consumesResults else { continue }
            let start = structure.statementStart(of: index)
            let discarded = start == index || matches(start, ["_", "="])
            if discarded {
                report(.untrackedResultTask, at: tokens[index].location, "Task { … .results … } is not stored")
            }
        }
    }

    // MARK: locales

    mutating func exactLocaleMatch() {
        let lists: Set<String> = ["supportedLocales", "installedLocales"]
        // Names bound to a locale list or to its identifiers:
        // `let all = await SpeechTranscriber.supportedLocales`,
        // `let ids = await Set(SpeechTranscriber.installedLocales.map { $0.identifier(.bcp47) })`.
        var bound: Set<String> = []
        let view = self
        // `SpeechTranscriber.supportedLocales`, not an app's own `Self.supportedLocales`.
        let isTranscriberList = { (index: Int) in
            lists.contains(view.tokens[index].text) && view.token(index - 1)?.is(".") == true
                && ["SpeechTranscriber", "DictationTranscriber"].contains(view.token(index - 2)?.text ?? "")
        }
        for index in tokens.indices where isTranscriberList(index) {
            if let name = assignedName(at: index) { bound.insert(name) }
        }
        // The list a `.contains` at `dot` is called on: a bound name, the qualified list itself, or
        // a parenthesised expression holding it (`(await SpeechTranscriber.installedLocales)`).
        let listReceiver = { (dot: Int) -> String? in
            var index = dot - 1
            while let mark = view.token(index), mark.is("?") || mark.is("!") { index -= 1 }
            guard let token = view.token(index) else { return nil }
            if token.kind == .identifier {
                return bound.contains(token.text) || isTranscriberList(index) ? token.text : nil
            }
            guard token.is(")"), let open = view.structure.partner[index], open < index,
                let list = ((open + 1)..<index).first(where: isTranscriberList)
            else { return nil }
            return "(\(view.tokens[list].text))"
        }
        // Names this file binds from `supportedLocale(equivalentTo:)`: already the usable equivalent.
        let resolved = Set(
            tokens.indices.filter { tokens[$0].is("supportedLocale") && matches($0 + 1, ["(", "equivalentTo"]) }
                .compactMap(assignedName(at:)))
        // `supported.contains(where: { $0.identifier(.bcp47) == locale.identifier(.bcp47) })` and
        // `installed.contains { $0 == locale }`: exact, unless the other side is a constant or resolved.
        for index in tokens.indices
        where matches(index, [".", "contains", "(", "where", ":", "{"]) || matches(index, [".", "contains", "{"]) {
            let open = tokens[index + 2].is("{") ? index + 2 : index + 5
            guard let receiver = listReceiver(index), let close = structure.partner[open],
                let equals = ((open + 1)..<close).first(where: { tokens[$0].is("==") })
            else { continue }
            // The element is `$0`, or the closure's one parameter (`{ candidate in … }`).
            var left = open + 1
            var element = "$0"
            if token(open + 2)?.is("in") == true {
                element = tokens[open + 1].text
                left = open + 3
            }
            let other = tokens[left].text == element ? equals + 1 : left
            let source = localeSource(at: other)
            if tokens[other].text == element || source?.safe == true { continue }
            report(
                .exactLocaleMatch, at: tokens[index + 1].location,
                "\(receiver).contains { … == … } compares locales or their identifiers exactly; \(Self.followed(source))"
            )
        }
        for index in tokens.indices
        where matches(index, [".", "contains", "("]) && !matches(index + 3, ["where", ":"]) {
            // The argument is one of the lists' own elements (`$0`), or a locale already resolved.
            if let close = structure.partner[index + 2], close > index + 3,
                let first = token(index + 3),
                first.is("$0") || resolved.contains(first.text) && token(index + 4)?.is(".") == true
                    || resolved.contains(first.text) && index + 4 == close
            {
                continue
            }
            let source = localeSource(at: index + 3)
            if source?.safe == true { continue }
            if let receiver = listReceiver(index) {
                report(
                    .exactLocaleMatch, at: tokens[index + 1].location,
                    "\(receiver).contains(…); \(Self.followed(source))")
                continue
            }
            // `supported.map { $0.identifier(.bcp47) }.contains(…)`: identifier strings compared exactly.
            guard let close = token(index - 1), close.is("}") || close.is(")"), let open = structure.partner[index - 1],
                matches(open - 2, [".", "map"]) || matches(open - 3, [".", "map", "("]) && close.is("}"),
                ((open + 1)..<(index - 1)).contains(where: { tokens[$0].is("identifier") })
            else { continue }
            let dot = tokens[open - 1].is("map") ? open - 2 : open - 3
            guard let receiver = listReceiver(dot) else { continue }
            report(
                .exactLocaleMatch, at: tokens[index + 1].location,
                "\(receiver).map { $0.identifier(…) }.contains(…) compares identifier strings exactly; \(Self.followed(source))"
            )
        }
    }

    /// What a finding says of the compared locale's source.
    static func followed(_ source: (safe: Bool, trail: String)?) -> String {
        source.map { "followed: \($0.trail)" } ?? "followed: where the locale comes from is not evident in the files"
    }

    /// Where the locale written at `argument` comes from, when that can be told: a constant
    /// (`Locale.ja`, `Self.locale`, `Locale(identifier: "ja_JP")`), which an exact comparison
    /// matches as written, or a value the caller passes for a parameter, followed through every call
    /// of the function in the run (three calls deep). `safe` when every source is a constant or a
    /// locale `supportedLocale(equivalentTo:)` resolved.
    func localeSource(at argument: Int, depth: Int = 0) -> (safe: Bool, trail: String)? {
        // A type's static member: a constant the code wrote.
        if Self.isConstantLocale(tokens, at: argument) { return (true, "a constant") }
        guard let name = token(argument), name.kind == .identifier else { return nil }
        // A stored property initialised with a constant and never assigned again.
        if structure.enclosingTypeName(of: argument) != nil, isConstantProperty(name.text) {
            return (true, "a constant property")
        }
        guard let function = structure.enclosingFunction(of: argument), let run, depth < 3 else { return nil }
        // Bound in the function from what `supportedLocale(equivalentTo:)` returned.
        let resolvedHere = (function.body.lowerBound..<argument).contains { index in
            tokens[index].text == name.text
                && (token(index - 1)?.is("let") == true || token(index - 1)?.is("var") == true)
                && (index..<min(argument, index + 12)).contains {
                    tokens[$0].is("supportedLocale") && matches($0 + 1, ["(", "equivalentTo"])
                }
        }
        if resolvedHere { return (true, "resolved by supportedLocale(equivalentTo:)") }
        // A local: every value it is given (`var chosen = locale`, `chosen = fallback`, `for
        // fallback in Self.fallbacks`) must be safe.
        let body = function.body.lowerBound..<argument
        let values = body.compactMap { index -> Int? in
            guard tokens[index].text == name.text, token(index + 1)?.is("=") == true, token(index + 2)?.is("=") != true
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
        let label = token(parameter - 1).map { $0.kind == .identifier ? $0.text : name.text } ?? name.text
        var sawCall = false
        for (number, unit) in run.units.enumerated() {
            let other = number == unitIndex ? self : run.context(number, project: project)
            for site in unit.structure.tokens.indices
            where unit.structure.tokens[site].text == function.name && other.matches(site + 1, ["("])
                && other.token(site - 1)?.is("func") != true
            {
                guard let close = unit.structure.partner[site + 1],
                    let labelled = ((site + 2)..<close).first(where: {
                        other.tokens[$0].text == label && other.token($0 + 1)?.is(":") == true
                    })
                else { continue }
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
        return sawCall ? (true, "every caller passes a constant") : nil
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

    /// `Locale.ja`, `Self.locale`, `SpokenWordTranscriber.locale`, `Locale(identifier: "ja_JP")`:
    /// a locale written in the code, not the user's (`Locale.current`, `.autoupdatingCurrent`).
    static func isConstantLocale(_ tokens: [SwiftToken], at index: Int) -> Bool {
        guard index + 2 < tokens.count, tokens[index].kind == .identifier else { return false }
        let first = tokens[index].text
        guard first == "Self" || ProjectIndex.isTypeName(first) else { return false }
        if tokens[index + 1].is("."), tokens[index + 2].kind == .identifier {
            return !["current", "autoupdatingCurrent", "init"].contains(tokens[index + 2].text)
        }
        return first == "Locale" && tokens[index + 1].is("(") && index + 4 < tokens.count
            && tokens[index + 2].is("identifier") && tokens[index + 4].kind == .string
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

    // MARK: microphone capture

    mutating func usageDescriptions() {
        guard
            let capture = tokens.first(where: {
                $0.kind == .identifier
                    && ["AVAudioEngine", "installTap", "AVCaptureDevice", "requestRecordPermission"].contains($0.text)
            })
        else {
            return
        }
        // Speech recognition permission is the legacy recogniser's (it may send audio to Apple's
        // servers); SpeechAnalyzer's modules run on the device and need only the microphone's.
        let legacy = (run?.units.map(\.structure.tokens) ?? [tokens]).contains { tokens in
            tokens.contains { $0.kind == .identifier && Self.legacyNames[$0.text] != nil }
        }
        let required = ["NSMicrophoneUsageDescription"] + (legacy ? ["NSSpeechRecognitionUsageDescription"] : [])
        guard project.usageRuleSkipReason == nil else { return }
        guard let keys = project.usageDescriptionKeys else {
            report(
                .missingUsageDescription, at: capture.location,
                "\(capture.text) used in an app target (\(project.appTarget ?? "?")), and no Info.plist declares \(required.joined(separator: " and "))"
            )
            return
        }
        let missing = required.filter { !keys.contains($0) }
        if !missing.isEmpty {
            report(
                .missingUsageDescription, at: capture.location,
                "\(capture.text) used; Info.plist lacks \(missing.joined(separator: " and "))")
        }
    }
}

extension Substring {
    /// The line without its indentation and trailing blanks (a CR before the line end included).
    func trimmingSpaces() -> String {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" })
        else { return "" }
        return String(self[first...last])
    }
}
