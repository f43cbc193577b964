import Foundation
import SpeechCore

/// Bounds on the expected differences of the new API, from the `migrateDiff` key of a gates
/// file: `{"migrateDiff": [{"metric": "finalDelay", "max": 0.5}]}` fails an utterance whose last
/// final result comes more than 0.5 s of audio later than the legacy one's.
public struct MigrationGate: Codable, Sendable, Hashable {
    public enum Metric: String, ClosedSetValue, Encodable {
        /// Last final result, analyzer minus legacy (seconds of audio).
        case finalDelay
        /// Revisions of shown text, analyzer minus legacy.
        case extraRevisions
        /// Display updates, analyzer minus legacy.
        case extraUpdates
        /// Largest word time shift (seconds).
        case maximumTimeShift

        public static let valueName = "migrateDiff metric"
    }

    public var metric: Metric
    public var max: Double

    public init(metric: Metric, max: Double) {
        self.metric = metric
        self.max = max
    }

    /// The utterance's value of the metric; nil when it has none.
    public func value(_ diff: UtteranceDiff) -> Double? {
        switch metric {
        case .finalDelay: return diff.finalDelay
        case .extraRevisions: return Double(diff.analyzer.revisions - diff.legacy.revisions)
        case .extraUpdates: return Double(diff.analyzer.displayUpdates.count - diff.legacy.displayUpdates.count)
        case .maximumTimeShift: return diff.maximumTimeShift
        }
    }

    /// A line for each gate the utterance breaches.
    public static func breaches(_ gates: [MigrationGate], _ diff: UtteranceDiff) -> [String] {
        gates.compactMap { gate in
            guard let value = gate.value(diff), value > gate.max else { return nil }
            return
                "gate \(gate.metric.rawValue) ≤ \(MigrationComparison.format(gate.max)) breached: \(MigrationComparison.format(value))"
        }
    }

    /// The `migrateDiff` gates of a gates file (none when the key is absent).
    public static func load(path: String) throws(MigrationGateError) -> [MigrationGate] {
        struct File: Decodable { var migrateDiff: [MigrationGate]? }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        do throws(DecodingProblem) {
            return try DecodingProblem.decode(File.self, from: data).migrateDiff ?? []
        } catch {
            throw .invalid(path: path, reason: error.description)
        }
    }
}

public enum MigrationGateError: Error, CustomStringConvertible, Sendable, Equatable {
    case unreadable(path: String)
    case invalid(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path): return "\(path): cannot read the gates file"
        case .invalid(let path, let reason): return "\(path): invalid migrateDiff gates: \(reason)"
        }
    }
}
