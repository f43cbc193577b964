import Foundation
import MigrationLint
import Testing

/// input-finish-without-analyzer-finish: the rule's findings and the shapes it must stay quiet on.
extension MigrationLinterTests {
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
}

extension MigrationLinterTests {
    /// A path that leaves the files (a delegate protocol nothing here adopts) is noted, not
    /// reported; once an adopter that only records the error is in the run, it is reported.
    @Test func aPathLeavingTheFilesIsNotedNotReported() {
        let input = LintSource(
            file: "Input.swift",
            text: """
                protocol InputDelegate: AnyObject { func inputDidFail(_ error: Error) }
                final class Input {
                    weak var delegate: InputDelegate?
                    var feed: AsyncStream<AnalyzerInput>.Continuation?
                    func fail(_ error: Error) {
                        feed?.finish()
                        delegate?.inputDidFail(error)
                    }
                }
                """)
        let alone = MigrationLinter.review([input], project: Self.plist)
        #expect(alone.findings.isEmpty)
        #expect(alone.notes.map(\.location.line) == [6])
        #expect(
            alone.notes.first?.text.contains(
                "delegate.inputDidFail(…) goes to an adopter of InputDelegate, and no type in the files linted adopts it"
            )
                == true)
        let owner = LintSource(
            file: "Owner.swift",
            text: """
                final class Owner: InputDelegate {
                    var lastError: Error?
                    func inputDidFail(_ error: Error) { lastError = error }
                }
                """)
        let both = MigrationLinter.review([input, owner], project: Self.plist)
        #expect(both.notes.isEmpty)
        #expect(both.findings.map(\.location.line) == [6])
        let cancelling = LintSource(
            file: "Owner.swift",
            text: """
                final class Owner: InputDelegate {
                    var analyzer: SpeechAnalyzer?
                    func inputDidFail(_ error: Error) { Task { await analyzer?.cancelAndFinishNow() } }
                }
                """)
        #expect(MigrationLinter.review([input, cancelling], project: Self.plist).findings.isEmpty)
    }
}

extension MigrationLinterTests {
    /// An analyzer a function makes and gives to nothing cannot be finished by code elsewhere, so a
    /// callback nobody passes in does not make the path unfollowable (held-out set 3's live stream).
    @Test func aLocalAnalyzerIsNotReachedByHandOffs() {
        let local = """
            func listen(onSegment: @escaping (String) -> Void) async throws {
                let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
                let analyzer = SpeechAnalyzer(modules: [transcriber])
                try await analyzer.start(inputSequence: inputs)
                defer { continuation.finish() }
                for try await result in transcriber.results { onSegment(String(result.text.characters)) }
            }
            """
        let review = MigrationLinter.review([LintSource(file: "Listen.swift", text: local)], project: Self.plist)
        #expect(review.notes.isEmpty)
        #expect(review.findings.map(\.location.line) == [5])
        #expect(
            review.findings.first?.detail.contains("analyzer is made in listen() and given to nothing else") == true)
        // Handed to the caller's callback, the analyzer may be finished there: not judged.
        let shared = local.replacingOccurrences(
            of: "try await analyzer.start(inputSequence: inputs)",
            with: "onStart(analyzer); try await analyzer.start(inputSequence: inputs)"
        ).replacingOccurrences(
            of: "onSegment: @escaping", with: "onStart: (SpeechAnalyzer) -> Void, onSegment: @escaping")
        let handed = MigrationLinter.review([LintSource(file: "Listen.swift", text: shared)], project: Self.plist)
        #expect(handed.findings.isEmpty)
        #expect(handed.notes.map(\.location.line) == [5])
    }
}
