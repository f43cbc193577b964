import Foundation
import MigrationLint
import Testing

@Suite("Lint rules, listed once")
struct LintRulesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each file under Rules/ declares one rule named for the file, and the registry lists every
    /// one of them once: a rule written but not registered would never run.
    @Test func everyRuleFileIsRegisteredOnce() throws {
        let folder = Self.root.appendingPathComponent("Sources/MigrationLint/Rules")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var declared: [String] = []
        // `Rule+Part.swift` holds part of a rule too long for one file; it declares no rule.
        for name in files.sorted() where name.contains("+") {
            #expect(files.contains(String(name.prefix { $0 != "+" }) + ".swift"), "\(name) extends no rule's file")
        }
        for name in files.sorted() where !name.contains("+") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let types = text.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("struct "), line.contains(": LintRule {") else { return nil }
                return String(line.dropFirst("struct ".count).prefix { $0 != ":" })
            }
            #expect(types == [String(name.dropLast(".swift".count))], "\(name) declares \(types)")
            declared += types
        }
        let registered = LintRules.all.map { String(describing: $0) }
        #expect(registered.count == Set(registered).count, "a rule registered twice")
        #expect(Set(registered) == Set(declared))
        let ids = LintRules.descriptors.map(\.id)
        #expect(ids.count == Set(ids).count, "two rules share an id")
        for rule in LintRules.descriptors {
            #expect(!rule.summary.isEmpty && !rule.hint.isEmpty && !rule.explanation.isEmpty, "\(rule.id)")
        }
    }

    /// docs/lint-rules.md's table is the registry's: regenerate it with
    /// `speech-harness migrate lint --rules --markdown` when this fails.
    @Test func theDocumentedTableIsTheRegistry() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/lint-rules.md"), encoding: .utf8)
        let marker = "## Rules\n\n"
        let documented = try #require(text.range(of: marker).map { String(text[$0.upperBound...]) })
        #expect(documented == LintRules.markdown() + "\n")
    }

    @Test func rulesAreFoundByID() {
        #expect(LintRules.named("legacy-api")?.summary == "uses the SFSpeechRecognizer API")
        #expect(LintRules.named("no-such-rule") == nil)
    }
}
