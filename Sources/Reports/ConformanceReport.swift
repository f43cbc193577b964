import Conformance
import Foundation

/// Conformance results as JUnit: a suite per backend, a case per scenario with classname
/// `conformance.<backend>.<clause area>`, the clause as a property.
public enum ConformanceReport {
    public static func junit(_ results: [ConformanceSuite.Result], coverageProblems: [String], clauses: [Clause]) -> JUnitReport {
        let now = Date()
        let rules = Dictionary(uniqueKeysWithValues: clauses.map { ($0.id, $0) })
        var suites: [JUnitReport.Suite] = []
        for backend in Array(Set(results.map(\.backend))).sorted() {
            let cases = results.filter { $0.backend == backend }.map { result -> JUnitReport.Case in
                let area = result.scenario.clause.split(separator: "-").prefix(2).joined(separator: "-").lowercased()
                let outcome: JUnitReport.Outcome
                switch result.outcome {
                case .passed: outcome = .passed
                case .failed(let problems): outcome = .failure(message: problems.first ?? "failed", details: problems.joined(separator: "\n"))
                case .skipped(let reason): outcome = .skipped(reason: reason)
                case .error(let message): outcome = .error(message: message, details: message)
                }
                let clause = rules[result.scenario.clause]
                return JUnitReport.Case(classname: "conformance.\(backend).\(area)", name: result.scenario.id, seconds: result.seconds,
                                        properties: [("clause", result.scenario.clause), ("source", clause?.source ?? ""), ("rule", clause?.rule ?? "")],
                                        outcome: outcome, systemOut: result.scenario.title)
            }
            suites.append(JUnitReport.Suite(name: "conformance.\(backend)", timestamp: now, cases: cases))
        }
        if !coverageProblems.isEmpty {
            suites.append(JUnitReport.Suite(name: "conformance.coverage", timestamp: now, cases: coverageProblems.map {
                JUnitReport.Case(classname: "conformance.coverage", name: $0, seconds: 0, outcome: .failure(message: $0, details: $0))
            }))
        }
        return JUnitReport(name: "speech-harness conformance", suites: suites)
    }
}
