import Foundation
@_spi(Fuzzing) import HarnessCLI
import MigrationLint

extension FuzzTarget {
    /// A lint baseline file.
    static let lintBaseline = FuzzTarget(
        name: "lint-baseline", summary: "a migrate lint baseline",
        seeds: ["Tests/Fixtures/fuzz/lint-baseline/*"]
    ) { bytes, scratch in
        let path = scratch.write("baseline.json", bytes)
        do {
            _ = try LintBaseline.decode(Data(bytes), path: path)
            return nil
        } catch {
            return naming(path, error)
        }
    }

    /// The project files the lint reads for the app's usage descriptions: an Info.plist (XML or
    /// binary) when the first byte is even, a project file's build settings when it is odd.
    static let lintProject = FuzzTarget(
        name: "lint-project", summary: "an Info.plist, .pbxproj or .xcconfig",
        seeds: ["Tests/Fixtures/migrate-lint/*/Info.plist", "Tests/Fixtures/fuzz/lint-project/*"]
    ) { bytes, scratch in
        guard let first = bytes.first else { return nil }
        let name = first % 2 == 0 ? "Info.plist" : "App.xcodeproj/project.pbxproj"
        let path = scratch.write(name, bytes.dropFirst())
        _ = LintInputs.usageKeys(in: path)
        _ = LintInputs.isAppEvidence(path)
        return nil
    }

    /// A Swift source file the lint is given: tokenized and linted as part of a project.
    static let lintSource = FuzzTarget(
        name: "lint-source", summary: "a Swift source file",
        seeds: ["Tests/Fixtures/migrate-lint/*/*.swift", "Sources/example-live-analyzer/*.swift"]
    ) { bytes, _ in
        let text = String(decoding: bytes, as: UTF8.self)
        let findings = MigrationLinter.lint(source: text, file: "Input.swift")
        guard !findings.isEmpty else { return nil }
        // Any of Unicode's line ends may count as one (a bound, not the count).
        let lineEnds: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
        let lines = 1 + text.unicodeScalars.reduce(0) { $0 + (lineEnds.contains($1.value) ? 1 : 0) }
        for finding in findings
        where finding.file != "Input.swift" || finding.location.line < 1 || finding.location.line > lines {
            return "a finding outside the file: \(finding)"
        }
        return nil
    }
}
