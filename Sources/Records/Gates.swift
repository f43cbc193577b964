import Foundation
import Metrics
import SpeechCore

/// Thresholds a CI can gate on: each rule names a metric of ``BenchSummary`` and a bound, for all
/// engines and manifests or for those matching its patterns (`*` matches anything).
///
/// ```json
/// {"rules": [{"engine": "pocketsphinx-digits*", "manifest": "*digits*", "metric": "wer", "max": 0.15},
///            {"metric": "rtfx", "min": 1.0}],
///  "baseline": {"directory": "../Reports/baseline",
///               "rules": [{"metric": "wer", "tolerance": 0.005, "significance": 0.05},
///                         {"metric": "rtfx", "tolerance": 20}]}}
/// ```
public struct GateConfiguration: Codable, Sendable {
    public struct Rule: Codable, Sendable, Hashable {
        public var engine: String?
        public var manifest: String?
        public var metric: String
        public var max: Double?
        public var min: Double?
    }

    /// A regression bound against a stored run: `metric` may be worse than the baseline's by at
    /// most `tolerance`; with `significance` (WER and CER only) a worse figure breaches only when a
    /// paired bootstrap over the shared utterances gives the new run at most that probability of
    /// being the better one.
    public struct RegressionRule: Codable, Sendable, Hashable {
        public var engine: String?
        public var manifest: String?
        public var metric: String
        public var tolerance: Double
        public var significance: Double?
    }

    /// A previous run's output folder (its `utterances.jsonl`), relative to the configuration file.
    public struct Baseline: Codable, Sendable, Hashable {
        public var directory: String
        public var rules: [RegressionRule]
    }

    public var rules: [Rule]
    public var baseline: Baseline?
    /// Where the configuration was read from (baseline paths are relative to it).
    public var folder: String = "."

    private enum CodingKeys: String, CodingKey { case rules, baseline }

    public static func load(path: String) throws -> GateConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GateError.unreadable(path: path)
        }
        do {
            var configuration = try JSONDecoder().decode(GateConfiguration.self, from: data)
            configuration.folder =
                (path as NSString).deletingLastPathComponent.isEmpty
                ? "." : (path as NSString).deletingLastPathComponent
            for (index, rule) in configuration.rules.enumerated() {
                guard BenchSummary.metricNames.contains(rule.metric) else {
                    throw GateError.invalid(
                        path: path,
                        reason:
                            "rule \(index + 1): unknown metric '\(rule.metric)'; one of \(BenchSummary.metricNames.sorted().joined(separator: ", "))"
                    )
                }
                guard rule.max != nil || rule.min != nil else {
                    throw GateError.invalid(path: path, reason: "rule \(index + 1): needs max or min")
                }
            }
            for (index, rule) in (configuration.baseline?.rules ?? []).enumerated() {
                guard BenchSummary.metricNames.contains(rule.metric) else {
                    throw GateError.invalid(
                        path: path, reason: "baseline rule \(index + 1): unknown metric '\(rule.metric)'")
                }
                if rule.significance != nil && !["wer", "cer"].contains(rule.metric) {
                    throw GateError.invalid(
                        path: path, reason: "baseline rule \(index + 1): significance applies to wer and cer only")
                }
            }
            return configuration
        } catch let error as GateError {
            throw error
        } catch {
            throw GateError.invalid(path: path, reason: "\(error)")
        }
    }

    /// The breaches in `summaries`.
    public func check(_ summaries: [BenchSummary]) -> [GateFailure] {
        var failures: [GateFailure] = []
        for summary in summaries {
            for rule in rules
            where Self.matchesEngine(rule.engine, summary.engine) && Self.matches(rule.manifest, summary.manifest) {
                guard let value = summary.metric(rule.metric) else { continue }
                if let max = rule.max, !(value <= max) {
                    failures.append(
                        GateFailure(
                            engine: summary.engine, manifest: summary.manifest, metric: rule.metric, value: value,
                            bound: "≤ \(max)"))
                }
                if let min = rule.min, !(value >= min) {
                    failures.append(
                        GateFailure(
                            engine: summary.engine, manifest: summary.manifest, metric: rule.metric, value: value,
                            bound: "≥ \(min)"))
                }
            }
        }
        return failures
    }

    /// Where the baseline run's records are (nil without a baseline).
    public var baselineRecordsPath: String? {
        guard let baseline else { return nil }
        let directory = baseline.directory.hasPrefix("/") ? baseline.directory : folder + "/" + baseline.directory
        return directory + "/utterances.jsonl"
    }

    /// Breaches of the baseline rules, given the baseline run's records, and the engine ×
    /// manifest pairs the baseline lacks.
    public func regressions(
        _ summaries: [BenchSummary], records: [UtteranceRecord], baselineRecords old: [UtteranceRecord]
    ) -> (failures: [GateFailure], notInBaseline: [String]) {
        guard let baseline else { return ([], []) }
        let oldSummaries = Dictionary(BenchSummary.summarize(old).map { ("\($0.engine)\u{1F}\($0.manifest)", $0) }) {
            a, _ in a
        }
        var failures: [GateFailure] = []
        var missing: [String] = []
        for summary in summaries {
            let rules = baseline.rules.filter {
                Self.matchesEngine($0.engine, summary.engine) && Self.matches($0.manifest, summary.manifest)
            }
            guard !rules.isEmpty else { continue }
            guard let before = oldSummaries["\(summary.engine)\u{1F}\(summary.manifest)"] else {
                missing.append("\(summary.engine) on \(summary.manifest)")
                continue
            }
            // Error rates under different scoring policies are different measures.
            guard before.policy == summary.policy else {
                missing.append(
                    "\(summary.engine) on \(summary.manifest) (scored \(summary.policy), the baseline \(before.policy))"
                )
                continue
            }
            for rule in rules {
                guard let value = summary.metric(rule.metric), let reference = before.metric(rule.metric) else {
                    continue
                }
                let higherIsBetter = rule.metric == "rtfx"
                let worse = higherIsBetter ? value < reference - rule.tolerance : value > reference + rule.tolerance
                guard worse else { continue }
                var bound =
                    "\(higherIsBetter ? "≥" : "≤") baseline \(String(format: "%.4g", reference)) \(higherIsBetter ? "−" : "+") \(rule.tolerance)"
                if let significance = rule.significance {
                    let pick: (UtteranceRecord) -> ErrorCounts = rule.metric == "cer" ? { $0.characters } : { $0.words }
                    let now = Dictionary(
                        records.filter {
                            $0.engine == summary.engine && $0.manifest == summary.manifest && $0.error == nil
                        }
                        .map { ($0.id, $0) }
                    ) { _, last in last }
                    let then = Dictionary(
                        old.filter { $0.engine == summary.engine && $0.manifest == summary.manifest && $0.error == nil }
                            .map { ($0.id, $0) }
                    ) { _, last in last }
                    let shared = Set(now.keys).intersection(then.keys).sorted()
                    guard
                        let test = ErrorRateStatistics.pairedBootstrap(
                            a: shared.map { pick(then[$0]!) }, b: shared.map { pick(now[$0]!) }),
                        test.probabilityOfImprovement <= significance
                    else { continue }
                    bound += String(
                        format: " (P(no worse) = %.3f over %d shared utterances)", test.probabilityOfImprovement,
                        shared.count)
                }
                failures.append(
                    GateFailure(
                        engine: summary.engine, manifest: summary.manifest, metric: rule.metric, value: value,
                        bound: bound + " (regression)"))
            }
        }
        return (failures, missing)
    }

    /// An engine pattern matches the engine's name (`whisper[tiny.en,int8,beam1]`) or its id
    /// alone (`whisper`), so a gate need not spell out the settings.
    static func matchesEngine(_ pattern: String?, _ name: String) -> Bool {
        matches(pattern, name) || matches(pattern, EngineName.id(of: name))
    }

    static func matches(_ pattern: String?, _ text: String) -> Bool {
        guard let pattern, pattern != "*" else { return true }
        let regex =
            "^" + NSRegularExpression.escapedPattern(for: pattern).replacingOccurrences(of: "\\*", with: ".*") + "$"
        return text.range(of: regex, options: .regularExpression) != nil
    }
}

public struct GateFailure: Codable, Sendable, Hashable, CustomStringConvertible {
    public var engine: String
    public var manifest: String
    public var metric: String
    public var value: Double
    public var bound: String

    public init(engine: String, manifest: String, metric: String, value: Double, bound: String) {
        self.engine = engine
        self.manifest = manifest
        self.metric = metric
        self.value = value
        self.bound = bound
    }

    public var description: String {
        "\(engine) on \(manifest): \(metric) = \(String(format: "%.4g", value)), required \(bound)"
    }
}

public enum GateError: Error, CustomStringConvertible, Sendable {
    case unreadable(path: String)
    case invalid(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path): return "\(path): cannot read the gate configuration"
        case .invalid(let path, let reason): return "\(path): invalid gate configuration: \(reason)"
        }
    }
}

extension BenchSummary {
    static let metricNames: Set<String> = [
        "wer", "cer", "ser", "rtfx", "firstPartialP50", "firstPartialP90", "finalizationP50",
        "finalizationP90", "emissionDelayP50", "emissionDelayP90", "unstablePartialWordRatio",
        "failedUtterances", "loadSeconds", "peakRSSBytes",
    ]

    public func metric(_ name: String) -> Double? {
        switch name {
        case "wer": return wer
        case "cer": return cer
        case "ser": return ser
        case "rtfx": return rtfx
        case "firstPartialP50": return firstPartialP50
        case "firstPartialP90": return firstPartialP90
        case "finalizationP50": return finalizationP50
        case "finalizationP90": return finalizationP90
        case "emissionDelayP50": return emissionDelayP50
        case "emissionDelayP90": return emissionDelayP90
        case "unstablePartialWordRatio": return unstablePartialWordRatio
        case "failedUtterances": return Double(failedUtterances)
        case "loadSeconds": return loadSeconds
        case "peakRSSBytes": return peakRSSBytes.map(Double.init)
        default: return nil
        }
    }
}
