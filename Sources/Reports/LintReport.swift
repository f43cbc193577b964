import Foundation
import MigrationLint

/// Migration-lint results as JUnit: one suite, a case per rule per file (classname
/// `migrate-lint.<file>`, name the rule id), failing when the rule found something new there.
public enum LintReport {
    /// `skippedRules`: rules that do not apply to this project, with why (JUnit `skipped`).
    public static func junit(
        files: [String], new: [LintFinding], accepted: [LintFinding], unreadable: [(file: String, reason: String)],
        skippedRules: [String: String] = [:]
    ) -> JUnitReport {
        var cases: [JUnitReport.Case] = []
        let classname: (String) -> String = { "migrate-lint." + $0.replacingOccurrences(of: "/", with: ".") }
        // Findings by file and rule, once: a run can cover thousands of file × rule cases.
        let newByPlace = Dictionary(grouping: new) { "\($0.file)\u{1F}\($0.rule.id)" }
        let acceptedByPlace = Dictionary(grouping: accepted) { "\($0.file)\u{1F}\($0.rule.id)" }
        for file in files {
            for rule in LintRules.descriptors where rule != LintRules.unreadableSource {
                let found = newByPlace["\(file)\u{1F}\(rule.id)"] ?? []
                let baselined = acceptedByPlace["\(file)\u{1F}\(rule.id)"]?.count ?? 0
                let outcome: JUnitReport.Outcome =
                    found.isEmpty
                    ? skippedRules[rule.id].map { .skipped(reason: $0) } ?? .passed
                    : .failure(
                        message: "\(found.count) finding\(found.count == 1 ? "" : "s"): \(rule.summary)",
                        details: found.map { "\($0.file):\($0.location.line):\($0.location.column): \($0.detail)" }
                            .joined(separator: "\n"))
                cases.append(
                    JUnitReport.Case(
                        classname: classname(file), name: rule.id, seconds: 0,
                        properties: [("hint", rule.hint), ("baselined", String(baselined))], outcome: outcome))
            }
            let lexical = newByPlace["\(file)\u{1F}\(LintRules.unreadableSource.id)"] ?? []
            if !lexical.isEmpty {
                cases.append(
                    JUnitReport.Case(
                        classname: classname(file), name: LintRules.unreadableSource.id, seconds: 0,
                        outcome: .error(
                            message: lexical[0].detail,
                            details: lexical.map { "\($0.location): \($0.detail)" }.joined(separator: "\n"))))
            }
        }
        for (file, reason) in unreadable {
            cases.append(
                JUnitReport.Case(
                    classname: classname(file), name: LintRules.unreadableSource.id, seconds: 0,
                    outcome: .error(message: reason, details: reason)))
        }
        return JUnitReport(
            name: "speech-harness migrate lint",
            suites: [JUnitReport.Suite(name: "migrate-lint", timestamp: Date(), cases: cases)])
    }
}
