/// Code a rule is shown on, in the manner of SwiftLint's rule descriptions: one or more files, with
/// each place the rule reports marked `↓` right before the token the report names, and each place
/// it cannot judge, and notes, marked `⇣`. A rule lists the examples it must report and those it
/// must leave alone; one test lints every example of every rule, and the rules page shows them.
public struct LintExample: Sendable {
    /// The files, by name, with their marks.
    public var files: [(name: String, code: String)]
    /// The app around the files (its Info.plist keys), for the rules that read it.
    public var project: ProjectContext
    /// What the example shows, and where its shape was met (a fixture, a public project).
    public var about: String

    public init(_ about: String, files: [(name: String, code: String)], project: ProjectContext = ProjectContext()) {
        self.about = about
        self.files = files
        self.project = project
    }

    /// An example of one file.
    public init(_ about: String, _ code: String, project: ProjectContext = ProjectContext()) {
        self.init(about, files: [("Example.swift", code)], project: project)
    }

    /// The mark before each place a rule reports.
    public static let findingMark: Character = "↓"
    /// The mark before each place a rule notes it cannot judge.
    public static let noteMark: Character = "⇣"

    /// The files without their marks, and where each mark was: the file, then the line and the
    /// column (in UTF-8 bytes, as findings count it) of the character after the mark.
    public func unmarked() -> (sources: [LintSource], findings: Set<LintExamplePlace>, notes: Set<LintExamplePlace>) {
        var sources: [LintSource] = []
        var findings: Set<LintExamplePlace> = []
        var notes: Set<LintExamplePlace> = []
        for (name, code) in files {
            var text = ""
            var line = 1
            var column = 1
            for character in code {
                if character == Self.findingMark || character == Self.noteMark {
                    let place = LintExamplePlace(file: name, line: line, column: column)
                    if character == Self.findingMark { findings.insert(place) } else { notes.insert(place) }
                    continue
                }
                text.append(character)
                if character == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += character.utf8.count
                }
            }
            sources.append(LintSource(file: name, text: text))
        }
        return (sources, findings, notes)
    }
}

/// A place in an example: a file, line and byte column.
public struct LintExamplePlace: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (a: LintExamplePlace, b: LintExamplePlace) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }

    public var description: String { "\(file):\(line):\(column)" }
}

extension LintRule {
    /// What linting `example` gives for this rule: its findings and notes, by place.
    public static func run(_ example: LintExample) -> (findings: Set<LintExamplePlace>, notes: Set<LintExamplePlace>) {
        let review = MigrationLinter.review(example.unmarked().sources, project: example.project)
        let findings = review.findings.filter { $0.rule.id == id }
            .map { LintExamplePlace(file: $0.file, line: $0.location.line, column: $0.location.column) }
        let notes = review.notes.filter { $0.rule == id }
            .map { LintExamplePlace(file: $0.file, line: $0.location.line, column: $0.location.column) }
        return (Set(findings), Set(notes))
    }
}
