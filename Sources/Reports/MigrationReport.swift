import Foundation
import Metrics
import Records

/// The migration diff as JUnit (a case per utterance: failing when the app would see something
/// different) and as Markdown for a CI step summary.
public enum MigrationReport {
    public static func junit(_ summary: MigrationSummary) -> JUnitReport {
        let classname = "migrate-diff.\(summary.engine).\(BenchReports.tierName(ofManifest: summary.manifest))"
        var cases = summary.utterances.map { diff -> JUnitReport.Case in
            var properties: [(String, String)] = [
                ("legacyText", diff.legacy.finalText), ("analyzerText", diff.analyzer.finalText),
                ("legacyEvents", diff.legacy.eventOrder), ("analyzerEvents", diff.analyzer.eventOrder),
                ("legacyUpdates", String(diff.legacy.displayUpdates.count)),
                ("analyzerUpdates", String(diff.analyzer.displayUpdates.count)),
                ("legacyRevisions", String(diff.legacy.revisions)),
                ("analyzerRevisions", String(diff.analyzer.revisions)),
                ("matchedWords", String(diff.matchedWords)),
            ]
            if let shift = diff.maximumTimeShift { properties.append(("maximumTimeShift", seconds(shift))) }
            if let interval = diff.legacy.meanUpdateInterval {
                properties.append(("legacyUpdateInterval", seconds(interval)))
            }
            if let interval = diff.analyzer.meanUpdateInterval {
                properties.append(("analyzerUpdateInterval", seconds(interval)))
            }
            if let delay = diff.finalDelay { properties.append(("finalDelay", seconds(delay))) }
            if let old = diff.legacyTail, let new = diff.analyzerTail {
                properties += [
                    ("tailWords", String(old.words)), ("legacyTailLost", String(old.lost)),
                    ("analyzerTailLost", String(new.lost)),
                ]
            }
            if !diff.expected.isEmpty {
                properties.append(("expectedDifferences", diff.expected.joined(separator: "; ")))
            }
            let failures = summary.failures(diff)
            let outcome: JUnitReport.Outcome =
                failures.isEmpty
                ? .passed
                : .failure(
                    message: failures[0],
                    details: (failures + diff.expected).joined(separator: "\n") + "\n\n" + diff.alignment)
            return JUnitReport.Case(
                classname: classname, name: diff.id, seconds: 0, properties: properties, outcome: outcome,
                systemOut: "legacy:   \(diff.legacy.eventOrder)\nanalyzer: \(diff.analyzer.eventOrder)")
        }
        cases += summary.problems.enumerated().map { index, problem in
            JUnitReport.Case(
                classname: classname, name: "problem-\(index + 1)", seconds: 0,
                outcome: .error(message: problem, details: problem))
        }
        return JUnitReport(
            name: "speech-harness migrate diff",
            suites: [JUnitReport.Suite(name: "migrate-diff.\(summary.engine)", timestamp: Date(), cases: cases)])
    }

    public static func markdown(_ summary: MigrationSummary) -> String {
        let md = BenchReports.md
        let transcript = summary.transcript
        let updates = summary.meanUpdates, revisions = summary.revisions
        let gated = summary.gates.isEmpty ? "" : " or beyond a gate"
        let expectedOnly = summary.differing - summary.noticeablyDiffering
        let manifestName = summary.manifest.replacingOccurrences(of: "`", with: "'")
        let counts: String =
            "Manifest `\(manifestName)` · \(summary.utterances.count) utterances · \(summary.failing) with differences a user "
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
            summary.tails.map { tails in
                "\nLost tail (reference words of the last \(format(TailLoss.window, 0)) s that no final result holds): "
                    + "\(md(summary.sides.old)) \(tails.old.lost) of \(tails.old.words), \(md(summary.sides.new)) \(tails.new.lost) of \(tails.new.words)."
            } ?? "",
        ]
        let failing = summary.utterances.filter { !summary.failures($0).isEmpty }
        if !failing.isEmpty {
            lines += [
                "", "### Changes a user would notice", "",
                "| utterance | legacy final | analyzer final | what changes |", "| --- | --- | --- | --- |",
            ]
            lines += failing.prefix(100).map {
                "| \(md($0.id)) | \(md($0.legacy.finalText)) | \(md($0.analyzer.finalText)) | \(md(summary.failures($0).joined(separator: "; "))) |"
            }
            if failing.count > 100 { lines += ["", "\(failing.count - 100) more in the JUnit file."] }
        }
        if !summary.differenceKinds.isEmpty {
            lines +=
                ["", "### Every kind of difference", "", "| difference | utterances |", "| --- | ---: |"]
                + summary.differenceKinds.map { "| \(md($0.kind)) | \($0.count) |" }
        }
        let delays = summary.utterances.compactMap(\.finalDelay).sorted()
        if !delays.isEmpty {
            lines += [
                "",
                "Expected differences of the new API pass unless a gate bounds them (`migrateDiff` in a gates file). "
                    + "Last final result, analyzer minus legacy: median \(seconds(delays[delays.count / 2])) s, latest \(seconds(delays.last!)) s of audio.",
            ]
        }
        if !summary.problems.isEmpty {
            lines += ["", "**Could not be run**", ""] + summary.problems.prefix(50).map { "- " + md($0) }
        }
        lines += [
            "",
            "Legacy shows its cumulative best transcription; the analyzer side shows finals so far plus the current volatile text. Times are seconds of audio processed.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    static func seconds(_ value: Double) -> String { BenchReports.format(value, 3) }
    static func format(_ value: Double, _ digits: Int) -> String { BenchReports.format(value, digits) }
}

/// The migration diff's differing utterances, each opening both sides on one time axis: the old
/// final transcript aligned with the new one, and every update each side showed the app.
public enum MigrationPage {
    /// What the manifest says about an utterance the diff ran.
    public struct Source: Sendable {
        public var reference: String
        public var speaker: String
        public var tier: String
        public var words: [StreamingTimeline.TimedWord]
        public var audio: String?

        public init(
            reference: String, speaker: String, tier: String, words: [StreamingTimeline.TimedWord], audio: String?
        ) {
            self.reference = reference
            self.speaker = speaker
            self.tier = tier
            self.words = words
            self.audio = audio
        }
    }

    /// One differing utterance: its runs (old, new), its alignment, and why it differs.
    struct Item: Encodable {
        var runs: [Int]
        var alignment: [ExplorerData.Step]
        var failures: [String]
        var expected: [String]
    }

    public static func render(
        _ summary: MigrationSummary, sources: [String: Source], reportDirectory: String, embedAudio: Bool = false,
        links: [ReportLink], page: String
    ) throws -> String {
        let (old, new) = summary.sides
        let differing = summary.utterances.filter { !$0.isSame }
        let audio = ReportAudio.sources(
            files: differing.map {
                (ExplorerData.utteranceKey(manifest: summary.manifest, id: $0.id), sources[$0.id]?.audio)
            },
            reportDirectory: reportDirectory, embed: embedAudio)
        var explorer = ExplorerData(engines: [old, new], partialEngines: [old, new], utterances: [], runs: [])
        var items: [Item] = []
        for diff in differing {
            let source = sources[diff.id]
            let player = audio[ExplorerData.utteranceKey(manifest: summary.manifest, id: diff.id)]
            explorer.utterances.append(
                ExplorerData.Utterance(
                    id: diff.id, manifest: summary.manifest,
                    tier: source?.tier ?? BenchReports.tierName(ofManifest: summary.manifest),
                    speaker: source?.speaker ?? "", reference: source?.reference ?? "",
                    seconds: ExplorerData.rounded(diff.audioSeconds),
                    audio: player?.href, audioNote: player?.note ?? (source == nil ? "not in the manifest" : nil),
                    words: (source?.words ?? []).map { ExplorerData.Word(start: $0.start, end: $0.end, word: $0.word) },
                    differs: true))
            for (side, trace) in [(0, diff.legacy), (1, diff.analyzer)] {
                explorer.runs.append(run(trace, utterance: explorer.utterances.count - 1, engine: side))
            }
            items.append(
                Item(
                    runs: [explorer.runs.count - 2, explorer.runs.count - 1],
                    alignment: (Alignment(pralign: diff.alignment)?.steps ?? []).map(ExplorerData.Step.init),
                    failures: summary.failures(diff), expected: diff.expected))
        }
        let e = HTMLReport.escape
        var html = ReportPage.open(title: "SpeechHarness migration diff", links: links, current: page)
        html +=
            "<h1>Migration diff: \(e(old)) and \(e(new))</h1>\n<p>Engine <code>\(e(summary.engine))</code>, manifest <code>\(e(summary.manifest))</code>: "
            + "\(summary.utterances.count) utterances, \(summary.failing) differ in a way a user would notice (or beyond a gate), "
            + "\(summary.differing - summary.failing) only as the new API is documented to"
            + (summary.problems.isEmpty ? "" : "; \(summary.problems.count) could not be run") + ".</p>\n"
        if !summary.problems.isEmpty {
            html += "<ul>" + summary.problems.map { "<li>\(e($0))</li>" }.joined() + "</ul>\n"
        }
        let filters = """
            <label>Show <select id="verdict"><option value="">every difference</option><option value="fails">noticeable only</option>\
            <option value="expected">expected only</option></select></label>
            """
        html += ReportPage.list(
            filters: filters, headers: ["utterance", "verdict", "differences", old + " final", new + " final"],
            caption: "Utterances where the two sides differ, noticeable first")
        html += try ReportPage.scripts(
            data: ExplorerData.With(explorer: explorer, key: "items", extra: items), ReportScripts.common,
            ReportScripts.migration)
        return html + "</body></html>\n"
    }

    /// A side's updates as timeline events: what the app showed, when (seconds of audio processed);
    /// every final result, and each partial that changed the display.
    static func run(_ trace: APITrace, utterance: Int, engine: Int) -> ExplorerData.Run {
        var shown: [String] = []
        var events: [ExplorerData.Event] = []
        for event in trace.events where event.kind == .final || (event.kind == .partial && event.shown != shown) {
            shown = event.shown
            events.append(
                ExplorerData.Event(
                    event: StreamingTimeline.Event(
                        time: event.audioTime, isFinal: event.kind == .final, words: event.shown, rangeStart: 0,
                        rangeEnd: event.audioTime)))
        }
        return ExplorerData.Run(
            utterance: utterance, engine: engine, hypothesis: trace.finalText, substitutions: 0, deletions: 0,
            insertions: 0,
            referenceWords: 0, alignment: [], events: events, firstPartial: nil, final: nil, compute: 0,
            error: trace.error)
    }
}
