import Foundation
import MigrationLint

/// Migration-lint results as one SARIF 2.1.0 log, the format code-scanning services read: every
/// rule with its reasoning and hint, a result per finding with its location, fingerprint and any
/// fix and the path it followed as a code flow, findings the baseline accepted as suppressed
/// results, and unreadable files as tool notifications. Columns are counted in Unicode scalars
/// (`columnKind`).
public enum SARIFLog {
    public static let version = "2.1.0"
    public static let schema =
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// The log as a JSON object.
    public static func make(
        new: [LintFinding], accepted: [LintFinding], unreadable: [(file: String, reason: String)]
    ) -> [String: Any] {
        let rules = LintRules.descriptors
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let driver: [String: Any] = [
            "name": "speech-harness migrate lint",
            "rules": rules.map { rule in
                [
                    "id": rule.id, "shortDescription": ["text": rule.summary],
                    "fullDescription": ["text": rule.explanation], "help": ["text": rule.hint],
                    "defaultConfiguration": ["level": rule == LintRules.unreadableSource ? "error" : "warning"],
                ] as [String: Any]
            },
        ]
        let results =
            new.map { result($0, ruleIndex: ruleIndex, suppressed: false) }
            + accepted.map { result($0, ruleIndex: ruleIndex, suppressed: true) }
        let notifications: [[String: Any]] = unreadable.map { file, reason in
            [
                "level": "error", "message": ["text": "\(file): \(reason)"],
                "locations": [["physicalLocation": ["artifactLocation": ["uri": uri(file)]]]],
            ]
        }
        let run: [String: Any] = [
            "tool": ["driver": driver],
            "results": results,
            "columnKind": "unicodeCodePoints",
            "invocations": [
                ["executionSuccessful": true, "toolExecutionNotifications": notifications] as [String: Any]
            ],
        ]
        return ["$schema": schema, "version": version, "runs": [run]]
    }

    static func result(_ finding: LintFinding, ruleIndex: [String: Int], suppressed: Bool) -> [String: Any] {
        let region: [String: Any] = [
            "startLine": finding.location.line, "startColumn": finding.scalarColumn(finding.location.column),
        ]
        var result: [String: Any] = [
            "ruleId": finding.rule.id,
            "ruleIndex": ruleIndex[finding.rule.id] ?? 0,
            "level": finding.rule == LintRules.unreadableSource ? "error" : "warning",
            "message": ["text": "\(finding.rule.summary): \(finding.detail)"],
            "locations": [
                ["physicalLocation": ["artifactLocation": ["uri": uri(finding.file)], "region": region]]
            ],
            "partialFingerprints": ["speechHarnessLine/v1": finding.fingerprint],
        ]
        if let fix = finding.fix {
            let deleted: [String: Any] = [
                "startLine": finding.location.line, "startColumn": finding.scalarColumn(fix.start),
                "endColumn": finding.scalarColumn(fix.end),
            ]
            result["fixes"] = [
                [
                    "description": ["text": "replace with \(fix.replacement)"],
                    "artifactChanges": [
                        [
                            "artifactLocation": ["uri": uri(finding.file)],
                            "replacements": [["deletedRegion": deleted, "insertedContent": ["text": fix.replacement]]],
                        ] as [String: Any]
                    ],
                ] as [String: Any]
            ]
        }
        // The path the rule followed, when it went beyond the finding's own place: code scanning
        // shows it step by step.
        if finding.evidence.count > 1 {
            let steps: [[String: Any]] = finding.evidence.map { step in
                [
                    "location": [
                        "physicalLocation": [
                            "artifactLocation": ["uri": uri(step.file)],
                            "region": ["startLine": step.location.line, "startColumn": step.scalarColumn],
                        ],
                        "message": ["text": step.text],
                    ] as [String: Any]
                ]
            }
            result["codeFlows"] = [["threadFlows": [["locations": steps]]]]
        }
        if suppressed {
            result["suppressions"] = [["kind": "external", "justification": "accepted by the lint baseline"]]
        }
        return result
    }

    /// A relative URI reference for a path as the lint printed it.
    static func uri(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    /// The log, pretty-printed with sorted keys.
    public static func encoded(_ log: [String: Any]) -> Data {
        (try? JSONSerialization.data(
            withJSONObject: log, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}
