import Foundation

/// Thresholds a CI can gate on: each rule names a metric of ``BenchSummary`` and a bound, for all
/// engines and manifests or for those matching its patterns (`*` matches anything).
///
/// ```json
/// {"rules": [{"engine": "pocketsphinx-digits*", "manifest": "*digits*", "metric": "wer", "max": 0.15},
///            {"metric": "rtfx", "min": 1.0}]}
/// ```
public struct GateConfiguration: Codable, Sendable {
    public struct Rule: Codable, Sendable, Hashable {
        public var engine: String?
        public var manifest: String?
        public var metric: String
        public var max: Double?
        public var min: Double?
    }

    public var rules: [Rule]

    public static func load(path: String) throws -> GateConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GateError.unreadable(path: path)
        }
        do {
            let configuration = try JSONDecoder().decode(GateConfiguration.self, from: data)
            for (index, rule) in configuration.rules.enumerated() {
                guard BenchSummary.metricNames.contains(rule.metric) else {
                    throw GateError.invalid(path: path, reason: "rule \(index + 1): unknown metric '\(rule.metric)'; one of \(BenchSummary.metricNames.sorted().joined(separator: ", "))")
                }
                guard rule.max != nil || rule.min != nil else {
                    throw GateError.invalid(path: path, reason: "rule \(index + 1): needs max or min")
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
            for rule in rules where Self.matches(rule.engine, summary.engine) && Self.matches(rule.manifest, summary.manifest) {
                guard let value = summary.metric(rule.metric) else { continue }
                if let max = rule.max, !(value <= max) {
                    failures.append(GateFailure(engine: summary.engine, manifest: summary.manifest, metric: rule.metric, value: value, bound: "≤ \(max)"))
                }
                if let min = rule.min, !(value >= min) {
                    failures.append(GateFailure(engine: summary.engine, manifest: summary.manifest, metric: rule.metric, value: value, bound: "≥ \(min)"))
                }
            }
        }
        return failures
    }

    static func matches(_ pattern: String?, _ text: String) -> Bool {
        guard let pattern, pattern != "*" else { return true }
        let regex = "^" + NSRegularExpression.escapedPattern(for: pattern).replacingOccurrences(of: "\\*", with: ".*") + "$"
        return text.range(of: regex, options: .regularExpression) != nil
    }
}

public struct GateFailure: Codable, Sendable, Hashable, CustomStringConvertible {
    public var engine: String
    public var manifest: String
    public var metric: String
    public var value: Double
    public var bound: String

    public var description: String { "\(engine) on \(manifest): \(metric) = \(String(format: "%.4g", value)), required \(bound)" }
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
    static let metricNames: Set<String> = ["wer", "cer", "ser", "rtfx", "firstPartialP50", "firstPartialP90", "finalizationP50",
                                           "finalizationP90", "emissionDelayP50", "emissionDelayP90", "unstablePartialWordRatio",
                                           "failedUtterances", "loadSeconds", "peakRSSBytes"]

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
