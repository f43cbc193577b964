import Foundation
import Records

/// Conformance results as JUnit: a suite per backend, a case per scenario with classname
/// `conformance.<backend>.<clause area>`, the clause as a property.
public enum ConformanceReport {
    public static func junit(
        _ results: [ConformanceRecord], coverageProblems: [String], clauses: [Clause]
    ) -> JUnitReport {
        let now = Date()
        let rules = Dictionary(uniqueKeysWithValues: clauses.map { ($0.id, $0) })
        var suites: [JUnitReport.Suite] = []
        for backend in Array(Set(results.map(\.backend))).sorted() {
            let cases = results.filter { $0.backend == backend }.map { result -> JUnitReport.Case in
                let area = result.scenario.clause.split(separator: "-").prefix(2).joined(separator: "-").lowercased()
                let outcome: JUnitReport.Outcome
                switch result.outcome {
                case .passed: outcome = .passed
                case .failed(let problems):
                    outcome = .failure(message: problems.first ?? "failed", details: problems.joined(separator: "\n"))
                case .skipped(let reason): outcome = .skipped(reason: reason)
                case .error(let message): outcome = .error(message: message, details: message)
                }
                let clause = rules[result.scenario.clause]
                return JUnitReport.Case(
                    classname: "conformance.\(backend).\(area)", name: result.scenario.id, seconds: result.seconds,
                    properties: [
                        ("clause", result.scenario.clause), ("source", clause?.source ?? ""),
                        ("rule", clause?.rule ?? ""),
                    ],
                    outcome: outcome, systemOut: result.scenario.title)
            }
            suites.append(JUnitReport.Suite(name: "conformance.\(backend)", timestamp: now, cases: cases))
        }
        if !coverageProblems.isEmpty {
            suites.append(
                JUnitReport.Suite(
                    name: "conformance.coverage", timestamp: now,
                    cases: coverageProblems.map {
                        JUnitReport.Case(
                            classname: "conformance.coverage", name: $0, seconds: 0,
                            outcome: .failure(message: $0, details: $0))
                    }))
        }
        return JUnitReport(name: "speech-harness conformance", suites: suites)
    }
}

extension ConformanceReport {
    /// A clause × backend grid (pass, skip with its reason, fail), then every scenario that did not
    /// pass with what went wrong. Static HTML: no script needed to read it.
    public static func html(
        _ results: [ConformanceRecord], backends: [String], coverageProblems: [String], clauses: [Clause],
        links: [ReportLink], page: String
    ) -> String {
        let e = HTMLReport.escape
        var html = ReportPage.open(
            title: "SpeechHarness conformance", links: links, current: page,
            extraStyle: """
                td.pass{background:#e3f4e1}td.fail{background:#fbe0e0;font-weight:bold}td.skip{background:#f1f1f1;color:#555}td.l{max-width:40em}
                """)
        html +=
            "<h1>Conformance</h1>\n<p>\(clauses.count) clauses, \(Set(results.map(\.scenario.id)).count) scenarios, backends: "
            + backends.map { "<code>\(e($0))</code>" }.joined(separator: ", ")
            + ". A cell counts the clause's scenarios on that backend; "
            + "a clause fails when any of its scenarios fails, and is skipped when none could run (the reason is in the cell).</p>\n"
        html +=
            "<table><caption class=l>Summary per backend</caption><tr><th class=l scope=col>backend</th><th scope=col>passed</th>"
            + "<th scope=col>failed</th><th scope=col>skipped</th><th scope=col>errors</th></tr>\n"
        for backend in backends {
            let outcomes = results.filter { $0.backend == backend }.map(\.outcome)
            let count = { (test: (ScenarioOutcome) -> Bool) in outcomes.filter(test).count }
            html +=
                "<tr><td class=l>\(e(backend))</td><td>\(count { $0 == .passed })</td><td>\(count { if case .failed = $0 { true } else { false } })</td>"
                + "<td>\(count { if case .skipped = $0 { true } else { false } })</td><td>\(count { if case .error = $0 { true } else { false } })</td></tr>\n"
        }
        html +=
            "</table>\n<h2>Clauses by backend</h2>\n<table><caption class=l>Each documented clause on each backend</caption><tr><th class=l scope=col>clause</th>"
            + "<th class=l scope=col>rule</th>" + backends.map { "<th class=l scope=col>\(e($0))</th>" }.joined()
            + "</tr>\n"
        for clause in clauses {
            html +=
                "<tr><th class=l scope=row title=\"\(e(clause.source))\">\(e(clause.id))</th><td class=l>\(e(clause.rule))</td>"
            for backend in backends {
                let outcomes = results.filter { $0.backend == backend && $0.scenario.clause == clause.id }.map(
                    \.outcome)
                html += cell(outcomes)
            }
            html += "</tr>\n"
        }
        html += "</table>\n"
        let notPassed = results.filter { $0.outcome != .passed }
        html += "<h2>Scenarios that did not pass</h2>\n"
        if notPassed.isEmpty {
            html += "<p>Every scenario passed on every backend.</p>\n"
        } else {
            html +=
                "<table><tr><th class=l scope=col>backend</th><th class=l scope=col>scenario</th><th class=l scope=col>clause</th>"
                + "<th class=l scope=col>outcome</th><th class=l scope=col>why</th></tr>\n"
            for result in notPassed {
                let (kind, why): (String, String)
                switch result.outcome {
                case .passed: continue
                case .failed(let problems): (kind, why) = ("fail", problems.joined(separator: "; "))
                case .skipped(let reason): (kind, why) = ("skip", reason)
                case .error(let message): (kind, why) = ("error", message)
                }
                html +=
                    "<tr><td class=l>\(e(result.backend))</td><td class=l>\(e(result.scenario.id))</td><td class=l>\(e(result.scenario.clause))</td>"
                    + "<td class=\"l \(kind == "skip" ? "skip" : "fail")\">\(kind)</td><td class=l>\(e(why))</td></tr>\n"
            }
            html += "</table>\n"
        }
        if !coverageProblems.isEmpty {
            html += "<h2>Coverage problems</h2><ul>" + coverageProblems.map { "<li>\(e($0))</li>" }.joined() + "</ul>\n"
        }
        return html + "</body></html>\n"
    }

    /// One grid cell: the worst outcome decides its class; its text says how many and why.
    static func cell(_ outcomes: [ScenarioOutcome]) -> String {
        guard !outcomes.isEmpty else { return "<td class=l>–</td>" }
        var failed = 0, passed = 0
        var reasons: [String] = []
        for outcome in outcomes {
            switch outcome {
            case .passed: passed += 1
            case .failed, .error: failed += 1
            case .skipped(let reason): if !reasons.contains(reason) { reasons.append(reason) }
            }
        }
        let skipped = outcomes.count - passed - failed
        let reason = reasons.joined(separator: "; ")
        if failed > 0 { return "<td class=\"l fail\">fail \(failed) of \(outcomes.count)</td>" }
        if passed > 0 {
            return
                "<td class=\"l pass\">pass \(passed)\(skipped > 0 ? ", skip \(skipped)" : "")\(reason.isEmpty ? "" : "<br><small>\(HTMLReport.escape(reason))</small>")</td>"
        }
        return "<td class=\"l skip\">skip \(skipped)<br><small>\(HTMLReport.escape(reason))</small></td>"
    }
}
