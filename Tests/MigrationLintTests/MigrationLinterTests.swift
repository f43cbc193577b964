import Foundation
import MigrationLint
import Testing

/// Each rule on a small program that makes the mistake, and silence on code that follows the
/// corrected guidance.
@Suite("Migration lint rules")
struct MigrationLinterTests {
    static let plist = ProjectContext(usageDescriptionKeys: [
        "NSMicrophoneUsageDescription", "NSSpeechRecognitionUsageDescription",
    ])

    static func rules(_ source: String, project: ProjectContext = plist) -> [String] {
        MigrationLinter.lint(source: source, file: "T.swift", project: project).map(\.rule.id)
    }

    @Test func nothingInCommentsOrStringText() {
        let source = #"""
            // try await transcriber.allocate(locale: locale)
            /* for try await p in request.progress { } SFSpeechRecognizer */
            let note = "call allocate(locale:) and read result.transcription of SpeechTranscriptionResult"
            let raw = #"Task { for try await r in transcriber.results { } }"#
            let block = """
                inputContinuation?.finish()
                AssetInventory.release(reservedLocale: locale)
                """
            """#
        #expect(Self.rules(source).isEmpty)
    }

    @Test func draftAPIsThatNeverShipped() {
        let source = #"""
            import Speech
            try await transcriber.allocate(locale: locale)
            func show(_ result: SpeechTranscriptionResult) { print("final: \(result.transcription)") }
            let plain = String(result.text.characters)
            """#
        #expect(Self.rules(source) == ["allocate-locale", "nonexistent-result-type", "result-transcription"])
    }

    /// A rule about Apple's names applies where they are Apple's: in a file that sees Speech, and
    /// not to a type the project declares itself (an app's own `SpeechTranscriptionResult`).
    @Test func appleNamesOnlyWhereTheyResolveToApples() {
        let use = #"func show(_ result: SpeechTranscriptionResult) { print(result.transcription) }"#
        #expect(Self.rules(use).isEmpty, "no import of Speech: not Apple's name")
        #expect(Self.rules("import Speech\n" + use) == ["nonexistent-result-type", "result-transcription"])
        #expect(
            Self.rules("@preconcurrency import Speech\n" + use) == ["nonexistent-result-type", "result-transcription"])
        let own = LintSource(file: "Model.swift", text: "struct SpeechTranscriptionResult { var transcription = \"\" }")
        let user = LintSource(file: "View.swift", text: "import Speech\n" + use)
        #expect(MigrationLinter.lint([own, user], project: Self.plist).isEmpty, "the project's own type")
        let reexport = LintSource(file: "Exports.swift", text: "@_exported import Speech")
        let plain = LintSource(file: "View.swift", text: use)
        #expect(
            MigrationLinter.lint([reexport, plain], project: Self.plist).map(\.rule.id)
                == ["nonexistent-result-type", "result-transcription"], "the module re-exports Speech")
    }

    /// Only a transcriber's results lack `.transcription`; an app's own models may well have one
    /// (two public voice-memo apps read `memo.transcription` dozens of times).
    @Test func transcriptionIsReportedOnResultsOnly() {
        let source = """
            func run(_ transcriber: SpeechTranscriber, memo: Memo) async throws {
                print(memo.transcription, response.transcription)
                for try await case let result in transcriber.results { print(result.transcription) }
            }
            func show(_ r: SpeechTranscriber.Result) { print(r.transcription) }
            """
        let found = MigrationLinter.lint(source: source, file: "R.swift", project: Self.plist)
        #expect(found.map(\.detail) == ["result.transcription", "r.transcription"])
    }

    @Test func progressIsNotAnAsyncSequence() {
        let bad = "Task { for try await step in request.progress { print(step) } }"
        let good = "let fraction = request.progress.fractionCompleted\nfor try await result in transcriber.results { }"
        #expect(Self.rules(bad) == ["progress-async-iteration"])
        #expect(!Self.rules(good).contains("progress-async-iteration"))
    }

    @Test func releasingOnlyWhatThisCodeReserved() {
        let unowned = """
            func teardown() async {
                await AssetInventory.release(reservedLocale: locale)
            }
            """
        let owned = """
            func prepare() async throws {
                let created = try await AssetInventory.reserve(locale: locale)
                defer { if created { Task { await AssetInventory.release(reservedLocale: locale) } } }
            }
            final class Owner {
                var ownsReservation = false
                func start() async throws { ownsReservation = try await AssetInventory.reserve(locale: locale) }
                func stop() async {
                    guard ownsReservation else { return }
                    await AssetInventory.release(reservedLocale: locale)
                }
            }
            """
        #expect(Self.rules(unowned) == ["unowned-reservation-release"])
        #expect(Self.rules(owned).isEmpty)
    }

    @Test func resultTasksMustBeKept() {
        let bad = """
            import Speech

            func go() {
                Task {
                    for try await result in transcriber.results { show(result) }
                }
                _ = Task.detached { for try await r in transcriber.results { } }
            }
            """
        let good = """
            import Speech

            func go() {
                resultTask = Task { for try await result in transcriber.results { show(result) } }
                let other = Task { @MainActor in for try await r in transcriber.results { } }
                Task { await refreshUI() }
            }
            """
        #expect(Self.rules(bad) == ["untracked-result-task", "untracked-result-task"])
        #expect(Self.rules(good).isEmpty)
        // Without Speech in view, `.results` is some other API's.
        #expect(Self.rules(bad.replacingOccurrences(of: "import Speech", with: "import Vision")).isEmpty)
    }

    @Test func microphoneCaptureNeedsUsageDescriptions() {
        let source =
            "let engine = AVAudioEngine()\nengine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { _, _ in }"
        // An app target without the keys: found. No app target at all (a command-line tool, a
        // package): the rule does not apply, and says why.
        #expect(
            Self.rules(source, project: ProjectContext(appTarget: "App.xcodeproj")) == ["missing-usage-description"])
        #expect(Self.rules(source, project: ProjectContext()).isEmpty)
        #expect(ProjectContext().usageRuleSkipReason?.hasPrefix("no app target found") == true)
        #expect(ProjectContext(appTarget: "App/Info.plist", usageDescriptionKeys: []).usageRuleSkipReason == nil)
        // Speech recognition permission only where the legacy recogniser is used.
        let microphoneKey = ProjectContext(usageDescriptionKeys: ["NSMicrophoneUsageDescription"])
        #expect(MigrationLinter.lint(source: source, file: "M.swift", project: microphoneKey).isEmpty)
        let partial = MigrationLinter.lint(
            [
                LintSource(file: "M.swift", text: source),
                LintSource(
                    file: "Old.swift", text: "if #available(iOS 26, *) {} else { let r = SFSpeechRecognizer() }"),
            ], project: microphoneKey)
        #expect(partial.map(\.detail) == ["AVAudioEngine used; Info.plist lacks NSSpeechRecognitionUsageDescription"])
        let none = MigrationLinter.lint(
            source: source, file: "M.swift", project: ProjectContext(usageDescriptionKeys: []))
        #expect(none.map(\.detail) == ["AVAudioEngine used; Info.plist lacks NSMicrophoneUsageDescription"])
        #expect(Self.rules(source).isEmpty)
    }

    /// The deprecated tokenizer entry point, kept for code that called it, answers from the parser.
    @available(*, deprecated)
    @Test func theTokenizerAliasAnswersFromTheParser() {
        let source = "import Speech\nlet r = SFSpeechRecognizer() // not code: SpeechAnalyzer\n"
        let old = SwiftTokenizer.tokenize(source)
        #expect(old.tokens == ParsedSource(parsing: source).tokens)
        #expect(
            old.tokens.filter { $0.kind == .identifier }.map(\.text) == [
                "import", "Speech", "let", "r", "SFSpeechRecognizer",
            ])
        #expect(old.problems.isEmpty)
    }

    /// A syntax error is reported once per file, in the files the rules read: a file naming
    /// nothing the rules look for is not parsed, and the compiler reports its errors.
    @Test func syntaxErrorsAreFindingsWhereTheRulesRead() {
        #expect(Self.rules("import Speech\nlet s = \"never closed\n") == ["unreadable-source"])
        #expect(Self.rules("let s = \"never closed\nlet t = \"again\n") == [])
    }

    /// A whole live-transcription controller written the corrected way: no findings at all.
    @Test func correctedGuidanceIsClean() {
        #expect(MigrationLinter.lint(source: LintFixtures.corrected, file: "Live.swift", project: Self.plist) == [])
    }

    /// The same controller with the draft-era mistakes: each one found, on its line.
    @Test func draftControllerMistakesAreEachFound() {
        let found = MigrationLinter.lint(
            source: LintFixtures.draft, file: "Draft.swift", project: ProjectContext(appTarget: "an iOS app"))
        let byRule = Dictionary(grouping: found, by: \.rule.id).mapValues { $0.map(\.location.line) }
        #expect(byRule["allocate-locale"] == [12])
        #expect(byRule["unguarded-best-format"] == [14])
        #expect(byRule["untracked-result-task"] == [18])
        #expect(byRule["result-transcription"] == [20, 20])
        #expect(byRule["progress-async-iteration"] == [27])
        #expect(byRule["input-finish-without-analyzer-finish"] == [33])
        #expect(byRule["unowned-reservation-release"] == [35])
        #expect(byRule["missing-usage-description"] == [5])
        #expect(byRule["nonexistent-result-type"] == [38])
        #expect(byRule["exact-locale-match"] == [9])
        #expect(Set(byRule.keys).count == 10)
    }

    @Test func baselineAcceptsByFingerprintAndReportsStaleEntries() throws {
        let before = MigrationLinter.lint(
            source: "let r = await AssetInventory.allocatedLocales\nlet q = await AssetInventory.allocatedLocales",
            file: "A.swift")
        let baseline = try LintBaseline.decode(LintBaseline(findings: [before[0]]).encoded(), path: "b.json")
        // The accepted line moved down two lines; a new occurrence appeared.
        let after = MigrationLinter.lint(
            source: "\n\nlet r = await AssetInventory.allocatedLocales\nlet s = await AssetInventory.allocatedLocales",
            file: "A.swift")
        let split = baseline.apply(to: after)
        #expect(split.accepted.map(\.location.line) == [3])
        #expect(split.new.map(\.lineText) == ["let s = await AssetInventory.allocatedLocales"])
        #expect(split.stale.isEmpty)
        #expect(baseline.apply(to: []).stale.count == 1)
        #expect(baseline.findings.map(\.fingerprint) == [before[0].fingerprint])
        #expect(before[0].fingerprint.count == 16 && before[0].fingerprint != before[1].fingerprint)
        // A version 1 baseline (no fingerprints) still accepts by file, rule and line text.
        let old = try LintBaseline.decode(
            Array(
                #"{"version":1,"findings":[{"file":"A.swift","rule":"beta-asset-api","line":"let r = await AssetInventory.allocatedLocales"}]}"#
                    .utf8
            )
            .data, path: "old.json")
        #expect(old.apply(to: after).accepted.map(\.location.line) == [3])
        #expect(throws: LintBaseline.BaselineError.self) {
            try LintBaseline.decode(Array("{\"version\":3,\"findings\":[]}".utf8).data, path: "b.json")
        }
    }
}

extension Array where Element == UInt8 {
    var data: Foundation.Data { Foundation.Data(self) }
}
