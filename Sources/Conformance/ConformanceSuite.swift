import EngineCore
import Foundation
import Records
import SpeechCore

/// Runs a set of scenarios on backends and checks that every clause has a scenario.
public struct ConformanceSuite: Sendable {
    /// A scenario's outcome on a backend (the record reports read).
    public typealias Result = ConformanceRecord

    public var scenarios: [Scenario]
    public var clauses: [Clause]

    public init(scenarios: [Scenario], clauses: [Clause]) {
        self.scenarios = scenarios
        self.clauses = clauses
    }

    /// The built-in scenarios and clauses.
    public static func builtIn() throws -> (ConformanceSuite, [ScenarioError]) {
        guard let directory = ScenarioCatalog.builtInDirectory else {
            throw ScenarioError.unreadable(path: "Scenarios")
        }
        let (scenarios, errors) = ScenarioCatalog.load(directory: directory)
        return (ConformanceSuite(scenarios: scenarios, clauses: try ScenarioCatalog.clauses()), errors)
    }

    /// Clauses no scenario checks (each is a suite failure), and scenarios naming unknown clauses.
    public var coverageProblems: [String] {
        let covered = Set(scenarios.map(\.clause))
        let known = Set(clauses.map(\.id))
        return clauses.filter { !covered.contains($0.id) }.map { "clause \($0.id) has no scenario" }
            + scenarios.filter { !known.contains($0.clause) }.map {
                "scenario \($0.id) names unknown clause \($0.clause)"
            }
    }

    /// Each clause with the scenarios that check it.
    public var coverageTable: String {
        clauses.map { clause in
            let ids = scenarios.filter { $0.clause == clause.id }.map(\.id)
            return "\(clause.id) (\(ids.count)): \(ids.isEmpty ? "NO SCENARIO" : ids.joined(separator: ", "))"
        }.joined(separator: "\n")
    }

    /// Runs the scenarios on each backend in turn, each in a context made from `context`.
    /// `engineCalls` hears, per real backend, how many
    /// engine calls were answered from memory and how many were made.
    public func run(
        backends: [String], filter: String? = nil, context: HarnessContext = .current,
        engineCalls: (_ backend: String, _ answeredFromMemory: Int, _ made: Int) -> Void = { _, _, _ in }
    ) async -> [Result] {
        var results: [Result] = []
        let clock = ContinuousClock()
        for backend in backends {
            // Real engines are made once per backend, with what is under their adapters memoized
            // (scenarios feed the same audio again and again, and conformance times nothing); the
            // scripted engine is made per scenario.
            let shared =
                backend == "scripted"
                ? nil : (try? context.engines.make(backend, in: context)).map(MemoizingEngine.memoizingInnermost)
            let runner = ScenarioRunner(backend: backend, sharedEngine: shared, context: context)
            for scenario in scenarios
            where filter.map({ scenario.id.contains($0) || scenario.clause.contains($0) }) ?? true {
                let start = clock.now
                let outcome = await runner.run(scenario)
                let elapsed = start.duration(to: clock.now)
                results.append(
                    Result(
                        backend: backend, scenario: Result.Scenario(scenario), outcome: outcome,
                        seconds: elapsed.seconds))
            }
            if let calls = shared.flatMap(MemoizingEngine.statistics(of:)) {
                engineCalls(backend, calls.answeredFromMemory, calls.madeOnBase)
            }
            await shared?.shutdown()
        }
        return results
    }
}
