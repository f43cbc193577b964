/// SpeechTranscriber preset names of the first beta, with their shipped replacements as fixes.
struct BetaPresetRule: LintRule {
    static let id = "beta-preset"
    static let summary = "uses a SpeechTranscriber preset name from the beta SDK that did not ship"
    static let hint =
        "the shipped presets are `.transcription`, `.transcriptionWithAlternatives`, `.timeIndexedTranscriptionWithAlternatives`, `.progressiveTranscription` and `.timeIndexedProgressiveTranscription`"
    static let explanation = """
        The first beta's presets `.offlineTranscription` and `.progressiveLiveTranscription` became
        `.transcription` and `.progressiveTranscription`; code with the beta names does not compile
        against the shipped SDK (Apple's own overview in the interface still shows the first). Reported
        where the name is a preset: after `preset:` or `Preset.`, in a file that sees Speech, unless
        the project declares a member of that name itself. Each finding carries the replacement as a fix.
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
            let afterLabel = file.token(index - 2)?.is(":") == true && file.token(index - 3)?.is("preset") == true
            guard afterLabel || file.token(index - 2)?.is("Preset") == true,
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
    /// Whether a file of the run declares a member called `name` (`case`, `let`, `var`, `func`).
    fileprivate func projectDeclaresMember(_ name: String) -> Bool {
        let units = run.map { $0.units.map(\.structure.tokens) } ?? [tokens]
        return units.contains { tokens in
            tokens.indices.dropFirst().contains {
                tokens[$0].text == name && tokens[$0].kind == .identifier
                    && ["case", "let", "var", "func"].contains(tokens[$0 - 1].text)
            }
        }
    }
}
