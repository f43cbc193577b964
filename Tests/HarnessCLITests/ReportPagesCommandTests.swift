import Foundation
import SpeechCore
import Testing

@testable import HarnessCLI

/// `merge` (and so `bench`) writing the explorer and, with a baseline, the regression page, on
/// stores made by scripts/synthetic_run.py; in a browser when one is installed.
@Suite("Report pages from the command line")
struct ReportPagesCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let browserReady =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium-headless-shell")
        && FileManager.default.isExecutableFile(atPath: root + "/.venv/bin/python")

    /// A folder with a synthetic run and baseline of `utterances` utterances × 2 engines.
    static func synthetic(_ utterances: Int) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pages-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [root + "/scripts/synthetic_run.py", directory, String(utterances)]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return directory
    }

    func run(_ arguments: [String]) async -> (Int32, Captured) {
        let captured = Captured()
        return (await SpeechHarnessTool.run(arguments, console: captured.console), captured)
    }

    @Test func mergeWritesTheExplorerAndRegressionsWithInlinedAudio() async throws {
        let directory = try Self.synthetic(30)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, captured) = await run([
            "merge", directory + "/run", "--baseline", directory + "/baseline", "--embed-audio", "--out",
            directory + "/report",
        ])
        #expect(status == 0, "\(captured.stderr)")
        #expect(captured.stdout.contains("explorer.html, regressions.html"))
        let explorer = try String(contentsOfFile: directory + "/report/explorer.html", encoding: .utf8)
        let regressions = try String(contentsOfFile: directory + "/report/regressions.html", encoding: .utf8)
        let overview = try String(contentsOfFile: directory + "/report/index.html", encoding: .utf8)
        #expect(explorer.contains("data:audio/wav;base64,"))
        #expect(explorer.contains("30 utterances, 60 runs by 2 engines"))
        // Utterances 0, 10 and 20 differ from the baseline (one in ten) on each engine, where the errors moved.
        #expect(regressions.contains("\"pairs\":[[0,"))
        for page in [overview, explorer, regressions] {
            #expect(page.contains("<a href=\"regressions.html\""))
            #expect(page.contains("<a href=\"explorer.html\""))
        }
    }

    /// A full-tier run joins a run on fewer utterances: only the utterances that run holds are kept.
    @Test func mergeKeepsOnlyTheUtterancesOfAnotherRun() async throws {
        let full = try Self.synthetic(30), few = try Self.synthetic(10)
        defer { for directory in [full, few] { try? FileManager.default.removeItem(atPath: directory) } }
        let (status, captured) = await run([
            "merge", full + "/run", "--utterances-of", few + "/run", "--out", full + "/report",
        ])
        #expect(status == 0, "\(captured.stderr)")
        #expect(captured.stderr.contains("40 records of other utterances left out"))
        let explorer = try String(contentsOfFile: full + "/report/explorer.html", encoding: .utf8)
        #expect(explorer.contains("10 utterances, 20 runs by 2 engines"))
        let (missing, said) = await run(["merge", full + "/run", "--utterances-of", "/nonexistent", "--out", "/tmp/x"])
        #expect(missing == 2 && said.stderr.contains("--utterances-of /nonexistent"))
    }

    @Test func aBaselineThatIsNotARunIsAUsageError() async throws {
        let (status, captured) = await run([
            "merge", "/nonexistent-run", "--baseline", "/nonexistent-baseline", "--out", "/tmp/unused",
        ])
        #expect(status == 2)
        #expect(captured.stderr.contains("/nonexistent-baseline/utterances.jsonl: no such file"))
    }

    /// The pages as a reader meets them: they open without console errors and parse strictly,
    /// and a click on the first row opens a view with its alignment, audio and timeline.
    /// Under CI=true a missing browser fails the test instead of skipping it.
    @Test(
        .enabled(
            if: browserReady || ProcessInfo.processInfo.environment["CI"] == "true",
            "needs chromium-headless-shell and .venv (scripts/bootstrap --browser)"))
    func pagesOpenAndClickThroughInABrowser() async throws {
        let directory = try Self.synthetic(40)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, _) = await run([
            "merge", directory + "/run", "--baseline", directory + "/baseline", "--out", directory + "/report",
        ])
        #expect(status == 0)
        let pages = ["index.html", "explorer.html", "regressions.html"].map { directory + "/report/" + $0 }
        for arguments in [pages, ["--click"] + pages.dropFirst()] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.root + "/scripts/check-html")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
        }
    }
}
