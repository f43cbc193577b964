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
                explain.spec,
            ],
            arguments: [.any("path")],
            details: """
                Folders are searched for .swift files (skipping hidden folders and .build). Findings print as
                file:line:column: warning: [rule] … with a fix hint. Nothing inside comments or string text is
                reported; code in string interpolations is checked. The usage-description rule applies to app targets \
                only (an Info.plist, an .xcodeproj application, a project.yml application, INFOPLIST_KEY_ settings); \
                elsewhere a note says why it was not applied.
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
        var sources: [LintSource] = []
        var unreadable = inputs.unreadable
        for file in inputs.swiftFiles {
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
        // Linted together, so that a call or a closure in one file is followed into another.
        let findings = MigrationLinter.lint(sources, project: inputs.project)
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
        if let reason = inputs.project.usageRuleSkipReason {
            summary("note: [\(LintRules.missingUsageDescription.id)] not applied: \(reason)")
        }
        summary(
            "\(inputs.swiftFiles.count) file\(inputs.swiftFiles.count == 1 ? "" : "s"), \(new.count) finding\(new.count == 1 ? "" : "s")"
                + (accepted.isEmpty ? "" : ", \(accepted.count) accepted by the baseline")
                + (unreadable.isEmpty ? "" : ", \(unreadable.count) unreadable"))
        if let junit = arguments[Self.junit] {
            let skipped = inputs.project.usageRuleSkipReason.map { [LintRules.missingUsageDescription.id: $0] } ?? [:]
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

/// What `migrate lint` prints.
enum LintOutputFormat: String, CaseIterable, Sendable {
    case text, sarif
}

/// The files a lint run reads: Swift sources, and the usage-description keys of the app's
/// property lists and build settings. The SPI is for the fuzz targets (Fuzz/FuzzChecks).
@_spi(Fuzzing) public struct LintInputs {
    var swiftFiles: [String] = []
    var project = ProjectContext()
    var unreadable: [(String, String)] = []

    static let usageKeys = ["NSMicrophoneUsageDescription", "NSSpeechRecognitionUsageDescription"]

    static func collect(_ paths: [String], infoPlists: [String]) -> LintInputs {
        var inputs = LintInputs()
        var settingsFiles: [String] = infoPlists
        var projectSpecs: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                inputs.unreadable.append((path, "no such file or folder"))
                continue
            }
            guard isDirectory.boolValue else {
                inputs.swiftFiles.append(path)
                continue
            }
            let root = URL(fileURLWithPath: path)
            guard
                let walker = manager.enumerator(
                    at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
            else { continue }
            for case let url as URL in walker {
                if url.lastPathComponent == ".build" || url.lastPathComponent == "DerivedData" {
                    walker.skipDescendants()
                    continue
                }
                let relative =
                    path.hasSuffix("/")
                    ? path + url.path.dropFirst(root.path.count + 1)
                    : path + "/" + url.path.dropFirst(root.path.count + 1)
                switch url.pathExtension {
                case "swift": inputs.swiftFiles.append(relative)
                case "pbxproj", "xcconfig": settingsFiles.append(relative)
                case "plist" where url.lastPathComponent.hasSuffix("Info.plist") && infoPlists.isEmpty:
                    settingsFiles.append(relative)
                case "yml" where url.deletingPathExtension().lastPathComponent == "project",
                    "yaml" where url.deletingPathExtension().lastPathComponent == "project":
                    projectSpecs.append(relative)
                default: break
                }
            }
        }
        inputs.swiftFiles.sort()
        var keys: Set<String> = []
        for file in settingsFiles {
            switch usageKeys(in: file) {
            case .success(let found): keys.formUnion(found)
            case .failure(let reason): inputs.unreadable.append((file, reason.message))
            }
        }
        inputs.project.appTarget = settingsFiles.first { isAppEvidence($0) } ?? projectSpecs.first { isAppEvidence($0) }
        if inputs.project.appTarget != nil { inputs.project.usageDescriptionKeys = keys }
        inputs.project.iOSApp = (settingsFiles + projectSpecs).lazy.compactMap(iOSEvidence).first
        return inputs
    }

    /// Whether a file shows an app target: an Info.plist; a project with an application product
    /// or INFOPLIST_KEY_ settings; an XcodeGen spec with `type: application`.
    @_spi(Fuzzing) public static func isAppEvidence(_ file: String) -> Bool {
        if file.hasSuffix(".plist") { return true }
        guard let text = FileContents.read(atPath: file).map({ String(decoding: $0, as: UTF8.self) }) else {
            return false
        }
        if file.hasSuffix(".yml") || file.hasSuffix(".yaml") {
            return text.split(separator: "\n").contains {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "") == "type:application"
            }
        }
        return text.contains("com.apple.product-type.application") || text.contains("INFOPLIST_KEY_")
    }

    /// What in `file` marks the app as an iOS app, as `file: what`; nil when nothing does.
    @_spi(Fuzzing) public static func iOSEvidence(_ file: String) -> String? {
        guard let text = FileContents.read(atPath: file).map({ String(decoding: $0, as: UTF8.self) }) else {
            return nil
        }
        // A multiplatform target lists iphoneos among its platforms.
        if file.hasSuffix(".pbxproj") || file.hasSuffix(".xcconfig"),
            let platforms = text.split(separator: "\n").first(where: {
                $0.contains("SUPPORTED_PLATFORMS") && $0.contains("iphoneos")
            })
        {
            return "\(file): \(platforms.trimmingCharacters(in: .whitespaces))"
        }
        let marks =
            file.hasSuffix(".plist")
            ? ["LSRequiresIPhoneOS", "UIApplicationSceneManifest", "UILaunchScreen", "UIRequiredDeviceCapabilities"]
            : file.hasSuffix(".yml") || file.hasSuffix(".yaml")
                ? ["platform: iOS"] : ["SDKROOT = iphoneos", "INFOPLIST_KEY_UILaunchScreen"]
        return marks.first { text.contains($0) }.map { "\(file): \($0)" }
    }

    @_spi(Fuzzing) public struct Unreadable: Error { public var message: String }

    /// The usage-description keys of an Info.plist that have text values; other keys and values
    /// of other types are passed over.
    struct UsageDescriptions: Decodable {
        var keys: [String: String] = [:]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for name in LintInputs.usageKeys {
                if let value = try? container.decodeIfPresent(String.self, forKey: Key(stringValue: name)) {
                    keys[name] = value
                }
            }
        }
    }

    /// Usage-description keys with a non-empty value, from a property list (XML or binary) or from
    /// `INFOPLIST_KEY_…` build settings in a project or xcconfig file.
    @_spi(Fuzzing) public static func usageKeys(in file: String) -> Result<Set<String>, Unreadable> {
        guard let data = FileContents.read(atPath: file) else {
            return .failure(Unreadable(message: "cannot read the file"))
        }
        if file.hasSuffix(".plist") {
            // PropertyListDecoder (XML or binary), not PropertyListSerialization, whose Linux
            // parser leaks an error object on every malformed file.
            do {
                let found = try PropertyListDecoder().decode(UsageDescriptions.self, from: data).keys
                return .success(Set(found.filter { $0.value.contains { !$0.isWhitespace } }.keys))
            } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
                return .failure(Unreadable(message: "the property list is not a dictionary"))
            } catch {
                return .failure(Unreadable(message: "not a property list"))
            }
        }
        let text = String(decoding: data, as: UTF8.self)
        return .success(Set(usageKeys.filter { text.contains("INFOPLIST_KEY_\($0)") }))
    }
}
