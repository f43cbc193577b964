import Benchmark
import Foundation
import Metrics

/// A self-contained HTML page (no external assets) with SVG charts: WER with 95% intervals per
/// engine and tier, latency distributions, speed.
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

    public static func render(results: BenchResults, records: [UtteranceRecord]) -> String {
        let engines = Array(Set(results.summaries.map(\.engine))).sorted()
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>SpeechHarness benchmark</title>
        <style>body{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}
        th{background:#f4f4f4}td.l,th.l{text-align:left}svg text{font-size:11px}</style></head><body>
        <h1>SpeechHarness benchmark</h1>
        <p>Scoring: <code>\(escape(results.policy))</code> · pacing: \(escape(results.pacing)) · shard \(escape(results.shard)) · \(escape(results.createdAt))</p>
        """
        html += "<h2>Word error rate (95% bootstrap interval)</h2>\n" + werChart(results.summaries, engines: engines)
        html += "<h2>First-partial and finalisation latency (cumulative share of utterances)</h2>\n" + latencyChart(records, engines: engines)
        html += "<h2>Speed (RTFx: audio seconds per second of the engine's CPU time)</h2>\n" + speedChart(results.summaries, engines: engines)
        html += "<h2>Figures</h2>\n<table><tr><th class=l>engine</th><th class=l>tier</th><th>utterances</th><th>words</th><th>WER</th><th>CER</th><th>RTFx (CPU)</th><th>RTFx (wall)</th><th>first partial P50</th><th>final P50</th></tr>\n"
        for s in results.summaries {
            html += "<tr><td class=l>\(escape(s.engine))</td><td class=l>\(escape(BenchReports.tier(s)))</td><td>\(s.utterances)</td><td>\(s.referenceWords)</td>"
            html += "<td>\(BenchReports.format(s.wer * 100, 1))%</td><td>\(BenchReports.format(s.cer * 100, 1))%</td><td>\(BenchReports.format(s.rtfx, 1))\(s.computeClock == "wall" ? "*" : "")</td>"
            html += "<td>\(BenchReports.format(s.wallRTFx, 1))</td><td>\(BenchReports.format(s.firstPartialP50, 2))</td><td>\(BenchReports.format(s.finalizationP50, 2))</td></tr>\n"
        }
        html += "</table>\n"
        if let comparisons = results.comparisons, !comparisons.isEmpty {
            html += "<h2>Engines compared on the same utterances (paired bootstrap)</h2>\n<table><tr><th class=l>tier</th><th class=l>A</th><th class=l>B</th>"
                + "<th>utterances</th><th>WER A</th><th>WER B</th><th>WER B − A</th><th>95% interval</th><th>P(B better)</th></tr>\n"
            for c in comparisons {
                let tier = BenchReports.tierName(ofManifest: c.manifest)
                html += "<tr><td class=l>\(escape(tier))</td><td class=l>\(escape(c.a))</td><td class=l>\(escape(c.b))</td><td>\(c.utterances)</td>"
                html += "<td>\(BenchReports.format(c.werA * 100, 1))%</td><td>\(BenchReports.format(c.werB * 100, 1))%</td><td>\(BenchReports.format(c.difference * 100, 1))</td>"
                html += "<td>\(BenchReports.format(c.differenceCI95.first.map { $0 * 100 }, 1))…\(BenchReports.format(c.differenceCI95.last.map { $0 * 100 }, 1))</td>"
                html += "<td>\(BenchReports.format(c.probabilityBBetter, 2))</td></tr>\n"
            }
            html += "</table>\n"
        }
        if !results.issues.isEmpty || !results.gateFailures.isEmpty {
            html += "<h2>Problems</h2><ul>\n"
            for failure in results.gateFailures { html += "<li>gate: \(escape(failure.description))</li>\n" }
            for issue in results.issues.prefix(100) { html += "<li>\(escape(issue.engine ?? "corpus")): \(escape(issue.message))</li>\n" }
            html += "</ul>\n"
        }
        return html + "</body></html>\n"
    }

    static func color(_ engine: String, _ engines: [String]) -> String {
        palette[(engines.firstIndex(of: engine) ?? 0) % palette.count]
    }

    static func legend(_ engines: [String], x: Double, y: Double) -> String {
        engines.enumerated().map { i, engine in
            "<rect x=\"\(x)\" y=\"\(y + Double(i) * 16)\" width=\"10\" height=\"10\" fill=\"\(color(engine, engines))\"/><text x=\"\(x + 14)\" y=\"\(y + Double(i) * 16 + 9)\">\(escape(engine))</text>"
        }.joined()
    }

    static func werChart(_ summaries: [BenchSummary], engines: [String]) -> String {
        let tiers = Array(Set(summaries.map(BenchReports.tier))).sorted()
        guard !tiers.isEmpty else { return "<p>No results.</p>\n" }
        let barWidth = 14.0, groupGap = 24.0
        let groupWidth = Double(engines.count) * barWidth + groupGap
        let width = 60 + Double(tiers.count) * groupWidth + 180, height = 260.0, plot = 200.0
        let top = max(0.05, summaries.map { $0.werCI95.last ?? $0.wer }.filter(\.isFinite).max() ?? 0.05)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height + 60))\" role=\"img\" aria-label=\"WER per engine and tier\">"
        for step in 0...4 {
            let value = top * Double(step) / 4, y = 20 + plot - plot * Double(step) / 4
            svg += "<line x1=\"50\" x2=\"\(width - 180)\" y1=\"\(y)\" y2=\"\(y)\" stroke=\"#eee\"/><text x=\"45\" y=\"\(y + 4)\" text-anchor=\"end\">\(BenchReports.format(value * 100, 1))%</text>"
        }
        for (t, tier) in tiers.enumerated() {
            let x0 = 60 + Double(t) * groupWidth
            for (e, engine) in engines.enumerated() {
                guard let s = summaries.first(where: { $0.engine == engine && BenchReports.tier($0) == tier }), s.wer.isFinite else { continue }
                let x = x0 + Double(e) * barWidth, h = plot * s.wer / top
                svg += "<rect x=\"\(x)\" y=\"\(20 + plot - h)\" width=\"\(barWidth - 2)\" height=\"\(h)\" fill=\"\(color(engine, engines))\"><title>\(escape(engine)) \(escape(tier)): \(BenchReports.format(s.wer * 100, 1))%</title></rect>"
                if s.werCI95.count == 2 {
                    let y1 = 20 + plot - plot * s.werCI95[0] / top, y2 = 20 + plot - plot * s.werCI95[1] / top, cx = x + (barWidth - 2) / 2
                    svg += "<line x1=\"\(cx)\" x2=\"\(cx)\" y1=\"\(y1)\" y2=\"\(y2)\" stroke=\"#000\"/>"
                }
            }
            svg += "<text transform=\"translate(\(x0 + 4),\(20 + plot + 12)) rotate(30)\">\(escape(tier))</text>"
        }
        return svg + legend(engines, x: width - 170, y: 20) + "</svg>\n"
    }

    static func latencyChart(_ records: [UtteranceRecord], engines: [String]) -> String {
        let width = 560.0, height = 220.0
        var series: [(String, String, [Double])] = []
        for engine in engines {
            let measures = records.filter { $0.engine == engine && $0.error == nil }.map(\.measures)
            series.append((engine, "first partial", measures.compactMap(\.firstPartialLatency).sorted()))
            series.append((engine, "final", measures.compactMap(\.finalizationLatency).sorted()))
        }
        let all = series.flatMap(\.2)
        guard let maxValue = all.max(), !all.isEmpty else { return "<p>No latency data (no word times in these manifests).</p>\n" }
        let minValue = min(0, all.min() ?? 0), span = max(0.1, maxValue - minValue)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width + 200))\" height=\"\(Int(height + 40))\" role=\"img\" aria-label=\"latency CDFs\">"
        svg += "<line x1=\"40\" x2=\"\(width)\" y1=\"\(height)\" y2=\"\(height)\" stroke=\"#999\"/><text x=\"40\" y=\"\(height + 14)\">\(BenchReports.format(minValue, 2)) s</text><text x=\"\(width)\" y=\"\(height + 14)\" text-anchor=\"end\">\(BenchReports.format(maxValue, 2)) s</text>"
        for (engine, kind, values) in series where !values.isEmpty {
            let points = values.enumerated().map { i, v in
                "\(40 + (width - 40) * (v - minValue) / span),\(height - (height - 10) * Double(i + 1) / Double(values.count))"
            }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(color(engine, engines))\" stroke-dasharray=\"\(kind == "final" ? "5,3" : "none")\" points=\"\(points)\"><title>\(escape(engine)) \(kind)</title></polyline>"
        }
        svg += legend(engines, x: width + 20, y: 10) + "<text x=\"\(width + 20)\" y=\"\(Double(engines.count) * 16 + 26)\">solid: first partial; dashed: final</text>"
        return svg + "</svg>\n"
    }

    static func speedChart(_ summaries: [BenchSummary], engines: [String]) -> String {
        let rows = summaries.filter { $0.rtfx > 0 }
        guard let top = rows.map(\.rtfx).max() else { return "<p>No speed data.</p>\n" }
        let height = Double(rows.count) * 18 + 20
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"\(Int(height))\" role=\"img\" aria-label=\"RTFx\">"
        for (i, s) in rows.enumerated() {
            let y = 10 + Double(i) * 18, w = 400 * log10(1 + s.rtfx) / log10(1 + top)
            svg += "<text x=\"250\" y=\"\(y + 11)\" text-anchor=\"end\">\(escape(s.engine)) · \(escape(BenchReports.tier(s)))</text>"
            svg += "<rect x=\"255\" y=\"\(y)\" width=\"\(w)\" height=\"14\" fill=\"\(color(s.engine, engines))\"/><text x=\"\(260 + w)\" y=\"\(y + 11)\">\(BenchReports.format(s.rtfx, 1))×</text>"
        }
        return svg + "</svg>\n"
    }
}
