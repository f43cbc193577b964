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

    @Test func endingInputNeedsAnAnalyzerFinish() {
        let bad = """
            final class Live {
                var feed: AsyncStream<AnalyzerInput>.Continuation?
                func stop() {
                    feed?.finish()
                    analyzer = nil
                }
            }
            """
        let good = """
            final class Live {
                var feed: AsyncStream<AnalyzerInput>.Continuation?
                func stop() async throws {
                    feed?.finish()
                    try await analyzer.finalizeAndFinishThroughEndOfInput()
                }
                func abandon() async {
                    feed?.finish()
                    await wrapUp()
                }
                func wrapUp() async { await analyzer.cancelAndFinishNow() }
            }
            """
        let tuple = """
            let (stream, builder) = AsyncStream<AnalyzerInput>.makeStream()
            func end() { builder.finish() }
            """
        #expect(Self.rules(bad) == ["input-finish-without-analyzer-finish"])
        #expect(Self.rules(good).isEmpty)
        #expect(Self.rules(tuple) == ["input-finish-without-analyzer-finish"])
        #expect(
            Self.rules("let (stream, _) = AsyncStream<AnalyzerInput>.makeStream()") == ["discarded-input-continuation"])
        // An unrelated stream's continuation is not the analyzer's input.
        #expect(Self.rules("let (s, c) = AsyncStream<String>.makeStream()\nc.finish()").isEmpty)
    }

    /// Helpers are followed only through this type's own calls: `audioEngine.stop()` is not the
    /// type's `stop()`, however well that one finishes the analyzer.
    @Test func anotherValuesMethodIsNotTheTypesHelper() {
        let source = """
            final class Live {
                var feed: AsyncStream<AnalyzerInput>.Continuation?
                var analyzer: SpeechAnalyzer?
                func stop() async throws { try await analyzer?.finalizeAndFinishThroughEndOfInput() }
                func halt() { audioEngine.stop(); feed?.finish() }
                func end() async throws { feed?.finish(); try await self.stop() }
            }
            """
        let found = MigrationLinter.lint(source: source, file: "Live.swift", project: Self.plist)
        #expect(found.map(\.location.line) == [5])
        #expect(found.first?.detail.hasSuffix("followed: nothing in Live calls halt()") == true)
    }

    /// Dropping the reference does not finalize pending results (the seed guide's mistake); a
    /// caller that cancels the analyzer and then tears down the input is right.
    @Test func teardownAfterTheAnalyzerIsCancelled() {
        let dropped = """
            final class Live {
                var feed: AsyncStream<AnalyzerInput>.Continuation?
                var analyzer: SpeechAnalyzer?
                func reset() { analyzer = nil; closeInput() }
                func closeInput() { feed?.finish() }
            }
            """
        #expect(Self.rules(dropped) == ["input-finish-without-analyzer-finish"])
        let cancelled = dropped.replacingOccurrences(
            of: "func reset() {", with: "func reset() async { await analyzer?.cancelAndFinishNow();")
        #expect(Self.rules(cancelled).isEmpty)
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

    @Test func bestFormatIsOptional() {
        let bad = """
            func setUp() async {
                let format = await SpeechAnalyzer.bestAvailableAudioFormat(
                    compatibleWith: [transcriber]
                )
                print(format.sampleRate)
            }
            """
        let good = """
            func a() async throws {
                guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]) else { throw Failure.noFormat }
            }
            func b() async {
                let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules)
                guard let format else { return }
            }
            func c() async -> AVAudioFormat? { return await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules) }
            func d() async { let rate = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules)?.sampleRate }
            func e() async {
                let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules)
                let converter = Converter(analyzerFormat: format)
            }
            """
        // Kept in a property and read through `self.` into an optional parameter, or bound by
        // `guard let x = self.property` (two public apps' shapes).
        let stored = """
            final class Feeder {
                var analyzerFormat: AVAudioFormat?
                var best: AVAudioFormat?
                func setUp() async throws {
                    self.analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                    self.best = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                    try await analyzer.prepareToAnalyze(in: self.best, withProgressReadyHandler: nil)
                }
                func feed(_ buffer: AVAudioPCMBuffer) {
                    guard let builder, let target = analyzerFormat else { return }
                    builder.yield(AnalyzerInput(buffer: convert(buffer, to: target)))
                }
            }
            """
        #expect(Self.rules(stored).isEmpty)
        #expect(
            Self.rules(
                stored.replacingOccurrences(of: "let target = analyzerFormat", with: "let target = Optional(1)")
                    .replacingOccurrences(of: "to: target", with: "to: analyzerFormat!")) == ["unguarded-best-format"])
        #expect(Self.rules(bad) == ["unguarded-best-format"])
        #expect(Self.rules(good).isEmpty)
        // Interpolating it prints "Optional(…)"; storing it defers the question to code that may never ask.
        #expect(
            Self.rules("let f = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: m)\nprint(\"\\(f)\")")
                == ["unguarded-best-format"])
        #expect(
            Self.rules("let f = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: m)\nself.format = f") == [
                "unguarded-best-format"
            ])
    }

    @Test func resultTasksMustBeKept() {
        let bad = """
            func go() {
                Task {
                    for try await result in transcriber.results { show(result) }
                }
                _ = Task.detached { for try await r in transcriber.results { } }
            }
            """
        let good = """
            func go() {
                resultTask = Task { for try await result in transcriber.results { show(result) } }
                let other = Task { @MainActor in for try await r in transcriber.results { } }
                Task { await refreshUI() }
            }
            """
        #expect(Self.rules(bad) == ["untracked-result-task", "untracked-result-task"])
        #expect(Self.rules(good).isEmpty)
    }

    @Test func exactLocaleEquality() {
        let bad = """
            let supported = await SpeechTranscriber.supportedLocales
            guard supported.contains(locale) else { return }
            if await SpeechTranscriber.installedLocales.contains(locale) { }
            """
        #expect(Self.rules(bad) == ["exact-locale-match", "exact-locale-match"])
        #expect(
            Self.rules("guard let l = await SpeechTranscriber.supportedLocale(equivalentTo: locale) else { return }")
                .isEmpty)
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

    /// An exact identifier comparison of a locale the code wrote (a constant, passed down by every
    /// caller) matches as written; one of `Locale.current` does not.
    @Test func identifierComparisonsFollowTheLocaleToItsCallers() {
        let check = """
            struct Assets {
                func installed(locale: Locale) async -> Bool {
                    let installed = await SpeechTranscriber.installedLocales
                    return installed.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
                }
                func ensure(locale: Locale) async {
                    var chosen = locale
                    for fallback in Self.fallbacks where chosen == locale { chosen = fallback }
                    if await installed(locale: chosen) { return }
                }
            }
            """
        let constant = "func go() async { await Assets().ensure(locale: Locale.ja) }"
        let user = "func go() async { await Assets().ensure(locale: Locale.current) }"
        let lint = { (caller: String) in
            MigrationLinter.lint(
                [LintSource(file: "Assets.swift", text: check), LintSource(file: "Go.swift", text: caller)],
                project: Self.plist
            ).map(\.rule.id)
        }
        #expect(lint(constant).isEmpty)
        #expect(lint(user) == ["exact-locale-match"])
        let trail = MigrationLinter.lint(
            [LintSource(file: "Assets.swift", text: check), LintSource(file: "Go.swift", text: user)],
            project: Self.plist
        ).first?.detail
        #expect(
            trail?.hasSuffix(
                "followed: installed() is called with chosen at Assets.swift:9; ensure() is called with Locale.current at Go.swift:1"
            ) == true, "\(trail ?? "")")
        #expect(lint("") == ["exact-locale-match"])
    }

    /// `contains(where:)` and trailing closures compare exactly too; a constant on the other side
    /// (a public app checks its one fixed locale so) matches as written.
    @Test func closureComparisonsAreExactUnlessTheOtherSideIsAConstant() {
        let source = """
            func fixed() async -> Bool {
                let locale = Locale(identifier: "ja-JP")
                let supported = await SpeechTranscriber.supportedLocales
                return supported.contains(where: { $0.identifier(.bcp47) == locale.identifier(.bcp47) })
            }
            func current() async -> Bool {
                let installed = await SpeechTranscriber.installedLocales
                return installed.contains { candidate in candidate.identifier == Locale.current.identifier }
            }
            """
        let found = MigrationLinter.lint(source: source, file: "L.swift", project: Self.plist)
        #expect(found.map(\.location.line) == [8])
    }

    /// Apple's lists, however written (`(await SpeechTranscriber.installedLocales).contains(…)`);
    /// an app's own `Self.supportedLocales` is not one.
    @Test func onlyTheTranscribersListsAreLocaleLists() {
        let source = """
            struct Picker {
                static let supportedLocales: [Option] = []
                func pick() -> Bool { Set(Self.supportedLocales.map(\\.identifier)).contains(Locale.current.identifier) }
                func needsDownload(_ name: String) async -> Bool {
                    let locale = Locale(identifier: name)
                    return !(await SpeechTranscriber.installedLocales).contains(locale)
                }
            }
            """
        let found = MigrationLinter.lint(source: source, file: "P.swift", project: Self.plist)
        #expect(found.map(\.location.line) == [6])
    }

    /// A stored property set once to a constant locale compares exactly as written; one set from
    /// outside does not.
    @Test func aConstantLocalePropertyComparesAsWritten() {
        let source = """
            final class Quick {
                private var locale = Locale(identifier: "en-US")
                func check() async -> Bool {
                    await SpeechTranscriber.installedLocales.contains { $0.identifier(.bcp47) == locale.identifier(.bcp47) }
                }
            }
            """
        #expect(Self.rules(source).isEmpty)
        #expect(
            Self.rules(source + "\nextension Quick { func set(_ l: Locale) { locale = l } }") == ["exact-locale-match"])
    }

    /// A stored format read through a lock into a local that is then unwrapped is handled.
    @Test func aFormatReadThroughALockIntoAGuardedLocalIsHandled() {
        let source = """
            final class Engine {
                private var analyzerFormat: AVAudioFormat?
                func start() async {
                    let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                    self.analyzerFormat = format
                }
                func feed() {
                    let current = withLock { self.analyzerFormat }
                    guard let current else { return }
                    use(current)
                }
            }
            """
        #expect(Self.rules(source).isEmpty)
        #expect(
            Self.rules(source.replacingOccurrences(of: "guard let current else { return }", with: "print(current!)"))
                == ["unguarded-best-format"])
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

    @Test func lexicalProblemsAreFindings() {
        #expect(Self.rules("let s = \"never closed\n") == ["unreadable-source"])
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
