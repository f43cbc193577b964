import Foundation
import MigrationLint
import Testing

/// legacy-api: the rule's findings and the shapes it must stay quiet on.
extension MigrationLinterTests {
    @Test func legacyNamesAreFoundButAuthorizationAndFallbacksAreNot() {
        let source = """
            let recognizer = SFSpeechRecognizer(locale: locale)
            let request = SFSpeechAudioBufferRecognitionRequest()
            SFSpeechRecognizer.requestAuthorization { _ in }
            if #available(iOS 26, *) {
                useAnalyzer()
            } else {
                let fallback = SFSpeechRecognizer(locale: locale)
            }
            """
        let findings = MigrationLinter.lint(source: source, file: "Legacy.swift", project: Self.plist)
        // Code outside any type is one finding per file, naming each legacy name once.
        #expect(findings.map(\.rule.id) == ["legacy-api"])
        #expect(findings.map(\.location) == [SourceLocation(line: 1, column: 18)])
        #expect(
            findings.first?.detail.hasPrefix("code outside any type uses SFSpeechRecognizer → ") == true
                && findings.first?.detail.contains("; SFSpeechAudioBufferRecognitionRequest → ") == true)
        // A script that runs SpeechAnalyzer beside the legacy recogniser compares them.
        #expect(
            MigrationLinter.lint(
                source: source + "\nlet analyzer = SpeechAnalyzer(modules: [])", file: "Compare.swift",
                project: Self.plist
            ).isEmpty)
        #expect(findings[0].description.hasPrefix("Legacy.swift:1:18: warning: [legacy-api]"))
    }

    /// A type using the legacy API is one finding naming every legacy name it uses, unless it is a
    /// deliberate alternative to a SpeechAnalyzer-based type: a shared protocol, or both named side
    /// by side in one body (public apps that let the user pick an engine).
    @Test func legacyTypesAreOneFindingAndAlternativesNone() {
        let old = """
            final class OldEngine: Transcribing {
                let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en_US"))
                var request: SFSpeechAudioBufferRecognitionRequest?
                var task: SFSpeechRecognitionTask?
            }
            """
        let new = """
            final class NewEngine: Transcribing {
                let analyzer = SpeechAnalyzer(modules: [])
            }
            """
        let alone = MigrationLinter.lint(source: old, file: "Old.swift", project: Self.plist)
        #expect(alone.map(\.rule.id) == ["legacy-api"])
        #expect(alone.first?.detail.hasPrefix("OldEngine uses SFSpeechRecognizer → ") == true)
        #expect(alone.first?.detail.contains("SFSpeechAudioBufferRecognitionRequest → ") == true)
        let files = { (extra: String) in
            MigrationLinter.lint(
                [LintSource(file: "Old.swift", text: old), LintSource(file: "New.swift", text: new + extra)],
                project: Self.plist
            ).filter { $0.rule.id == "legacy-api" }
        }
        #expect(files("").isEmpty)
        let unrelated = { (source: String) in source.replacingOccurrences(of: ": Transcribing", with: "") }
        #expect(
            MigrationLinter.lint(
                [
                    LintSource(file: "Old.swift", text: unrelated(old)),
                    LintSource(file: "New.swift", text: unrelated(new)),
                ],
                project: Self.plist
            ).filter { $0.rule.id == "legacy-api" }.count == 1)
        let sideBySide = "\nstruct Picker { let a = NewEngine(); let b = OldEngine() }"
        #expect(
            MigrationLinter.lint(
                [
                    LintSource(file: "Old.swift", text: unrelated(old)),
                    LintSource(file: "New.swift", text: unrelated(new) + sideBySide),
                ], project: Self.plist
            ).filter { $0.rule.id == "legacy-api" }.isEmpty)
    }

    /// A library that offers both a legacy and a SpeechAnalyzer-based public type.
    @Test func aLibraryOfferingBothIsNotALeftover() {
        let legacy = "public final class OldManager { let r = SFSpeechRecognizer() }"
        let modern = "public final class NewManager { let a = SpeechAnalyzer(modules: []) }"
        let run = { (modern: String) in
            MigrationLinter.lint(
                [LintSource(file: "Old.swift", text: legacy), LintSource(file: "New.swift", text: modern)],
                project: Self.plist
            ).map(\.rule.id)
        }
        #expect(run(modern).isEmpty)
        #expect(run(modern.replacingOccurrences(of: "public ", with: "")) == ["legacy-api"])
    }
}
