import Foundation
import TestSupport
import Testing

@testable import HarnessCLI

/// The lint end to end on the fixture folders in Tests/Fixtures/migrate-lint (how it finds the app
/// around the sources; the rules' own cases are their examples): each case
/// folder is linted on its own, and its findings must be exactly the lines marked
/// `// lint: <rule>`, its notes (paths a rule could not follow) the lines marked
/// `// lint-note: <rule>`. A case without markers is a precision test; its `-wrong` twin a recall test.
@Suite("migrate lint fixtures")
struct MigrateLintFixtureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/migrate-lint")

    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted()
    }()

    /// `file:line rule` for every line under `folder` marked with `marker` (`// lint: `, `// lint-note: `).
    static func markers(in folder: URL, _ marker: String = "// lint: ") throws -> Set<String> {
        var found: Set<String> = []
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let lines = try String(contentsOf: url, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                guard let marker = line.range(of: marker) else { continue }
                let relative = url.path.dropFirst(folder.path.count + 1)
                // One rule per marker; `// lint: a, b` marks two findings on the line.
                for rule in line[marker.upperBound...].split(separator: ",") {
                    found.insert("\(relative):\(number + 1) \(rule.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return found
    }

    /// `file:line rule` for every finding (or, with `kind` "note", every note on a line of a file)
    /// the command prints for `folder`.
    static func findings(
        in folder: URL, kind: String = "warning"
    ) async -> (
        status: Int32, found: Set<String>, output: String
    ) {
        let captured = Captured()
        let status = await SpeechHarnessTool.run(["migrate", "lint", folder.path], console: captured.console)
        var found: Set<String> = []
        for line in captured.stdout.split(separator: "\n") where line.contains(": \(kind): [") {
            let fields = line.split(separator: ":", maxSplits: 3)
            guard fields.count == 4, let open = line.range(of: "["), let close = line.range(of: "]") else { continue }
            found.insert(
                "\(fields[0].dropFirst(folder.path.count + 1)):\(fields[1]) \(line[open.upperBound..<close.lowerBound])"
            )
        }
        return (status, found, captured.stdout)
    }

    @Test func everyCaseHasItsWrongTwin() {
        // The folders left are the app-discovery cases; the rules' own cases are their examples.
        #expect(Self.cases.count == 12)
        for name in Self.cases where !name.hasSuffix("-wrong") && name.hasPrefix("microphone") == false {
            #expect(Self.cases.contains(name + "-wrong"), "\(name) has no wrong twin")
        }
    }

    @Test(arguments: cases)
    func findingsAreExactlyTheMarkedLines(_ name: String) async throws {
        let folder = Self.root.appendingPathComponent(name)
        let expected = try Self.markers(in: folder)
        let (status, found, output) = await Self.findings(in: folder)
        #expect(found.subtracting(expected).isEmpty, "false positives in \(name):\n\(output)")
        #expect(expected.subtracting(found).isEmpty, "missed in \(name):\n\(output)")
        #expect(status == (expected.isEmpty ? 0 : 1))
        let (_, noted, _) = await Self.findings(in: folder, kind: "note")
        #expect(noted == (try Self.markers(in: folder, "// lint-note: ")), "notes in \(name):\n\(output)")
    }

    /// Each project of a folder (a Swift package, an Xcode project, an XcodeGen spec) is linted on
    /// its own: the folder holding two apps gives what each app gives alone, and a finding's note
    /// names only its own app's code, though both apps have a `Transcriber.supported(locale:)`.
    @Test(arguments: ["two-apps", "two-apps-wrong"])
    func aFolderOfAppsGivesWhatEachAppGivesAlone(_ name: String) async {
        let folder = Self.root.appendingPathComponent(name)
        let (_, joint, output) = await Self.findings(in: folder)
        var alone: Set<String> = []
        for app in ["AppA", "AppB"] {
            let (_, found, _) = await Self.findings(in: folder.appendingPathComponent(app))
            alone.formUnion(found.map { "\(app)/\($0)" })
        }
        #expect(joint == alone, "\(output)")
        for line in output.split(separator: "\n") where line.contains("AppA/Sources") && line.contains("warning") {
            #expect(!line.contains("AppB"), "a note of app A names app B: \(line)")
        }
    }

    /// A finding says which path it followed and where that path stopped.
    @Test func findingsNameThePathTheyFollowed() async throws {
        let dir = try TemporaryDirectory()
        let (_, _, callers) = await Self.findings(in: try LintExampleFolders.write("caller-finishes-wrong", in: dir))
        #expect(
            callers.contains(
                "inputBuilder.finish() in stopAudio() with no analyzer finish or cancel there; followed: "
                    + "stop() calls it at line 30 and finishes the analyzer; pause() calls it at line 35 and does not finish the analyzer, "
                    + "so its callers were followed: nothing in Dictation calls pause()"))
        let (_, _, reservations) = await Self.findings(
            in: try LintExampleFolders.write("reservations-in-a-set-wrong", in: dir))
        #expect(
            reservations.contains(
                "release(reservedLocale:) in stopUsing() not conditioned on a reservation this code made; "
                    + "ownership is kept in reserved, and this release neither tests nor iterates it"))
        // Across types and files: the call followed, and the handler closure passed in.
        let crossType = try LintExampleFolders.write("cross-type-caller-wrong", in: dir)
        let (_, _, capture) = await Self.findings(in: crossType)
        #expect(
            capture.contains(
                "continuation.finish() in stop() with no analyzer finish or cancel there; followed: RecordingController.record() calls it as capture.stop() at \(crossType.path)/RecordingController.swift:17 and does not finish the analyzer"
            ), "\(capture)")
        let handler = try LintExampleFolders.write("handler-from-another-type-wrong", in: dir)
        let (_, _, feeder) = await Self.findings(in: handler)
        #expect(
            feeder.contains(
                "followed: onFailure(…) is called, and the closure passed for it (\(handler.path)/TranscriptionSession.swift:16) does not finish or cancel the analyzer; "
            ), "\(feeder)")
        let (_, _, tool) = await Self.findings(in: Self.root.appendingPathComponent("microphone-in-a-tool"))
        #expect(tool.contains("note: [missing-usage-description] not applied: no app target found"))
        // An Xcode project whose Info.plist is not in the folder is not judged, and says so.
        let sideBySide = Self.root.appendingPathComponent("xcode-projects-side-by-side")
        let (_, _, relay) = await Self.findings(in: sideBySide)
        #expect(
            relay.contains(
                "note: [missing-usage-description] not applied in \(sideBySide.path)/RelayApp.xcodeproj: the project's build settings name \(sideBySide.path)/RelayApp/Info.plist as its Info.plist, and it is not in the folder"
            ), "\(relay)")
    }

    @Test func explainPrintsTheReasoningAndTheFix() async {
        let captured = Captured()
        #expect(
            await SpeechHarnessTool.run(
                ["migrate", "lint", "--explain", "input-finish-without-analyzer-finish"], console: captured.console)
                == 0)
        #expect(
            captured.stdout.hasPrefix(
                "input-finish-without-analyzer-finish: ends the input stream without finishing the analyzer\n\n"))
        #expect(captured.stdout.contains("callers of the function that ends the input"))
        #expect(captured.stdout.contains("\n\nfix: after `continuation.finish()`"))
        let unknown = Captured()
        #expect(
            await SpeechHarnessTool.run(["migrate", "lint", "--explain", "no-such-rule"], console: unknown.console) == 2
        )
        #expect(unknown.stderr.contains("no rule 'no-such-rule'; the rules are legacy-api, "))
    }
}
