/// SpeechTranscriber preset names of the first beta, with their shipped replacements as fixes.
struct BetaPresetRule: LintRule {
    static let id = "beta-preset"
    static let triggers: [[String]] = [["offlineTranscription", "progressiveLiveTranscription"]]
    static let summary = "uses a SpeechTranscriber preset name from the beta SDK that did not ship"
    static let hint =
        "the shipped presets are `.transcription`, `.transcriptionWithAlternatives`, `.timeIndexedTranscriptionWithAlternatives`, `.progressiveTranscription` and `.timeIndexedProgressiveTranscription`"
    static let explanation = """
        The first beta's presets `.offlineTranscription` and `.progressiveLiveTranscription` became
        `.transcription` and `.progressiveTranscription`; code with the beta names does not compile
        against the shipped SDK (Apple's own overview in the interface still shows the first). Reported
        where the name is a preset: in a `preset:` argument (also as a branch of `? :`) or after
        `Preset.`, in a file that sees Speech, unless the project declares a member of that name itself. Each finding carries the replacement as a fix.
        """

    /// The first beta's preset names and the shipped ones.
    static let betaPresets = [
        "offlineTranscription": "transcription", "progressiveLiveTranscription": "progressiveTranscription",
    ]

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        guard file.importsSpeech || file.run?.reexportsSpeech == true else { return [] }
        for index in file.tokens.indices
        where file.tokens[index].kind == .identifier && file.token(index - 1)?.is(".") == true {
            guard let shipped = Self.betaPresets[file.tokens[index].text] else { continue }
            guard file.inPresetArgument(index) || file.token(index - 2)?.is("Preset") == true,
                !file.projectDeclaresMember(file.tokens[index].text)
            else { continue }
            let name = file.tokens[index]
            findings.append(
                file.finding(
                    Self.self, at: name.location, ".\(name.text) → .\(shipped)",
                    fix: LintFix(
                        start: name.location.column, end: name.location.column + name.text.count, replacement: shipped))
            )
        }
        return findings
    }
}

extension LintedFile {
    /// Whether the token at `index` is inside the value of a `preset:` argument: `preset: .a`, or
    /// `preset: live ? .a : .b`.
    fileprivate func inPresetArgument(_ index: Int) -> Bool {
        var cursor = index - 1
        var depth = 0
        while cursor > 0 {
            let token = tokens[cursor]
            if token.is(")") || token.is("]") || token.is("}") {
                depth += 1
            } else if token.is("(") || token.is("[") || token.is("{") {
                if depth == 0 { return false }
                depth -= 1
            } else if depth == 0, token.is(",") {
                return false
            } else if depth == 0, token.is(":"), tokens[cursor - 1].is("preset"),
                let before = self.token(cursor - 2), before.is("(") || before.is(",")
            {
                return true
            }
            cursor -= 1
        }
        return false
    }

    /// Whether a file of the run declares a member called `name` (`case`, `let`, `var`, `func`).
    fileprivate func projectDeclaresMember(_ name: String) -> Bool {
        return runTokens(mentioning: [name]).contains { tokens in
            tokens.indices.dropFirst().contains {
                tokens[$0].text == name && tokens[$0].kind == .identifier
                    && ["case", "let", "var", "func"].contains(tokens[$0 - 1].text)
            }
        }
    }
}
