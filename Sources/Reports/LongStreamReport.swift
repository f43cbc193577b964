import Foundation
import Metrics
import Records

/// `bench long-stream`'s reports: a Markdown summary (the first and last minutes side by side,
/// then every minute) and a page with a line chart per engine of latency over the session.
public enum LongStreamReport {
    /// Minutes at each end compared in the summary.
    public static let endMinutes = 5

    /// A table of the report, rendered as Markdown or HTML.
    struct Table {
        var title: String
        var headers: [String]
        var rows: [[String]]
        var note: String?
    }

    static func introduction(_ records: [LongStreamRecord]) -> String? {
        guard let first = records.first else { return nil }
        return
            "One stream of \(format(first.audioSeconds / 60, 1)) minutes (\(first.pieces) recordings), \(first.pacing) pacing, scored with `\(first.policy)`. "
            + "Latencies in seconds after the word's end; CPU in engine seconds per audio second; RSS in MiB (tool + workers)."
    }

    static func tables(_ records: [LongStreamRecord]) -> [Table] {
        // As many minutes at each end as the stream has, up to `endMinutes`.
        let count = records.first.map { $0.ends(endMinutes).first.count } ?? endMinutes
        let span = count == 1 ? "minute" : "\(count) minutes"
        var ends = Table(
            title: "First and last \(span)",
            headers: [
                "engine", "WER", "word shown P50", "word shown P90", "word final P50", "word final P90", "CPU/s", "RSS",
            ],
            rows: [],
            note:
                "Each cell: the first \(span) → the last \(span) (WER pooled over their words, latencies the median of the minutes' percentiles, CPU per audio second over them, RSS the highest reading)."
        )
        var whole = Table(
            title: "Whole session",
            headers: [
                "engine", "WER", "word shown P50 / P90 / P99", "word final P50 / P90 / P99", "drain", "CPU s", "CPU/s",
            ],
            rows: [])
        var minutes: [Table] = []
        for record in records {
            guard record.error == nil else {
                ends.rows.append([record.engine, "failed: \(record.error ?? "")", "", "", "", "", "", ""])
                continue
            }
            let (head, tail) = record.ends(endMinutes)
            func pair(_ value: ([LongStreamMinute]) -> String) -> String { "\(value(head)) → \(value(tail))" }
            ends.rows.append([
                record.engine, pair { format(wer($0) * 100, 1) + "%" },
                pair { format(median($0.compactMap(\.hypothesisP50)), 2) },
                pair { format(median($0.compactMap(\.hypothesisP90)), 2) },
                pair { format(median($0.compactMap(\.confirmedP50)), 2) },
                pair { format(median($0.compactMap(\.confirmedP90)), 2) }, pair { format(cpu($0), 3) },
                pair { mebibytes(peak($0)) },
            ])
            whole.rows.append([
                record.engine, format(record.wer * 100, 1) + "%", percentiles(record.hypothesisLatency),
                percentiles(record.confirmedLatency), format(record.drain, 2),
                format(record.computeSeconds, 1) + (record.computeClock == "wall" ? "*" : ""),
                format(record.cpuPerAudioSecond, 3),
            ])
            minutes.append(
                Table(
                    title: "\(record.engine), minute by minute",
                    headers: [
                        "minute", "words", "WER", "shown P50", "shown P90", "final P50", "final P90", "CPU/s",
                        "RSS tool",
                        "RSS workers",
                    ],
                    rows: record.minutes.map { m in
                        [
                            "\(m.minute + 1)", "\(m.words.referenceLength)", format(m.wer * 100, 1) + "%",
                            format(m.hypothesisP50, 2), format(m.hypothesisP90, 2), format(m.confirmedP50, 2),
                            format(m.confirmedP90, 2), format(m.cpuPerAudioSecond, 3), mebibytes(m.toolResidentPeak),
                            mebibytes(m.workerResidentPeak),
                        ]
                    }))
        }
        return [ends, whole] + minutes
    }

    public static func markdown(_ records: [LongStreamRecord]) -> String {
        var out = "## Long streams\n\n"
        guard let introduction = introduction(records) else { return out + "No engine ran.\n" }
        out += introduction + "\n"
        for table in tables(records) {
            out += "\n### \(table.title)\n\n| " + table.headers.joined(separator: " | ") + " |\n|"
            out += String(repeating: "---|", count: table.headers.count) + "\n"
            for row in table.rows { out += "| " + row.joined(separator: " | ") + " |\n" }
            if let note = table.note { out += "\n" + note + "\n" }
        }
        return out
    }

    /// The page: a chart per engine (word shown and word final P50/P90 per minute), then the tables.
    public static func html(_ records: [LongStreamRecord], links: [ReportLink], current: String) -> String {
        var html = ReportPage.open(
            title: "SpeechHarness long streams", links: links, current: current,
            extraStyle: "svg text{font-size:11px}.multiples{display:flex;flex-wrap:wrap;gap:1em}")
        html += "<h1>Long streams</h1>\n"
        if let introduction = introduction(records) {
            html += "<p>\(HTMLReport.escape(introduction.replacingOccurrences(of: "`", with: "")))</p>\n"
        }
        html +=
            "<h2>Per-word latency over the session</h2>\n<p>When each reference word was first shown, and when it was final, after its end. Solid: P50; dashed: P90. Blue: shown; orange: final.</p>\n<div class=multiples>"
        for record in records where record.error == nil { html += chart(record) }
        html += "</div>\n"
        for table in tables(records) {
            html += "<h2>\(HTMLReport.escape(table.title))</h2>\n<table><tr>"
            html +=
                table.headers.enumerated().map { index, header in
                    "<th scope=\"col\"\(index == 0 ? " class=l" : "")>\(HTMLReport.escape(header))</th>"
                }.joined() + "</tr>\n"
            for row in table.rows {
                html +=
                    "<tr><td class=l>\(HTMLReport.escape(row[0]))</td>"
                    + row.dropFirst().map { "<td>\(HTMLReport.escape($0))</td>" }.joined() + "</tr>\n"
            }
            html += "</table>\n"
            if let note = table.note { html += "<p>\(HTMLReport.escape(note))</p>\n" }
        }
        return html + "</body></html>\n"
    }

    static func chart(_ record: LongStreamRecord) -> String {
        let left = 44.0, width = 420.0, height = 180.0, top = 24.0
        let series: [(String, String, KeyPath<LongStreamMinute, Double?>)] = [
            ("shown P50", HTMLReport.palette[0], \.hypothesisP50),
            ("shown P90", HTMLReport.palette[0], \.hypothesisP90),
            ("final P50", HTMLReport.palette[1], \.confirmedP50), ("final P90", HTMLReport.palette[1], \.confirmedP90),
        ]
        let values = series.flatMap { entry in record.minutes.compactMap { $0[keyPath: entry.2] } }
        let highest = max(0.5, values.max() ?? 0.5), lowest = min(0, values.min() ?? 0)
        let span = highest - lowest
        let count = max(1, record.minutes.count - 1)
        func x(_ minute: Int) -> Double { left + (width - left) * Double(minute) / Double(count) }
        func y(_ value: Double) -> Double { top + (height - top) * (1 - (value - lowest) / span) }
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width + 20))\" height=\"\(Int(height + 40))\" role=\"img\" aria-label=\"\(HTMLReport.escape(record.engine)): per-word latency by minute\">"
        svg += "<text x=\"\(left)\" y=\"14\" font-weight=\"bold\">\(HTMLReport.escape(record.engine))</text>"
        svg +=
            "<line x1=\"\(left)\" x2=\"\(width)\" y1=\"\(height)\" y2=\"\(height)\" stroke=\"#999\"/><line x1=\"\(left)\" x2=\"\(left)\" y1=\"\(top)\" y2=\"\(height)\" stroke=\"#999\"/>"
        for step in 0...4 {
            let value = lowest + span * Double(step) / 4
            svg +=
                "<text x=\"\(left - 4)\" y=\"\(y(value) + 4)\" text-anchor=\"end\">\(format(value, 1))</text>"
        }
        for minute in Set([0, record.minutes.count / 2, record.minutes.count - 1]).sorted() where minute >= 0 {
            svg += "<text x=\"\(x(minute))\" y=\"\(height + 14)\" text-anchor=\"middle\">\(minute + 1)</text>"
        }
        svg +=
            "<text x=\"\((left + width) / 2)\" y=\"\(height + 32)\" text-anchor=\"middle\">minute of the stream; latency (s)</text>"
        for (name, colour, path) in series {
            let points = record.minutes.compactMap { m in m[keyPath: path].map { "\(x(m.minute)),\(y($0))" } }
            guard !points.isEmpty else { continue }
            svg +=
                "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-dasharray=\"\(name.hasSuffix("P90") ? "5,3" : "none")\" points=\"\(points.joined(separator: " "))\"><title>\(name)</title></polyline>"
            for point in points {
                let xy = point.split(separator: ",")
                svg +=
                    "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"2\" fill=\"\(colour)\"><title>\(name)</title></circle>"
            }
        }
        return svg + "</svg>"
    }

    static func wer(_ minutes: [LongStreamMinute]) -> Double {
        minutes.reduce(ErrorCounts()) { $0 + $1.words }.errorRate
    }

    static func cpu(_ minutes: [LongStreamMinute]) -> Double? {
        let values = minutes.compactMap(\.cpuPerAudioSecond)
        return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    static func peak(_ minutes: [LongStreamMinute]) -> Int? {
        let totals = minutes.compactMap { m -> Int? in
            guard m.toolResidentPeak != nil || m.workerResidentPeak != nil else { return nil }
            return (m.toolResidentPeak ?? 0) + (m.workerResidentPeak ?? 0)
        }
        return totals.max()
    }

    static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : ErrorRateStatistics.percentile(values.sorted(), 0.5)
    }

    static func percentiles(_ value: LatencyPercentiles?) -> String {
        guard let value else { return "–" }
        return "\(format(value.p50, 2)) / \(format(value.p90, 2)) / \(format(value.p99, 2))"
    }

    static func mebibytes(_ bytes: Int?) -> String {
        bytes.map { String(format: "%.0f", Double($0) / 1_048_576) } ?? "–"
    }

    static func format(_ value: Double?, _ digits: Int) -> String { BenchReports.format(value, digits) }
}
