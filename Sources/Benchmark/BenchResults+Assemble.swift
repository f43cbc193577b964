import Foundation
import Metrics
import Records

extension BenchResults {
    /// The whole of a run from its records: summaries, gate and baseline checks, breakdowns and
    /// engine comparisons. `plan` is nil for merged runs.
    public static func assemble(
        records: [UtteranceRecord], issues: [BenchIssue], gates: GateConfiguration?, plan: BenchPlan?,
        peakRSSBytes: Int?, workerPeakMemory: [String: [Int]]? = nil, createdAt: Date = Date()
    ) -> BenchResults {
        let summaries = BenchSummary.summarize(records, peakRSSBytes: peakRSSBytes)
        let regressions = gates?.regressions(summaries, records: records) ?? (failures: [], notInBaseline: [])
        let policies = Set(records.map(\.policy)).sorted()
        var results = BenchResults(
            createdAt: ISO8601DateFormatter().string(from: createdAt),
            policy: policies.isEmpty ? plan?.policy.name ?? "" : policies.joined(separator: ", "),
            pacing: plan?.pacing.rawValue ?? "merged", shard: plan?.shard.description ?? "merged",
            summaries: summaries, issues: issues, gateFailures: (gates?.check(summaries) ?? []) + regressions.failures,
            breakdowns: BenchBreakdown.make(records), comparisons: BenchComparison.make(records),
            notInBaseline: gates?.baseline == nil ? nil : regressions.notInBaseline)
        results.workerPeakMemory = workerPeakMemory.flatMap { $0.isEmpty ? nil : $0 }
        return results
    }
}

extension GateConfiguration {
    /// Breaches of the baseline rules, reading the baseline run's records from its folder.
    public func regressions(
        _ summaries: [BenchSummary], records: [UtteranceRecord]
    ) -> (failures: [GateFailure], notInBaseline: [String]) {
        guard let path = baselineRecordsPath else { return ([], []) }
        return regressions(summaries, records: records, baselineRecords: RecordStore(path: path).records())
    }
}
