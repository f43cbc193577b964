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
        public in a library), nor code that makes a SpeechAnalyzer itself beside the legacy one, nor a
        type nested inside such a type.
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
            let type = file.structure.enclosingTypeName(of: index) ?? file.declaringType(atHeader: index) ?? ""
            if byType[type] == nil { order.append(type) }
            byType[type, default: []].append((index, token.text))
        }
        for type in order {
            let uses = byType[type]!
            // Code that runs SpeechAnalyzer itself beside the legacy API is comparing or choosing.
            if file.usesAnalyzer(in: type) { continue }
            if !type.isEmpty, file.analyzerAlternative(to: type) != nil { continue }
            // A type nested in one kept as an alternative, or in one that runs SpeechAnalyzer itself,
            // is part of it (a recogniser's delegate declared inside the legacy engine).
            let outer = file.structure.enclosingBlocks(of: uses[0].index).dropLast().compactMap { block -> String? in
                if case .type(let name) = block.kind { return name } else { return nil }
            }
            if outer.contains(where: { file.usesAnalyzer(in: $0) || file.analyzerAlternative(to: $0) != nil }) {
                continue
            }
            var names: [String] = []
            for use in uses where !names.contains(use.name) { names.append(use.name) }
            let listed = names.map { "\($0) → \(Self.legacyNames[$0]!)" }.joined(separator: "; ")
            let owner = type.isEmpty ? "code outside any type" : type
            findings.append(file.finding(Self.self, at: file.tokens[uses[0].index].location, "\(owner) uses \(listed)"))
        }
        return findings
    }
}

extension LintedFile {
    /// The type whose declaration (`final class Live: NSObject, SFSpeechRecognizerDelegate {`)
    /// holds `index` before its body.
    fileprivate func declaringType(atHeader index: Int) -> String? {
        for block in structure.blocks where block.open > index {
            guard case .type(let name) = block.kind else { continue }
            if structure.statementStart(of: block.open) <= index { return name }
        }
        return nil
    }

    /// Whether the type's body (in any file), or for "" this file's code outside types, makes a
    /// SpeechAnalyzer or one of its modules.
    fileprivate func usesAnalyzer(in type: String) -> Bool {
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
        let units = run.map { run in
            run.units.filter { $0.mentions(type) && $0.mentions(any: ["SpeechAnalyzer", "Transcriber"]) }.map(
                \.structure)
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
        for unit in run.units where unit.mentions(any: [type, "SpeechAnalyzer", "SpeechTranscriber"]) {
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

    /// Whether a type of the run is declared `public` or `open`.
    fileprivate func isPublicType(_ name: String) -> Bool {
        run?.units.contains { unit in
            unit.mentions(name)
                && unit.structure.blocks.contains { block in
                    guard block.kind == .type(name: name) else { return false }
                    let start = unit.structure.statementStart(of: block.open)
                    return (start..<block.open).contains {
                        unit.structure.tokens[$0].is("public") || unit.structure.tokens[$0].is("open")
                    }
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
}
