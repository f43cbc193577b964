import Foundation

/// Findings a team has accepted for now. Entries match by fingerprint (``LintFinding/fingerprint``:
/// file, rule and the trimmed source line, not the line number), so edits elsewhere in a file do not
/// invalidate them; each entry accepts one occurrence. Version 1 files (no fingerprints) still read.
public struct LintBaseline: Codable, Sendable, Equatable {
    public struct Entry: Codable, Sendable, Hashable {
        public var file: String
        public var rule: String
        public var line: String
        /// Absent in version 1 baselines; then computed from the other fields.
        public var fingerprint: String?

        /// What a finding must have to be accepted by this entry.
        var key: String {
            fingerprint ?? LintFinding.fingerprint(file: file, rule: rule, lineText: line)
        }
    }

    public var version: Int
    public var findings: [Entry]

    public init(findings: [LintFinding]) {
        version = 2
        self.findings = findings.map {
            Entry(file: $0.file, rule: $0.rule.id, line: $0.lineText, fingerprint: $0.fingerprint)
        }
        .sorted { ($0.file, $0.rule, $0.line) < ($1.file, $1.rule, $1.line) }
    }

    /// Why a baseline file cannot be used.
    public enum BaselineError: Error, CustomStringConvertible, Sendable {
        case malformed(path: String, reason: String)
        case unsupportedVersion(path: String, version: Int)

        public var description: String {
            switch self {
            case .malformed(let path, let reason): return "\(path): not a lint baseline: \(reason)"
            case .unsupportedVersion(let path, let version):
                return "\(path): baseline version \(version) is not supported (expected 1 or 2)"
            }
        }
    }

    public static func decode(_ data: Data, path: String) throws -> LintBaseline {
        let baseline: LintBaseline
        do {
            baseline = try JSONDecoder().decode(LintBaseline.self, from: data)
        } catch {
            throw BaselineError.malformed(path: path, reason: "\(error)")
        }
        guard baseline.version == 1 || baseline.version == 2 else {
            throw BaselineError.unsupportedVersion(path: path, version: baseline.version)
        }
        return baseline
    }

    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Splits findings into new ones and accepted ones; `stale` are entries nothing matched.
    public func apply(to findings: [LintFinding]) -> (new: [LintFinding], accepted: [LintFinding], stale: [Entry]) {
        var remaining: [String: Int] = [:]
        for entry in self.findings { remaining[entry.key, default: 0] += 1 }
        var new: [LintFinding] = []
        var accepted: [LintFinding] = []
        for finding in findings {
            if let count = remaining[finding.fingerprint], count > 0 {
                remaining[finding.fingerprint] = count - 1
                accepted.append(finding)
            } else {
                new.append(finding)
            }
        }
        let stale = self.findings.filter { entry in
            guard let count = remaining[entry.key], count > 0 else { return false }
            remaining[entry.key] = count - 1
            return true
        }
        return (new, accepted, stale)
    }
}
