import MigrationLint
import Testing

/// Every example of every rule, linted: a reported example gives exactly its marked places and
/// nothing of the other kind; one left alone gives neither findings nor notes of that rule.
@Suite("Rule examples")
struct LintExamplesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var reported: Bool
        var number: Int
        var testDescription: String { "\(rule) \(reported ? "reported" : "left alone") #\(number + 1)" }
    }

    static let cases: [Case] = LintRules.all.flatMap { rule in
        rule.triggeringExamples.indices.map { Case(rule: rule.id, reported: true, number: $0) }
            + rule.nonTriggeringExamples.indices.map { Case(rule: rule.id, reported: false, number: $0) }
    }

    @Test(arguments: cases) func theExampleGivesItsMarks(_ example: Case) throws {
        let rule = try #require(LintRules.all.first { $0.id == example.rule })
        let chosen = (example.reported ? rule.triggeringExamples : rule.nonTriggeringExamples)[example.number]
        let marked = chosen.unmarked()
        let found = rule.run(chosen)
        #expect(example.reported == !(marked.findings.isEmpty && marked.notes.isEmpty), "\(chosen.about)")
        for (kind, expected, given) in [
            ("findings", marked.findings, found.findings), ("notes", marked.notes, found.notes),
        ] {
            #expect(
                given == expected,
                "\(chosen.about): \(kind) missing at \(expected.subtracting(given).sorted()), extra at \(given.subtracting(expected).sorted())"
            )
        }
    }

    /// Each rule shows at least one example it reports and one it leaves alone.
    @Test func everyRuleHasBothKinds() {
        for rule in LintRules.all {
            #expect(!rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty, "\(rule.id)")
        }
    }
}
