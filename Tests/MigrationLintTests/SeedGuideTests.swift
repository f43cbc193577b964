import Foundation
import MigrationLint
import TestSupport
import Testing

/// The lint against the removed example code of the migration guide the project was seeded with
/// (seed 003, read at test time from `../shared/seeds` or `SPEECH_HARNESS_SEEDS`; skipped when
/// the seeds are not beside the checkout).
@Suite("Migration lint on the seed guide's removed examples")
struct SeedGuideTests {
    static let seedFile: String? = {
        let folder =
            ProcessInfo.processInfo.environment["SPEECH_HARNESS_SEEDS"]
            ?? URL(fileURLWithPath: SystemFixture.packageRoot).deletingLastPathComponent().appendingPathComponent(
                "shared/seeds"
            ).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.first { $0.hasPrefix("003_") }.map { folder + "/" + $0 }
    }()

    /// The Swift blocks among the diff's removed lines, in order.
    static func removedSwiftBlocks() throws -> [String] {
        let text = try String(contentsOfFile: seedFile!, encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) where line.hasPrefix("-") {
            let content = line.hasPrefix("- ") ? String(line.dropFirst(2)) : String(line.dropFirst())
            if content.hasPrefix("```swift") {
                current = []
                continue
            }
            if content.hasPrefix("```"), let block = current {
                blocks.append(block.joined(separator: "\n"))
                current = nil
                continue
            }
            current?.append(content)
        }
        return blocks
    }

    @Test(.enabled(if: seedFile != nil, "seed 003 is not beside this checkout"))
    func eachRemovedMistakeIsFound() throws {
        let blocks = try Self.removedSwiftBlocks()
        #expect(blocks.count == 5)
        let found = blocks.enumerated().map { index, block in
            // The guide's code is an app's (it asks for record permission in an iOS app).
            Set(
                MigrationLinter.lint(
                    source: block, file: "example\(index + 1).swift",
                    project: ProjectContext(appTarget: "the guide's app")
                ).map(\.rule.id))
        }
        #expect(
            found[0] == ["allocate-locale", "unguarded-best-format", "untracked-result-task", "result-transcription"])
        #expect(found[1] == [])
        // The third keeps the format in a property and binds it with `guard … let analyzerFormat =
        // self.analyzerFormat` before use: nil is handled (the audio is dropped), so no format finding.
        #expect(
            found[2] == [
                "allocate-locale", "untracked-result-task", "result-transcription",
                "input-finish-without-analyzer-finish", "missing-usage-description",
            ])
        #expect(found[3] == ["progress-async-iteration", "exact-locale-match"])
        #expect(
            found[4] == [
                "allocate-locale", "unguarded-best-format", "untracked-result-task", "result-transcription",
                "nonexistent-result-type", "discarded-input-continuation", "exact-locale-match",
            ])
    }
}
