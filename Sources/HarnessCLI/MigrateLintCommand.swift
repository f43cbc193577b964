import Foundation
import MigrationLint
import Reports
import SpeechCore

/// `speech-harness migrate lint`: the migration lint over files and folders.
enum MigrateLintCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "migrate lint",
            summary: "Find SFSpeechRecognizer leftovers and SpeechAnalyzer migration mistakes in Swift sources.",
            options: [
                baseline.spec, writeBaseline.spec, infoPlist.spec, junit.spec, format.spec, rules.spec, markdown.spec,
                explain.spec, explainFinding.spec,
            ],
            arguments: [.any("path")],
            details: """
                Folders are searched for .swift files (skipping hidden folders and .build). Each Swift package, \
                Xcode project or XcodeGen spec found (a Package.swift, .xcodeproj or project.yml) is linted on its \
                own, with its own app settings: calls are followed only within it. Findings print as
                file:line:column: warning: [rule] … with a fix hint. Nothing inside comments or string text is
                reported; code in string interpolations is checked. The usage-description rule applies to app targets \
                only (an Info.plist, an .xcodeproj application or extension, a project.yml application, INFOPLIST_KEY_ \
                settings in a project that names no product type); \
                elsewhere a note says why it was not applied. A rule that cannot follow a path to its end (a \
                handler, delegate or action whose code is not in the files) prints a note instead of a finding.
                Exit status: 0 no new findings, 1 new findings or unreadable files, 2 usage error.
                """,
            run: { try run("migrate lint", $0, $1) })
    ]

    static let baseline = Option.text(
        "baseline", value: "file", help: "Accept the findings listed in this baseline file.")
    static let writeBaseline = Option.text(
        "write-baseline", value: "file", help: "Write every current finding to this baseline file and exit 0.")
    static let infoPlist = Option.texts(
        "info-plist", value: "file",
        help:
            "The app's Info.plist (repeatable; default: Info.plist, .pbxproj and .xcconfig files found under the paths)."
    )
    static let junit = Option.text("junit", value: "file", help: "Write JUnit XML here: a case per rule per file.")
    static let format = Option.choice(
        "format", LintOutputFormat.self,
        help: "What standard output holds: text findings (default), or one SARIF 2.1.0 log.")
    static let rules = Option.flag("rules", help: "List the rules and exit.")
    static let markdown = Option.flag(
        "markdown", help: "With --rules: the rule table of docs/lint-rules.md, each rule with its reasoning.")
    static let explain = Option.text(
        "explain", value: "rule",
        help: "Print one rule's reasoning, what it follows before deciding, and its fix; then exit.")

    static let explainFinding = Option.text(
        "explain-finding", value: "file:line[:column]",
        help:
            "Lint the paths, then print the findings and notes at this place (as the text output names it) with the path each rule followed to it, step by step; exit 0, or 2 when there is none."
    )

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        if arguments[Self.rules] {
            if arguments[Self.markdown] {
                console.out(LintRules.markdown())
                return 0
            }
            for rule in LintRules.descriptors { console.out("\(rule.id): \(rule.summary)\n    fix: \(rule.hint)") }
            return 0
        }
        if let id = arguments[Self.explain] {
            guard let rule = LintRules.named(id) else {
                throw UsageError(
                    message:
                        "no rule '\(id)'; the rules are \(LintRules.descriptors.map(\.id).joined(separator: ", "))",
                    command: path)
            }
            console.out("\(rule.id): \(rule.summary)\n\n\(rule.explanation)\n\nfix: \(rule.hint)")
            return 0
        }
        guard !arguments.positionals.isEmpty else {
            throw UsageError(message: "give at least one file or folder to lint", command: path)
        }
        let inputs = LintInputs.collect(arguments.positionals, infoPlists: arguments[Self.infoPlist])
        var unreadable = inputs.unreadable
        var findings: [LintFinding] = []
        var notes: [LintNote] = []
        var projects: [(sources: [LintSource], project: ProjectContext)] = []
        for project in inputs.projects {
            var sources: [LintSource] = []
            for file in project.swiftFiles {
                guard let data = FileContents.read(atPath: file) else {
                    unreadable.append((file, "cannot read the file"))
                    continue
                }
                guard let source = String(data: data, encoding: .utf8) else {
                    unreadable.append((file, "not UTF-8 text"))
                    continue
                }
                sources.append(LintSource(file: file, text: source))
            }
            projects.append((sources, project.context))
        }
        // A project's files are linted together, so that a call or a closure in one file is
        // followed into another; never into another project's.
        for review in MigrationLinter.review(projects: projects) {
            findings += review.findings
            notes += review.notes
        }
        findings.sort { ($0.file, $0.location, $0.rule.id) < ($1.file, $1.location, $1.rule.id) }
        notes.sort { ($0.file, $0.location, $0.rule) < ($1.file, $1.location, $1.rule) }
        for (file, reason) in unreadable { console.err("speech-harness migrate lint: \(file): \(reason)") }

        if let output = arguments[Self.writeBaseline] {
            guard FileManager.default.createFile(atPath: output, contents: LintBaseline(findings: findings).encoded())
            else {
                throw ReportError.write(path: output, reason: "cannot create the file")
            }
            console.out("wrote \(findings.count) finding\(findings.count == 1 ? "" : "s") to \(output)")
            return 0
        }
        var baseline = LintBaseline(findings: [])
        if let file = arguments[Self.baseline] {
            guard let data = FileContents.read(atPath: file) else {
                throw UsageError(message: "cannot read baseline '\(file)'", command: path)
            }
            baseline = try LintBaseline.decode(data, path: file)
        }
        if let place = arguments[Self.explainFinding] {
            return try explain(place, findings: findings, notes: notes, console: console, command: path)
        }
        let (new, accepted, stale) = baseline.apply(to: findings)
        let sarif = arguments[Self.format] == .sarif
        if sarif {
            console.out(
                String(
                    decoding: SARIFLog.encoded(SARIFLog.make(new: new, accepted: accepted, unreadable: unreadable)),
                    as: UTF8.self))
        } else {
            for finding in new { console.out(finding.description) }
        }
        for entry in stale {
            console.err(
                "speech-harness migrate lint: baseline entry no longer found: \(entry.file) [\(entry.rule)] \(entry.line)"
            )
        }
        let summary = { (text: String) in sarif ? console.err(text) : console.out(text) }
        for note in notes { summary(note.description) }
        for project in inputs.projects {
            guard let reason = project.context.usageRuleSkipReason else { continue }
            let place = inputs.projects.count == 1 || project.root.isEmpty ? "" : " in \(project.root)"
            summary("note: [\(LintRules.missingUsageDescription.id)] not applied\(place): \(reason)")
        }
        summary(
            "\(inputs.swiftFiles.count) file\(inputs.swiftFiles.count == 1 ? "" : "s"), \(new.count) finding\(new.count == 1 ? "" : "s")"
                + (notes.isEmpty ? "" : ", \(notes.count) note\(notes.count == 1 ? "" : "s")")
                + (accepted.isEmpty ? "" : ", \(accepted.count) accepted by the baseline")
                + (unreadable.isEmpty ? "" : ", \(unreadable.count) unreadable"))
        if let junit = arguments[Self.junit] {
            // Skipped when no project of the run is an app's.
            let reasons = inputs.projects.map(\.context.usageRuleSkipReason)
            let skipped =
                reasons.allSatisfy({ $0 != nil })
                ? reasons.first.flatMap { $0 }.map {
                    [LintRules.missingUsageDescription.id: $0]
                } ?? [:] : [:]
            try JUnitWriter.write(
                LintReport.junit(
                    files: inputs.swiftFiles, new: new, accepted: accepted, unreadable: unreadable,
                    skippedRules: skipped), to: junit)
            let problems = JUnitWriter.validate(path: junit)
            if !problems.isEmpty { throw ReportError.invalid(path: junit, problems: problems) }
        }
        return new.isEmpty && unreadable.isEmpty ? 0 : 1
    }
}

extension MigrateLintCommand {
    /// `--explain-finding`: each finding and note at `place`, with its evidence.
    static func explain(
        _ place: String, findings: [LintFinding], notes: [LintNote], console: Console, command: String
    ) throws -> Int32 {
        let parts = place.split(separator: ":", omittingEmptySubsequences: false)
        let numbers = parts.reversed().prefix { Int($0) != nil }.reversed().compactMap { Int($0) }
        guard (1...2).contains(numbers.count), parts.count > numbers.count else {
            throw UsageError(
                message: "--explain-finding takes file:line or file:line:column, got '\(place)'", command: command)
        }
        let file = parts.dropLast(numbers.count).joined(separator: ":")
        // `./Sources/A.swift` and `Sources/A.swift` name the same file.
        let bare = { (path: String) in path.hasPrefix("./") ? String(path.dropFirst(2)) : path }
        let at = { (candidate: String, location: SourceLocation) in
            bare(candidate) == bare(file) && location.line == numbers[0]
                && (numbers.count == 1 || location.column == numbers[1])
        }
        let chosenFindings = findings.filter { at($0.file, $0.location) }
        let chosenNotes = notes.filter { at($0.file, $0.location) }
        guard !chosenFindings.isEmpty || !chosenNotes.isEmpty else {
            console.err("speech-harness migrate lint: no finding or note at \(place)")
            return 2
        }
        let steps = { (evidence: [LintStep]) in
            ["  path the rule followed:"]
                + evidence.enumerated().map { "    \($0.offset + 1). \($0.element)" }
        }
        for finding in chosenFindings {
            console.out(([finding.description] + steps(finding.evidence)).joined(separator: "\n"))
        }
        for note in chosenNotes {
            console.out(([note.description] + steps(note.evidence)).joined(separator: "\n"))
        }
        return 0
    }
}

/// What `migrate lint` prints.
enum LintOutputFormat: String, CaseIterable, Sendable {
    case text, sarif
}
