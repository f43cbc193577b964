import Foundation
import MigrationDiff

/// The migration diff as JUnit (a case per utterance: failing when the app would see something
/// different) and as Markdown for a CI step summary.
public enum MigrationReport {
    public static func junit(_ summary: MigrationSummary) -> JUnitReport {
        let classname = "migrate-diff.\(summary.engine).\(BenchReports.tierName(ofManifest: summary.manifest))"
        var cases = summary.utterances.map { diff -> JUnitReport.Case in
            var properties: [(String, String)] = [
                ("legacyText", diff.legacy.finalText), ("analyzerText", diff.analyzer.finalText),
                ("legacyEvents", diff.legacy.eventOrder), ("analyzerEvents", diff.analyzer.eventOrder),
                ("legacyUpdates", String(diff.legacy.displayUpdates.count)), ("analyzerUpdates", String(diff.analyzer.displayUpdates.count)),
                ("legacyRevisions", String(diff.legacy.revisions)), ("analyzerRevisions", String(diff.analyzer.revisions)),
                ("matchedWords", String(diff.matchedWords)),
            ]
            if let shift = diff.maximumTimeShift { properties.append(("maximumTimeShift", seconds(shift))) }
            if let interval = diff.legacy.meanUpdateInterval { properties.append(("legacyUpdateInterval", seconds(interval))) }
            if let interval = diff.analyzer.meanUpdateInterval { properties.append(("analyzerUpdateInterval", seconds(interval))) }
            if let delay = diff.finalDelay { properties.append(("finalDelay", seconds(delay))) }
            if !diff.expected.isEmpty { properties.append(("expectedDifferences", diff.expected.joined(separator: "; "))) }
            let failures = summary.failures(diff)
            let outcome: JUnitReport.Outcome = failures.isEmpty ? .passed
                : .failure(message: failures[0], details: (failures + diff.expected).joined(separator: "\n") + "\n\n" + diff.alignment)
            return JUnitReport.Case(classname: classname, name: diff.id, seconds: 0, properties: properties, outcome: outcome,
                                    systemOut: "legacy:   \(diff.legacy.eventOrder)\nanalyzer: \(diff.analyzer.eventOrder)")
        }
        cases += summary.problems.enumerated().map { index, problem in
            JUnitReport.Case(classname: classname, name: "problem-\(index + 1)", seconds: 0, outcome: .error(message: problem, details: problem))
        }
        return JUnitReport(name: "speech-harness migrate diff",
                           suites: [JUnitReport.Suite(name: "migrate-diff.\(summary.engine)", timestamp: Date(), cases: cases)])
    }

    public static func markdown(_ summary: MigrationSummary) -> String {
        let md = BenchReports.md
        let transcript = summary.transcript
        let updates = summary.meanUpdates, revisions = summary.revisions
        let gated = summary.gates.isEmpty ? "" : " or beyond a gate"
        let expectedOnly = summary.differing - summary.noticeablyDiffering
        let manifestName = summary.manifest.replacingOccurrences(of: "`", with: "'")
        let counts: String = "Manifest `\(manifestName)` · \(summary.utterances.count) utterances · \(summary.failing) with differences a user "
            + "would notice\(gated) · \(expectedOnly) with only the new API's expected differences"
            + (summary.problems.isEmpty ? "" : " · \(summary.problems.count) could not be run")
        var lines = [
            "## Migration diff: \(md(summary.sides.old)) vs \(md(summary.sides.new)) on \(md(summary.engine))", "",
            counts
                + (summary.problems.isEmpty ? "" : " · \(summary.problems.count) could not be run"), "",
            "| | \(md(summary.sides.old)) | \(md(summary.sides.new)) |", "| --- | --- | --- |",
            "| display updates per utterance (mean) | \(format(updates.legacy, 1)) | \(format(updates.analyzer, 1)) |",
            "| audio seconds between updates (mean) | \(BenchReports.format(summary.meanUpdateInterval.legacy, 2)) | \(BenchReports.format(summary.meanUpdateInterval.analyzer, 2)) |",
            "| revisions of shown text (total) | \(revisions.legacy) | \(revisions.analyzer) |",
            "| final results before end of audio (utterances) | \(summary.utterances.filter { $0.legacy.finalsBeforeEndOfAudio > 0 }.count) | \(summary.utterances.filter { $0.analyzer.finalsBeforeEndOfAudio > 0 }.count) |",
            "| errors | \(summary.utterances.filter { $0.legacy.error != nil }.count) | \(summary.utterances.filter { $0.analyzer.error != nil }.count) |",
            "",
            "Final transcripts, analyzer against legacy: \(transcript.substitutions) substituted, \(transcript.deletions) only in legacy, "
                + "\(transcript.insertions) only in the analyzer, of \(transcript.referenceLength) legacy words"
                + (summary.maximumTimeShift.map { "; word times move by at most \(seconds($0)) s" } ?? "") + ".",
        ]
        let failing = summary.utterances.filter { !summary.failures($0).isEmpty }
        if !failing.isEmpty {
            lines += ["", "### Changes a user would notice", "", "| utterance | legacy final | analyzer final | what changes |", "| --- | --- | --- | --- |"]
            lines += failing.prefix(100).map { "| \(md($0.id)) | \(md($0.legacy.finalText)) | \(md($0.analyzer.finalText)) | \(md(summary.failures($0).joined(separator: "; "))) |" }
            if failing.count > 100 { lines += ["", "\(failing.count - 100) more in the JUnit file."] }
        }
        if !summary.differenceKinds.isEmpty {
            lines += ["", "### Every kind of difference", "", "| difference | utterances |", "| --- | ---: |"] + summary.differenceKinds.map { "| \(md($0.kind)) | \($0.count) |" }
        }
        let delays = summary.utterances.compactMap(\.finalDelay).sorted()
        if !delays.isEmpty {
            lines += ["", "Expected differences of the new API pass unless a gate bounds them (`migrateDiff` in a gates file). "
                      + "Last final result, analyzer minus legacy: median \(seconds(delays[delays.count / 2])) s, latest \(seconds(delays.last!)) s of audio."]
        }
        if !summary.problems.isEmpty {
            lines += ["", "**Could not be run**", ""] + summary.problems.prefix(50).map { "- " + md($0) }
        }
        lines += ["", "Legacy shows its cumulative best transcription; the analyzer side shows finals so far plus the current volatile text. Times are seconds of audio processed."]
        return lines.joined(separator: "\n") + "\n"
    }

    static func seconds(_ value: Double) -> String { BenchReports.format(value, 3) }
    static func format(_ value: Double, _ digits: Int) -> String { BenchReports.format(value, digits) }
}
