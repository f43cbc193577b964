/// A migration mistake the lint knows: what it is called and why it matters, the fix it suggests,
/// the code it must and must not report, and the check that finds it in one file. Each rule is a type of its own under `Rules/`;
/// ``LintRules/all`` lists them, and everything that shows rules (`migrate lint --rules`,
/// `--explain`, SARIF's rule table, JUnit's cases) reads that list.
public protocol LintRule: Sendable {
    /// The rule's name in findings, baselines, SARIF and `--explain`.
    static var id: String { get }
    /// Words without which the rule finds nothing in a file: of each list, one word must occur in
    /// the file's text. A file that fails this is not parsed for the rule. The rule about files
    /// that could not be read also applies to every file another rule reads.
    static var triggers: [[String]] { get }
    /// What the mistake is, in a few words.
    static var summary: String { get }
    /// The fix, as a reviewer would suggest it.
    static var hint: String { get }
    /// What the rule looks at and why, and what it follows before deciding.
    static var explanation: String { get }
    /// Code the rule must report, each place marked `↓` (or note, where an example says so).
    static var triggeringExamples: [LintExample] { get }
    /// Code the rule must leave alone: no finding and no note.
    static var nonTriggeringExamples: [LintExample] { get }
    /// The rule's findings in one file, which can see the rest of the run.
    static func check(_ file: LintedFile) -> [LintFinding]
    /// What the rule declined to decide in one file, and why. Most rules decide everything.
    static func notes(_ file: LintedFile) -> [LintNote]
}

extension LintRule {
    public static func notes(_ file: LintedFile) -> [LintNote] { [] }

    /// Whether a file of this text can hold one of the rule's findings.
    static func reads(_ unit: ProjectIndex.Unit) -> Bool {
        triggers.allSatisfy { unit.mentions(any: $0) }
    }

    /// The rule as findings and reports carry it.
    public static var descriptor: LintRuleDescriptor {
        LintRuleDescriptor(id: id, summary: summary, hint: hint, explanation: explanation)
    }
}

/// What a report says about a rule (SARIF calls it a reporting descriptor): a plain value, so
/// findings stay hashable and can be compared.
public struct LintRuleDescriptor: Hashable, Sendable {
    public var id: String
    public var summary: String
    public var hint: String
    public var explanation: String
}

/// The rules, in report order: the one list the linter runs and every listing of rules reads.
public enum LintRules {
    public static let all: [any LintRule.Type] = [
        LegacyAPIRule.self, AllocateLocaleRule.self, BetaAssetAPIRule.self, BetaPresetRule.self,
        NonexistentResultTypeRule.self, ResultTranscriptionRule.self, ProgressIterationRule.self,
        DiscardedInputContinuationRule.self, InputFinishWithoutAnalyzerFinishRule.self,
        UnownedReservationReleaseRule.self, UnguardedBestFormatRule.self, UntrackedResultTaskRule.self,
        ExactLocaleMatchRule.self, UngatedSDK27APIRule.self, MissingUsageDescriptionRule.self,
        UnreadableSourceRule.self,
    ]

    /// Every rule's descriptor, in report order.
    public static let descriptors: [LintRuleDescriptor] = all.map { $0.descriptor }

    /// The rule with this id, if there is one.
    public static func named(_ id: String) -> LintRuleDescriptor? { descriptors.first { $0.id == id } }

    /// The rule for problems reading a file: an error where the others are warnings.
    public static let unreadableSource = UnreadableSourceRule.descriptor
    /// The rule that applies to app targets only.
    public static let missingUsageDescription = MissingUsageDescriptionRule.descriptor
}

extension LintRules {
    /// The rule table of docs/lint-rules.md, made from the registry so that it cannot drift from
    /// it (a test compares the two): a section a rule, with its fix, its reasoning and its examples.
    public static func markdown() -> String {
        var out = ["| rule | what it finds | fix |", "| --- | --- | --- |"]
        for rule in descriptors {
            let cells = ["[`\(rule.id)`](#\(rule.id))", rule.summary, rule.hint]
            out.append(
                "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
        }
        for rule in all {
            out += ["", "### \(rule.id)", "", rule.explanation]
            out += examples(rule)
        }
        return out.joined(separator: "\n")
    }

    /// A rule's examples, folded: the code it reports with each place marked `↓`, then the code it
    /// leaves alone.
    private static func examples(_ rule: any LintRule.Type) -> [String] {
        let reported = rule.triggeringExamples
        let alone = rule.nonTriggeringExamples
        var out = [
            "", "<details><summary>Examples: \(reported.count) reported, \(alone.count) left alone</summary>",
        ]
        let marks = "each finding marked ↓, each place it cannot judge and notes marked ⇣"
        for (title, examples) in [("Reported (\(marks))", reported), ("Left alone", alone)] {
            out += ["", "**\(title)**"]
            for example in examples {
                out += ["", example.about, ""]
                for (name, code) in example.files {
                    out += ["```swift", "// \(name)", code, "```"]
                }
            }
        }
        return out + ["", "</details>"]
    }
}
