import Foundation
import Metrics
import Records

/// A page of the report folder, for the navigation every page carries.
public struct ReportLink: Sendable, Hashable {
    public var title: String
    public var file: String

    public init(title: String, file: String) {
        self.title = title
        self.file = file
    }

    public static let overview = ReportLink(title: "Overview", file: "index.html")
    public static let explorer = ReportLink(title: "Utterances", file: "explorer.html")
    public static let regressions = ReportLink(title: "Regressions", file: "regressions.html")

    /// Where a page written to `file` goes and what it links to: the report pages already in its
    /// folder, itself included (under `title` if it is new there).
    public static func placing(_ file: String, title: String) -> (directory: String, page: String, links: [ReportLink])
    {
        let folder = (file as NSString).deletingLastPathComponent, page = (file as NSString).lastPathComponent
        let directory = folder.isEmpty ? "." : folder
        var links = existing(in: directory)
        if !links.contains(where: { $0.file == page }) { links.append(ReportLink(title: title, file: page)) }
        return (directory, page, links)
    }

    /// The report pages already in `directory`, in navigation order.
    public static func existing(in directory: String) -> [ReportLink] {
        [overview, explorer, regressions].filter { FileManager.default.fileExists(atPath: directory + "/" + $0.file) }
            + siblings(in: directory)
    }

    /// Pages other commands wrote into `directory`: conformance*.html, migration*.html and trace-diff*.html.
    static func siblings(in directory: String) -> [ReportLink] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        return files.compactMap { file in
            guard file.hasSuffix(".html") else { return nil }
            let stem = String(file.dropLast(5))
            for (prefix, title) in [
                ("conformance", "Conformance"), ("migration", "Migration"), ("trace-diff", "Trace diff"),
            ]
            where stem == prefix || stem.hasPrefix(prefix + "-") {
                let detail = stem.dropFirst(prefix.count + 1)
                return ReportLink(title: detail.isEmpty ? title : "\(title) (\(detail))", file: file)
            }
            return nil
        }
    }
}

/// The shell the report pages share: head, styles, navigation.
enum ReportPage {
    static func open(title: String, links: [ReportLink], current: String, extraStyle: String = "") -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>\(HTMLReport.escape(title))</title>
            <style>\(ReportScripts.style)\(extraStyle)</style></head><body>

            """
        if links.count > 1 {
            html +=
                "<nav aria-label=\"report pages\"><ul>"
                + links.map { link in
                    "<li><a href=\"\(HTMLReport.escape(link.file))\"\(link.file == current ? " aria-current=\"page\"" : "")>\(HTMLReport.escape(link.title))</a></li>"
                }.joined() + "</ul></nav>\n"
        }
        return html
    }

    /// The data element, as JSON no `<` in a transcript can end, and the scripts that read it.
    static func scripts(data: some Encodable, _ scripts: String...) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(data), as: UTF8.self).replacingOccurrences(
            of: "<", with: "\\u003c")
        return "<script type=\"application/json\" id=\"data\">\(json)</script>\n<script>\n"
            + scripts.joined(separator: "\n") + "\n</script>\n"
    }

    /// The filter form, status line, table and pager every list page has.
    static func list(filters: String, headers: [String], caption: String) -> String {
        """
        <section id="list" aria-label="\(HTMLReport.escape(caption))">
        <form id="filters" class="filters">\(filters)</form>
        <p id="status" aria-live="polite"></p>
        <table id="runs"><caption class="l">\(HTMLReport.escape(caption))</caption><thead><tr>\(headers.map { "<th class=\"l\" scope=\"col\">\(HTMLReport.escape($0))</th>" }.joined())</tr></thead><tbody></tbody></table>
        <p><button type="button" id="previous">previous page</button> <button type="button" id="next">next page</button></p>
        </section>
        <section id="view" hidden></section>

        """
    }
}

/// Every utterance × engine in one table (filter by engine, tier, speaker, errors, disagreement;
/// sort by errors), each row opening the utterance: the reference and each engine's hypothesis
/// aligned as sclite aligns them, the audio, and a timeline of the results against the words.
public enum UtteranceExplorer {
    public static func render(
        records: [UtteranceRecord], partialEngines: Set<String>, audio: [String: AudioSource],
        links: [ReportLink]
    ) throws -> String {
        let data = ExplorerData(records: records, partialEngines: partialEngines, audio: audio)
        var html = ReportPage.open(title: "SpeechHarness utterances", links: links, current: ReportLink.explorer.file)
        html +=
            "<h1>Utterances</h1>\n<p>\(data.utterances.count) utterances, \(data.runs.count) runs by \(data.engines.count) engines. "
            + "Open an utterance for its alignment (S substitution, D deletion, I insertion, errors in upper case as sclite prints them), "
            + "its audio and the timeline of its results.</p>\n"
        let filters = """
            <label>Engine <select id="engine"></select></label> <label>Tier <select id="tier"></select></label> \
            <label>Speaker <select id="speaker"></select></label> <label><input type="checkbox" id="has-errors"> has errors</label> \
            <label><input type="checkbox" id="differs"> differs between engines</label> \
            <label>Sort <select id="sort"><option value="errors">most errors first</option><option value="wer">highest WER first</option>\
            <option value="id">utterance id</option></select></label>
            """
        html += ReportPage.list(
            filters: filters,
            headers: ["utterance", "tier", "speaker", "engine", "errors", "S / D / I", "WER", "hypothesis"],
            caption: "Utterances and engines")
        html += try ReportPage.scripts(data: data, ReportScripts.common, ReportScripts.explorer)
        return html + "</body></html>\n"
    }
}

/// The utterances whose errors rose or fell against a baseline run, each opening both runs side by
/// side; the per engine and tier totals above them.
public enum RegressionPage {
    public static func render(
        _ comparison: RunComparison, baselineName: String, partialEngines: Set<String>, audio: [String: AudioSource],
        links: [ReportLink]
    ) throws -> String {
        let changes = comparison.changes
        let explorer = ExplorerData(
            records: changes.map(\.baseline) + changes.map(\.current), partialEngines: partialEngines, audio: audio)
        // Pairs of run indexes, baseline first.
        let data = ExplorerData.With(
            explorer: explorer, key: "pairs", extra: changes.indices.map { [$0, $0 + changes.count] })
        var html = ReportPage.open(
            title: "SpeechHarness regressions", links: links, current: ReportLink.regressions.file)
        html +=
            "<h1>Against the baseline</h1>\n<p>Baseline: <code>\(HTMLReport.escape(baselineName))</code>. \(comparison.matched) utterance runs "
            + "matched by engine, manifest and id; \(comparison.onlyInCurrent) only in this run, \(comparison.onlyInBaseline) only in the baseline"
            + (comparison.policyDiffers > 0
                ? "; \(comparison.policyDiffers) scored under another policy (left out)" : "") + ".</p>\n"
        html += "<h2>Word errors per engine and tier</h2>\n"
        if comparison.totals.isEmpty {
            html += "<p>No utterance of this run is in the baseline.</p>\n"
        } else {
            html +=
                "<table class=sortable><tr><th class=l>engine</th><th class=l>tier</th><th>utterances</th><th>WER baseline</th><th>WER now</th>"
                + "<th>change (points)</th><th>utterances worse</th><th>utterances better</th></tr>\n"
            for total in comparison.totals {
                let points = (total.current.errorRate - total.baseline.errorRate) * 100
                let change = abs(points) < 0.05 ? 0 : points
                html +=
                    "<tr><td class=l>\(HTMLReport.escape(total.engine))</td><td class=l>\(HTMLReport.escape(BenchReports.marked(total.tier, speakerDependent: total.speakerDependent)))</td><td>\(total.utterances)</td>"
                    + "<td>\(BenchReports.format(total.baseline.errorRate * 100, 1))%</td><td>\(BenchReports.format(total.current.errorRate * 100, 1))%</td>"
                    + "<td>\(change > 0 ? "+" : "")\(BenchReports.format(change, 1))</td><td>\(total.rose)</td><td>\(total.fell)</td></tr>\n"
            }
            html += "</table>\n"
            if comparison.totals.contains(where: \.speakerDependent) {
                html += "<p>\(HTMLReport.escape(BenchReports.speakerDependentNote))</p>\n"
            }
        }
        html += "<h2>Utterances that changed</h2>\n"
        if changes.isEmpty { html += "<p>No utterance's word errors changed.</p>\n" }
        let filters = """
            <label>Engine <select id="engine"></select></label> \
            <label>Show <select id="direction"><option value="">worse and better</option><option value="rose">worse only</option>\
            <option value="fell">better only</option></select></label>
            """
        html += ReportPage.list(
            filters: filters,
            headers: [
                "utterance", "tier", "engine", "errors then", "errors now", "change", "baseline hypothesis",
                "hypothesis now",
            ],
            caption: "Utterances whose word errors changed, the worst first")
        html +=
            try ReportPage.scripts(data: data, ReportScripts.common, ReportScripts.regressions) + HTMLReport.sortScript
        return html + "</body></html>\n"
    }
}
