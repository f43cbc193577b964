import Foundation
import Records

/// The `trace diff` page: a row per scenario (failed on semantics, differs in content, alike, or
/// unreadable), then each scenario's differences by kind with their figures. Static HTML.
public enum TraceDiffReport {
    /// One compared pair: its comparison, or why it could not be compared.
    public struct Pair: Sendable {
        public var name: String
        public var outcome: Result<TraceComparison, TraceDiffProblem>

        public init(name: String, outcome: Result<TraceComparison, TraceDiffProblem>) {
            self.name = name
            self.outcome = outcome
        }
    }

    public static func html(
        _ pairs: [Pair], first: String, second: String, links: [ReportLink], page: String
    )
        -> String
    {
        let e = HTMLReport.escape
        var html = ReportPage.open(
            title: "SpeechHarness trace diff", links: links, current: page,
            extraStyle: """
                td.pass{background:#e3f4e1}td.fail{background:#fbe0e0;font-weight:bold}td.content{background:#fff4d6}td.l{max-width:48em}
                """)
        let comparisons = pairs.compactMap { try? $0.outcome.get() }
        let failed = comparisons.filter(\.failed).count
        let unreadable = pairs.count - comparisons.count
        let differing = comparisons.filter { !$0.failed && !$0.differences.isEmpty }.count
        html +=
            "<h1>Trace diff</h1>\n<p><code>\(e(first))</code> against <code>\(e(second))</code>: \(pairs.count) "
            + "scenario\(pairs.count == 1 ? "" : "s"), \(failed) with semantic differences (a program would behave "
            + "differently), \(differing) with content or platform differences only, \(unreadable) that could not be "
            + "compared. Tolerances and classes: docs/session-traces.md.</p>\n"
        html +=
            "<table><caption class=l>Scenarios</caption><tr><th class=l scope=col>trace</th><th class=l scope=col>outcome</th>"
            + "<th scope=col>semantics</th><th scope=col>content</th><th scope=col>platform</th></tr>\n"
        for pair in pairs {
            switch pair.outcome {
            case .failure(let problem):
                html +=
                    "<tr><td class=l><a href=\"#\(anchor(pair.name))\">\(e(pair.name))</a></td><td class=\"l fail\">not compared</td>"
                    + "<td colspan=3 class=l>\(e(problem.description))</td></tr>\n"
            case .success(let comparison):
                let count = { (kind: TraceComparison.Kind) in comparison.differences.filter { $0.kind == kind }.count }
                let (kind, text) =
                    comparison.failed
                    ? ("fail", "semantic differences")
                    : comparison.differences.isEmpty
                        ? ("pass", "no differences") : ("content", "content or platform only")
                html +=
                    "<tr><td class=l><a href=\"#\(anchor(pair.name))\">\(e(pair.name))</a></td><td class=\"l \(kind)\">\(text)</td>"
                    + "<td>\(count(.semantics))</td><td>\(count(.content))</td><td>\(count(.platform))</td></tr>\n"
            }
        }
        html += "</table>\n"
        for pair in pairs {
            html += "<h2 id=\"\(anchor(pair.name))\">\(e(pair.name))</h2>\n"
            switch pair.outcome {
            case .failure(let problem):
                html += "<p>\(e(problem.description))</p>\n"
            case .success(let comparison) where comparison.differences.isEmpty:
                html += "<p>No differences.</p>\n"
            case .success(let comparison):
                html +=
                    "<table><tr><th class=l scope=col>kind</th><th class=l scope=col>clause</th><th class=l scope=col>difference</th></tr>\n"
                for kind in TraceComparison.Kind.allCases {
                    for difference in comparison.differences where difference.kind == kind {
                        let style = kind == .semantics ? "fail" : kind == .content ? "content" : ""
                        html +=
                            "<tr><td class=\"l \(style)\">\(kind.rawValue)</td><td class=l><code>\(e(difference.clause))</code></td>"
                            + "<td class=l>\(e(difference.detail))</td></tr>\n"
                    }
                }
                html += "</table>\n"
            }
        }
        return html + "</body></html>\n"
    }

    /// An id for a trace's section: its name with anything but letters, digits, '-' and '_' as '_'.
    static func anchor(_ name: String) -> String {
        "trace-" + String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }
}

/// Why two traces of a scenario could not be compared.
public struct TraceDiffProblem: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
