/// Legacy recogniser types still on the main path of a migrated app.
struct LegacyAPIRule: LintRule {
    static let id = "legacy-api"
    static let triggers: [[String]] = [["SFSpeech", "SFTranscription"]]
    static let summary = "uses the SFSpeechRecognizer API"
    static let hint =
        "use SpeechTranscriber with SpeechAnalyzer; keep the legacy API only behind an `if #available` fallback"
    static let explanation = """
        Names of the SFSpeechRecognizer family outside an availability fallback, one finding per type
        (per file for code outside types). The legacy API keeps working, but a migration is not done
        while it is still the main path. Calls for authorization (requestAuthorization,
        authorizationStatus) are not reported, nor is code that runs only where an availability check
        failed, read as Swift's control flow: the else branch of `if #available`, under
        `if #unavailable`, the else of `guard #available`, and what follows an
        `if #available(…), … { …; return }` whose branch always leaves. Nor a type kept as an
        alternative to a SpeechAnalyzer-based one (a shared protocol, both named in one body, both
        public in a library), nor a type that only probes SFSpeechRecognizer (no request, no task)
        beside SpeechTranscriber or a type built on it (a status report on both engines), nor code
        that makes a SpeechAnalyzer itself beside the legacy one, nor a type nested inside such a
        type, nor a helper that only such types use. Test code (a file that imports XCTest or
        Testing, or sits in a folder named `Tests` or `…Tests`) checks the legacy path's contract and
        is not reported. A type the project declares under one of the framework's names
        (`final class SpeechTranscriber`) is the project's, not SpeechAnalyzer.
        """

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

    static func check(_ file: LintedFile) -> [LintFinding] {
        if file.isTestCode { return [] }
        var findings: [LintFinding] = []
        var byType: [String: [(index: Int, name: String)]] = [:]
        var order: [String] = []
        for (index, token) in file.tokens.enumerated() where token.kind == .identifier {
            guard Self.legacyNames[token.text] != nil else { continue }
            // Authorization still goes through SFSpeechRecognizer.
            if token.text == "SFSpeechRecognizer", file.matches(index + 1, ["."]),
                let member = file.token(index + 2),
                ["requestAuthorization", "authorizationStatus"].contains(member.text)
            {
                continue
            }
            if file.token(index - 1)?.is(".") == true { continue }
            // `extension SFSpeechRecognizer { … }` adds to the type; what it holds is judged on its own.
            if file.token(index - 1)?.is("extension") == true { continue }
            if file.isDeliberateFallback(index) { continue }
            // Code outside any type is grouped by file (scripts, `main.swift`).
            let type = file.structure.enclosingTypeName(of: index) ?? file.structure.typeDeclared(atHeader: index) ?? ""
            if byType[type] == nil { order.append(type) }
            byType[type, default: []].append((index, token.text))
        }
        for type in order {
            let uses = byType[type]!
            // The type tries the new path and falls back: every use runs only when it is
            // unavailable or failed, or is a stored property holding what that fallback makes.
            let fallbacks = uses.filter { file.isFallbackPath($0.index) }
            if !fallbacks.isEmpty,
                uses.allSatisfy({ use in
                    fallbacks.contains { $0.index == use.index } || file.isStoredPropertyType(use.index)
                })
            {
                continue
            }
            // Code that runs SpeechAnalyzer itself beside the legacy API is comparing or choosing.
            if file.usesAnalyzer(in: type) { continue }
            if !type.isEmpty, file.analyzerAlternative(to: type) != nil { continue }
            if !type.isEmpty, file.servesOnlyAnalyzerSides(type) { continue }
            var names: [String] = []
            for use in uses where !names.contains(use.name) { names.append(use.name) }
            if !type.isEmpty, file.probesBesideAnalyzer(type, legacyNames: names) { continue }
            // A type nested in one kept as an alternative, or in one that runs SpeechAnalyzer itself,
            // is part of it (a recogniser's delegate declared inside the legacy engine).
            let outer = file.structure.enclosingBlocks(of: uses[0].index).dropLast().compactMap { block -> String? in
                if case .type(let name) = block.kind { return name } else { return nil }
            }
            if outer.contains(where: { file.usesAnalyzer(in: $0) || file.analyzerAlternative(to: $0) != nil }) {
                continue
            }
            let listed = names.map { "\($0) → \(Self.legacyNames[$0]!)" }.joined(separator: "; ")
            let owner = type.isEmpty ? "code outside any type" : type
            findings.append(file.finding(Self.self, at: file.tokens[uses[0].index].location, "\(owner) uses \(listed)"))
        }
        return findings
    }
}

extension LintedFile {
    /// Whether the type's body (in any file), or for "" this file's code outside types, makes a
    /// SpeechAnalyzer or one of its modules.
    fileprivate func usesAnalyzer(in type: String) -> Bool {
        let names = frameworkAnalyzerNames
        let makesAnalyzer = { (structure: SourceStructure, range: Range<Int>) in
            range.contains { index in
                let token = structure.tokens[index]
                return names.contains(token.text) && token.kind == .identifier
                    && index + 1 < structure.tokens.count
                    && (structure.tokens[index + 1].is("(") || structure.tokens[index + 1].is("."))
            }
        }
        guard !type.isEmpty else {
            return tokens.indices.contains {
                makesAnalyzer(structure, $0..<($0 + 1)) && structure.enclosingTypeName(of: $0) == nil
            }
        }
        let units = run.map { run in
            run.units.filter { $0.mentions(type) && $0.mentions(any: names) }.map(\.structure)
        }
        return (units ?? [structure]).contains { structure in
            structure.blocks.contains {
                $0.kind == .type(name: type) && makesAnalyzer(structure, ($0.open + 1)..<$0.close)
            }
        }
    }

    /// The SpeechAnalyzer-based type that `type` stands beside as an alternative, if any.
    fileprivate func analyzerAlternative(to type: String) -> String? {
        guard let run else { return nil }
        var analyzerTypes: [String: Set<String>] = [:]  // name → its conformances
        var legacyConformances: Set<String> = []
        let names = frameworkAnalyzerNames.filter { $0 != "DictationTranscriber" }
        for unit in run.units where unit.mentions(any: [type] + names) {
            let structure = unit.structure
            for block in structure.blocks {
                guard case .type(let name) = block.kind else { continue }
                let body = (block.open + 1)..<block.close
                let conformances = Self.conformances(structure, of: block)
                if name == type {
                    legacyConformances.formUnion(conformances)
                } else if body.contains(where: {
                    structure.tokens[$0].kind == .identifier && names.contains(structure.tokens[$0].text)
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
        for unit in run.units where unit.mentions(type) {
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

    /// Whether `type` only probes the legacy recogniser (makes an `SFSpeechRecognizer` and reads
    /// it, never a request or a task) and its body names SpeechTranscriber or a type built on
    /// SpeechAnalyzer: a capability or status report on both engines, not a recognition path.
    fileprivate func probesBesideAnalyzer(_ type: String, legacyNames: [String]) -> Bool {
        guard let run, legacyNames == ["SFSpeechRecognizer"] else { return false }
        let analyzerNames = frameworkAnalyzerNames
        var bodies: [Set<String>] = []
        for (_, unit) in run.units(mentioning: type) {
            let structure = unit.structure
            for block in structure.blocks where block.kind == .type(name: type) {
                bodies.append(Set(((block.open + 1)..<block.close).map { structure.tokens[$0].text }))
            }
        }
        let names = bodies.reduce(into: Set<String>()) { $0.formUnion($1) }
        guard !names.contains("recognitionTask") else { return false }
        if names.contains(where: analyzerNames.contains) { return true }
        // A type of the run whose body names the framework's analyzer or transcriber.
        for candidate in names where candidate != type && candidate.first?.isUppercase == true {
            for (_, unit) in run.units(mentioning: candidate) where unit.mentions(any: analyzerNames) {
                let structure = unit.structure
                for block in structure.blocks where block.kind == .type(name: candidate) {
                    if ((block.open + 1)..<block.close).contains(where: {
                        structure.tokens[$0].kind == .identifier && analyzerNames.contains(structure.tokens[$0].text)
                    }) {
                        return true
                    }
                }
            }
        }
        return false
    }

    /// SpeechAnalyzer and its transcribers, less any name the project declares a type of itself
    /// (an app's own `SpeechTranscriber` class wrapping SFSpeechRecognizer is not the framework's).
    fileprivate var frameworkAnalyzerNames: [String] {
        ["SpeechAnalyzer", "SpeechTranscriber", "DictationTranscriber"].filter { !declaresOwnType($0) }
    }

    /// Whether every other type that names `type` runs SpeechAnalyzer itself or stands beside it (or
    /// is nested in such a type, or is itself such a helper): a helper of the legacy side of a
    /// migrated app (its request factory, a snapshot of its results), not a path of its own. Uses in
    /// test code do not count; a use outside any type, or no use at all, settles nothing.
    fileprivate func servesOnlyAnalyzerSides(_ type: String, visiting: Set<String> = []) -> Bool {
        guard let run, !visiting.contains(type), visiting.count < 4 else { return false }
        let declarers: Set<String> = ["struct", "class", "enum", "actor", "protocol", "extension", "typealias"]
        var users: [[String]] = []
        for (_, unit) in run.units(mentioning: type) {
            let structure = unit.structure
            let tokens = structure.tokens
            for index in tokens.indices where tokens[index].kind == .identifier && tokens[index].text == type {
                if index > 0, declarers.contains(tokens[index - 1].text) { continue }
                var enclosing = structure.enclosingBlocks(of: index).compactMap { block -> String? in
                    if case .type(let name) = block.kind { return name } else { return nil }
                }
                if enclosing.contains(type) { continue }
                // A conformance or generic constraint in a declaration's header is a use by that type.
                if let name = structure.typeDeclared(atHeader: index) {
                    if name == type { continue }
                    enclosing.append(name)
                }
                if unit.isTestCode { continue }
                guard !enclosing.isEmpty else { return false }
                users.append(enclosing)
            }
        }
        guard !users.isEmpty else { return false }
        var judged: [String: Bool] = [:]
        let besideAnalyzer = { (name: String) -> Bool in
            if let known = judged[name] { return known }
            let answer =
                self.usesAnalyzer(in: name) || self.analyzerAlternative(to: name) != nil
                || self.servesOnlyAnalyzerSides(name, visiting: visiting.union([type]))
            judged[name] = answer
            return answer
        }
        return users.allSatisfy { $0.contains(where: besideAnalyzer) }
    }

    /// Whether a type of the run is declared `public` or `open`.
    fileprivate func isPublicType(_ name: String) -> Bool {
        run?.units.contains { unit in
            unit.mentions(name)
                && unit.structure.blocks.contains {
                    $0.kind == .type(name: name) && unit.structure.declaration(of: $0, has: ["public", "open"])
                }
        } ?? false
    }

    /// The names after `:` in a type's declaration (`final class A: B, C {`).
    fileprivate static func conformances(_ structure: SourceStructure, of block: SourceStructure.Block) -> Set<String> {
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

    /// Where the code runs only when an availability check failed: the `else` of `if #available(…)`,
    /// under `if #unavailable(…)`, the `else` of `guard #available`, or after an
    /// `if #available(…) { …; return }` (read as Swift's control flow).
    fileprivate func isDeliberateFallback(_ index: Int) -> Bool {
        structure.isAvailabilityFallback(index)
    }

    /// Whether `index` runs only when the new path is unavailable or failed: an availability
    /// fallback, a `catch` inside an `#available` (or `@available`) region that holds (the new
    /// path was tried there and threw), or a private function every call of which is in such a
    /// place (a private function can be called from this file alone).
    fileprivate func isFallbackPath(_ index: Int, depth: Int = 0) -> Bool {
        if structure.isAvailabilityFallback(index) { return true }
        if structure.enclosingBlocks(of: index).contains(where: { block in
            if case .catchClause = block.kind {
                return structure.availableVersions(at: block.open).contains { region in
                    region.platforms.values.contains { (Int($0.split(separator: ".").first ?? "") ?? 0) >= 26 }
                }
            }
            return false
        }) {
            return true
        }
        guard depth < 3, let function = structure.enclosingFunction(of: index),
            let block = structure.block(enclosing: function.body),
            structure.declaration(of: block, has: ["private", "fileprivate"])
        else { return false }
        let type = structure.enclosingTypeName(of: index)
        let calls = tokens.indices.filter { position in
            tokens[position].kind == .identifier && tokens[position].text == function.name
                && isOwnCall(at: position) && !function.body.contains(position)
                && structure.enclosingTypeName(of: position) == type
        }
        return !calls.isEmpty && calls.allSatisfy { isFallbackPath($0, depth: depth + 1) }
    }

    /// A stored property's type annotation at `index` (`private var task: SFSpeechRecognitionTask?`
    /// directly in a type's body): it holds what the type's code makes, and says nothing of the path.
    fileprivate func isStoredPropertyType(_ index: Int) -> Bool {
        guard let last = structure.enclosingBlocks(of: index).last, case .type = last.kind else { return false }
        let start = structure.statementStart(of: index)
        return (tokens[start].is("var") || tokens[start].is("let") || isModifier(tokens[start]))
            && (start..<index).contains { tokens[$0].is(":") }
            && !(start..<index).contains { tokens[$0].is("=") }
    }

    private func isModifier(_ token: SwiftToken) -> Bool {
        ["private", "fileprivate", "internal", "public", "weak", "lazy", "static", "nonisolated"].contains(token.text)
            || token.kind == .attribute
    }
}
