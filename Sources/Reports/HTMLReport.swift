import Foundation
import Metrics
import Records

/// A self-contained HTML page (no external assets) with SVG charts: WER with 95% intervals per
/// tier (one small chart each), latency distributions, speed; sortable tables.
public enum HTMLReport {
    public static func escape(_ text: String) -> String {
        var out = ""
        for ch in JUnitWriter.sanitize(text) {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }

    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]

    /// Engines that published partial results (unknown counts as yes); the rest give finals only.
    static func partialEngines(_ results: BenchResults) -> Set<String> {
        Set(results.summaries.filter { $0.emitsPartials != false }.map(\.engine))
    }

    public static func render(results: BenchResults, records: [UtteranceRecord], links: [ReportLink] = []) -> String {
        let engines = Array(Set(results.summaries.map(\.engine))).sorted()
        let partialEngines = Self.partialEngines(results)
        var html = ReportPage.open(
            title: "SpeechHarness benchmark", links: links, current: ReportLink.overview.file,
            extraStyle: """
                svg text{font-size:11px}svg .title{font-size:13px;font-weight:bold}
                .multiples{display:flex;flex-wrap:wrap;gap:1em}.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1em}
                .swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:middle}
                th button{font:inherit;background:none;border:0;padding:0;cursor:pointer}
                """)
        html += """
            <h1>SpeechHarness benchmark</h1>
            <p>Scoring: <code>\(escape(results.policy))</code> · pacing: \(escape(results.pacing)) · shard \(escape(results.shard)) · \(escape(results.createdAt))</p>
            """
        html +=
            "<h2>Word error rate per tier (95% bootstrap interval)</h2>\n"
            + legendList(engines, partialEngines: partialEngines) + werCharts(results.summaries, engines: engines)
        html +=
            "<h2>First-partial and finalisation latency</h2>\n"
            + latencyChart(records, engines: engines, partialEngines: partialEngines)
        html += "<h2>Speed</h2>\n" + speedChart(results.summaries, engines: engines)
        html +=
            "<h2>Figures</h2>\n<table class=sortable><tr><th class=l>engine</th><th class=l>tier</th><th>utterances</th><th>words</th><th>WER</th><th>CER</th><th>RTFx (CPU)</th><th>RTFx (wall)</th><th>first partial P50</th><th>final P50</th><th title=\"per reference word: first shown, after its end\">word shown P90</th><th title=\"per reference word: final, after its end\">word final P90</th></tr>\n"
        for s in results.summaries {
            html +=
                "<tr><td class=l>\(escape(s.engine))</td><td class=l>\(escape(BenchReports.tierLabel(s)))</td><td>\(s.utterances)</td><td>\(s.referenceWords)</td>"
            html +=
                "<td>\(BenchReports.format(s.wer * 100, 1))%</td><td>\(BenchReports.format(s.cer * 100, 1))%</td><td>\(BenchReports.format(s.rtfx, 1))\(s.computeClock == "wall" ? "*" : "")</td>"
            html +=
                "<td>\(BenchReports.format(s.wallRTFx, 1))</td><td>\(s.emitsPartials == false ? "final only" : BenchReports.format(s.firstPartialP50, 2))</td><td>\(BenchReports.format(s.finalizationP50, 2))</td><td>\(BenchReports.format(s.hypothesisLatency?.p90, 2))</td><td>\(BenchReports.format(s.confirmedLatency?.p90, 2))</td></tr>\n"
        }
        html += "</table>\n"
        if results.summaries.contains(where: { $0.speakerDependent == true }) {
            html += "<p>\(escape(BenchReports.speakerDependentNote))</p>\n"
        }
        if let comparisons = results.comparisons, !comparisons.isEmpty {
            html +=
                "<h2>Engines compared on the same utterances (paired bootstrap)</h2>\n<table class=sortable><tr><th class=l>tier</th><th class=l>A</th><th class=l>B</th>"
                + "<th>utterances</th><th>WER A</th><th>WER B</th><th>WER B − A</th><th>95% interval</th><th>P(B better)</th></tr>\n"
            for c in comparisons {
                let tier = BenchReports.tierName(ofManifest: c.manifest)
                html +=
                    "<tr><td class=l>\(escape(tier))</td><td class=l>\(escape(BenchReports.engineLabel(c.a, manifest: c.manifest, results.summaries)))</td><td class=l>\(escape(BenchReports.engineLabel(c.b, manifest: c.manifest, results.summaries)))</td><td>\(c.utterances)</td>"
                html +=
                    "<td>\(BenchReports.format(c.werA * 100, 1))%</td><td>\(BenchReports.format(c.werB * 100, 1))%</td><td>\(BenchReports.format(c.difference * 100, 1))</td>"
                html +=
                    "<td>\(BenchReports.format(c.differenceCI95.first.map { $0 * 100 }, 1))…\(BenchReports.format(c.differenceCI95.last.map { $0 * 100 }, 1))</td>"
                html += "<td>\(BenchReports.format(c.probabilityBBetter, 2))</td></tr>\n"
            }
            html += "</table>\n"
        }
        if !results.issues.isEmpty || !results.gateFailures.isEmpty {
            html += "<h2>Problems</h2><ul>\n"
            for failure in results.gateFailures { html += "<li>gate: \(escape(failure.description))</li>\n" }
            for issue in results.issues.prefix(100) {
                html += "<li>\(escape(issue.engine ?? "corpus")): \(escape(issue.message))</li>\n"
            }
            html += "</ul>\n"
        }
        return html + sortScript + "</body></html>\n"
    }

    /// Sorts a table by a header's column when its button is pressed (numbers as numbers);
    /// inline, so the page works without a network.
    static let sortScript = """
        <script>
        for (const table of document.querySelectorAll("table.sortable")) {
          const headers = table.rows[0].cells;
          for (let column = 0; column < headers.length; column++) {
            const cell = headers[column];
            const button = document.createElement("button");
            button.textContent = cell.textContent;
            button.title = "sort by " + cell.textContent;
            cell.textContent = "";
            cell.appendChild(button);
            button.addEventListener("click", () => {
              const ascending = cell.getAttribute("aria-sort") !== "ascending";
              for (const other of headers) other.removeAttribute("aria-sort");
              cell.setAttribute("aria-sort", ascending ? "ascending" : "descending");
              const rows = Array.from(table.rows).slice(1);
              const key = (row) => { const text = row.cells[column].textContent; const number = parseFloat(text); return isNaN(number) ? text : number; };
              rows.sort((a, b) => { const x = key(a), y = key(b); const order = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === "number" ? -1 : 1); return ascending ? order : -order; });
              for (const row of rows) table.tBodies[0].appendChild(row);
            });
          }
        }
        </script>

        """

    static func color(_ engine: String, _ engines: [String]) -> String {
        palette[(engines.firstIndex(of: engine) ?? 0) % palette.count]
    }

    /// The engines' colours as a list (a text alternative to the colours), engines without partial
    /// results marked.
    static func legendList(_ engines: [String], partialEngines: Set<String>) -> String {
        "<ul class=legend>"
            + engines.map { engine in
                "<li><span class=swatch style=\"background:\(color(engine, engines))\"></span>\(escape(engine))\(partialEngines.contains(engine) ? "" : " (final results only)")</li>"
            }.joined() + "</ul>\n"
    }

    /// One small chart per tier, engines side by side: bars with their interval and their value
    /// written above (so 0% is a label, not a gap), a titled percentage axis.
    static func werCharts(_ summaries: [BenchSummary], engines: [String]) -> String {
        let tiers = Array(Set(summaries.map(BenchReports.tier))).sorted()
        guard !tiers.isEmpty else { return "<p>No results.</p>\n" }
        return "<div class=multiples>"
            + tiers.map { tier in
                werChart(tier: tier, summaries.filter { BenchReports.tier($0) == tier }, engines: engines)
            }.joined() + "</div>\n"
    }

    /// The axis top: the first of 5%, 10%, 20%, 25%, 50% … at or above `value` (a rate).
    static func niceCeiling(_ value: Double) -> Double {
        var scale = 0.01
        while true {
            for step in [5.0, 10, 20, 25, 50] where step * scale >= value { return step * scale }
            scale *= 10
        }
    }

    static func werChart(tier: String, _ rows: [BenchSummary], engines: [String]) -> String {
        let present = engines.filter { engine in rows.contains { $0.engine == engine } }
        let barWidth = 26.0, left = 52.0, plot = 150.0, top = 30.0
        let dependent = rows.contains { $0.speakerDependent == true }
        let width = max(235, left + Double(present.count) * (barWidth + 8) + 10),
            height = top + plot + (dependent ? 46 : 30)
        let maximum = niceCeiling(rows.map { $0.werCI95.last ?? $0.wer }.filter(\.isFinite).max() ?? 0)
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\" "
            + "aria-label=\"\(escape(tier)): WER per engine\"><title>\(escape(tier)): "
            + rows.map {
                "\(escape($0.engine)) \(BenchReports.format($0.wer * 100, 1))%\($0.speakerDependent == true ? " (speaker-dependent)" : "")"
            }.joined(separator: ", ")
            + "</title>"
        svg += "<text class=\"title\" x=\"\(left)\" y=\"14\">\(escape(tier))</text>"
        svg += "<text transform=\"translate(12,\(top + plot / 2)) rotate(-90)\" text-anchor=\"middle\">WER (%)</text>"
        for step in 0...4 {
            let value = maximum * Double(step) / 4, y = top + plot - plot * Double(step) / 4
            svg +=
                "<line x1=\"\(left)\" x2=\"\(width - 5)\" y1=\"\(y)\" y2=\"\(y)\" stroke=\"#eee\"/><text x=\"\(left - 4)\" y=\"\(y + 4)\" text-anchor=\"end\">\(BenchReports.format(value * 100, (value * 100).rounded() == value * 100 ? 0 : 1))</text>"
        }
        for (e, engine) in present.enumerated() {
            guard let s = rows.first(where: { $0.engine == engine }), s.wer.isFinite else { continue }
            let x = left + 6 + Double(e) * (barWidth + 8), h = plot * s.wer / maximum
            let mark = s.speakerDependent == true ? BenchReports.speakerDependentMark : ""
            // A speaker-dependent bar is pale, so it does not read as a figure for new speakers.
            svg +=
                "<rect x=\"\(x)\" y=\"\(top + plot - h)\" width=\"\(barWidth)\" height=\"\(max(h, 1))\" fill=\"\(color(engine, engines))\"\(mark.isEmpty ? "" : " fill-opacity=\"0.35\"")><title>\(escape(engine)): \(BenchReports.format(s.wer * 100, 1))%\(mark.isEmpty ? "" : ", speaker-dependent")</title></rect>"
            if s.werCI95.count == 2 {
                let y1 = top + plot - plot * s.werCI95[0] / maximum, y2 = top + plot - plot * s.werCI95[1] / maximum,
                    cx = x + barWidth / 2
                svg += "<line x1=\"\(cx)\" x2=\"\(cx)\" y1=\"\(y1)\" y2=\"\(y2)\" stroke=\"#000\"/>"
            }
            let labelY = top + plot - plot * max(s.wer, s.werCI95.last ?? s.wer) / maximum - 3
            svg +=
                "<text x=\"\(x + barWidth / 2)\" y=\"\(max(top - 2, labelY))\" text-anchor=\"middle\">\(BenchReports.format(s.wer * 100, 1))\(mark)</text>"
        }
        if dependent {
            svg +=
                "<text x=\"\(left)\" y=\"\(height - 6)\">\(BenchReports.speakerDependentMark) speaker-dependent (pale)</text>"
        }
        return svg + "</svg>"
    }

    /// Cumulative share of utterances against latency, with titled axes; engines that gave no
    /// partial results get no first-partial curve (their first result is their final).
    static func latencyChart(_ records: [UtteranceRecord], engines: [String], partialEngines: Set<String>) -> String {
        let left = 60.0, width = 560.0, height = 220.0
        var series: [(String, String, [Double])] = []
        for engine in engines {
            let measures = records.filter { $0.engine == engine && $0.error == nil }.map(\.measures)
            if partialEngines.contains(engine) {
                series.append((engine, "first partial", measures.compactMap(\.firstPartialLatency).sorted()))
            }
            series.append((engine, "final", measures.compactMap(\.finalizationLatency).sorted()))
        }
        let all = series.flatMap(\.2)
        guard let maxValue = all.max(), !all.isEmpty else {
            return "<p>No latency data (no word times in these manifests).</p>\n"
        }
        let minValue = min(0, all.min() ?? 0), span = max(0.1, maxValue - minValue)
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width + 240))\" height=\"\(Int(height + 50))\" role=\"img\" "
            + "aria-label=\"latency distributions: share of utterances against seconds\">"
        svg +=
            "<line x1=\"\(left)\" x2=\"\(width)\" y1=\"\(height)\" y2=\"\(height)\" stroke=\"#999\"/><line x1=\"\(left)\" x2=\"\(left)\" y1=\"10\" y2=\"\(height)\" stroke=\"#999\"/>"
        for step in 0...4 {
            let value = minValue + span * Double(step) / 4, x = left + (width - left) * Double(step) / 4
            svg +=
                "<text x=\"\(x)\" y=\"\(height + 14)\" text-anchor=\"middle\">\(BenchReports.format(value, 1))</text>"
        }
        for share in [0.0, 0.5, 1.0] {
            svg +=
                "<text x=\"\(left - 4)\" y=\"\(height - (height - 10) * share + 4)\" text-anchor=\"end\">\(BenchReports.format(share, 1))</text>"
        }
        svg +=
            "<text x=\"\((left + width) / 2)\" y=\"\(height + 32)\" text-anchor=\"middle\">latency (s): first partial after the first word starts, final after the last word ends</text>"
        svg +=
            "<text transform=\"translate(14,\(height / 2)) rotate(-90)\" text-anchor=\"middle\">share of utterances</text>"
        for (engine, kind, values) in series where !values.isEmpty {
            let points = values.enumerated().map { i, v in
                "\(left + (width - left) * (v - minValue) / span),\(height - (height - 10) * Double(i + 1) / Double(values.count))"
            }.joined(separator: " ")
            svg +=
                "<polyline fill=\"none\" stroke=\"\(color(engine, engines))\" stroke-dasharray=\"\(kind == "final" ? "5,3" : "none")\" points=\"\(points)\"><title>\(escape(engine)) \(kind)</title></polyline>"
        }
        let noPartials = engines.filter { !partialEngines.contains($0) }
        svg +=
            "<text x=\"\(width + 20)\" y=\"20\">solid: first partial</text><text x=\"\(width + 20)\" y=\"36\">dashed: final</text>"
        if !noPartials.isEmpty {
            svg += "<text x=\"\(width + 20)\" y=\"52\">final only: \(noPartials.count) engine(s), see legend</text>"
        }
        return svg + "</svg>\n"
    }

    static func speedChart(_ summaries: [BenchSummary], engines: [String]) -> String {
        let rows = summaries.filter { $0.rtfx > 0 }
        guard let top = rows.map(\.rtfx).max() else { return "<p>No speed data.</p>\n" }
        let height = Double(rows.count) * 18 + 40
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"\(Int(height))\" role=\"img\" aria-label=\"speed per engine and tier\">"
        svg +=
            "<text x=\"395\" y=\"\(height - 6)\">RTFx (CPU): audio seconds per second of the engine's CPU time, log scale</text>"
        for (i, s) in rows.enumerated() {
            let y = 10 + Double(i) * 18, w = 400 * log10(1 + s.rtfx) / log10(1 + top)
            svg +=
                "<text x=\"390\" y=\"\(y + 11)\" text-anchor=\"end\">\(escape(s.engine)) · \(escape(BenchReports.tier(s)))</text>"
            svg +=
                "<rect x=\"395\" y=\"\(y)\" width=\"\(w)\" height=\"14\" fill=\"\(color(s.engine, engines))\"/><text x=\"\(400 + w)\" y=\"\(y + 11)\">\(BenchReports.format(s.rtfx, 1))×</text>"
        }
        return svg + "</svg>\n"
    }
}
