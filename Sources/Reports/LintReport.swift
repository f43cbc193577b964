import Foundation
import MigrationLint

/// Migration-lint results as JUnit: one suite, a case per rule per file (classname
/// `migrate-lint.<file>`, name the rule id), failing when the rule found something new there.
public enum LintReport {
    public static func junit(files: [String], new: [LintFinding], accepted: [LintFinding], unreadable: [(file: String, reason: String)]) -> JUnitReport {
        var cases: [JUnitReport.Case] = []
        let classname: (String) -> String = { "migrate-lint." + $0.replacingOccurrences(of: "/", with: ".") }
        for file in files {
            for rule in LintRule.all where rule != .unreadableSource {
                let found = new.filter { $0.file == file && $0.rule == rule }
                let baselined = accepted.filter { $0.file == file && $0.rule == rule }.count
                let outcome: JUnitReport.Outcome = found.isEmpty ? .passed : .failure(
                    message: "\(found.count) finding\(found.count == 1 ? "" : "s"): \(rule.summary)",
                    details: found.map { "\($0.file):\($0.location.line):\($0.location.column): \($0.detail)" }.joined(separator: "\n"))
                cases.append(JUnitReport.Case(classname: classname(file), name: rule.id, seconds: 0,
                                              properties: [("hint", rule.hint), ("baselined", String(baselined))], outcome: outcome))
            }
            let lexical = new.filter { $0.file == file && $0.rule == .unreadableSource }
            if !lexical.isEmpty {
                cases.append(JUnitReport.Case(classname: classname(file), name: LintRule.unreadableSource.id, seconds: 0, outcome: .error(
                    message: lexical[0].detail, details: lexical.map { "\($0.location): \($0.detail)" }.joined(separator: "\n"))))
            }
        }
        for (file, reason) in unreadable {
            cases.append(JUnitReport.Case(classname: classname(file), name: LintRule.unreadableSource.id, seconds: 0,
                                          outcome: .error(message: reason, details: reason)))
        }
        return JUnitReport(name: "speech-harness migrate lint", suites: [JUnitReport.Suite(name: "migrate-lint", timestamp: Date(), cases: cases)])
    }
}
