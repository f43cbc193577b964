import Dispatch
import Synchronization

/// What the lint knows about the app around the sources: whether they belong to an app target
/// at all, and the usage-description keys its Info.plist files (or INFOPLIST_KEY_ build settings)
/// declare.
public struct ProjectContext: Sendable {
    /// What marks the sources as an app's (an Info.plist, an .xcodeproj application target, an
    /// XcodeGen `type: application`, INFOPLIST_KEY_ settings); nil: nothing found, as for a
    /// command-line tool or a package, which declare no usage descriptions.
    public var appTarget: String?
    /// Keys declared by the property lists and build settings found; nil when none was found.
    public var usageDescriptionKeys: Set<String>?
    /// What marks the app as an iOS app (`SDKROOT = iphoneos`, an XcodeGen `platform: iOS`, an
    /// Info.plist key only iOS reads); nil when nothing does.
    public var iOSApp: String?
    /// An Info.plist the project's build settings name (`INFOPLIST_FILE`) that is not in the
    /// folder linted: the app's keys cannot be read, so none is reported missing.
    public var absentInfoPlist: String?
    /// The oldest system the app deploys to, by platform, and where that was read; nil when no
    /// setting was found.
    public var deploymentTargets: DeploymentTargets?

    public init(
        appTarget: String? = nil, usageDescriptionKeys: Set<String>? = nil, iOSApp: String? = nil,
        absentInfoPlist: String? = nil, deploymentTargets: DeploymentTargets? = nil
    ) {
        self.appTarget = appTarget
        self.usageDescriptionKeys = usageDescriptionKeys
        self.iOSApp = iOSApp
        self.absentInfoPlist = absentInfoPlist
        self.deploymentTargets = deploymentTargets
    }

    /// Why the usage-description rule does not apply here; nil when it does.
    public var usageRuleSkipReason: String? {
        if let absentInfoPlist {
            return
                "the project's build settings name \(absentInfoPlist) as its Info.plist, and it is not in the folder: "
                + "the app's usage descriptions cannot be read"
        }
        guard appTarget == nil, usageDescriptionKeys == nil else { return nil }
        return
            "no app target found (no Info.plist, .xcodeproj application or extension target, project.yml application, or INFOPLIST_KEY_ setting outside a framework or test project); "
            + "command-line tools and packages declare no usage descriptions"
    }
}

/// Finds the mistakes people make moving from SFSpeechRecognizer (or an early draft of the new API)
/// to SpeechAnalyzer. Works on the tokens and blocks of Swift's own parser, so nothing inside
/// comments or string text is reported; code inside string interpolations is checked like any
/// other code.
public enum MigrationLinter {
    /// Findings in one file's source text, sorted by position.
    public static func lint(source: String, file: String, project: ProjectContext = ProjectContext()) -> [LintFinding] {
        lint([LintSource(file: file, text: source)], project: project)
    }

    /// Findings in a set of files linted together (an app's sources), sorted by file and position.
    /// Rules follow calls and closures from one file into the others.
    public static func lint(_ sources: [LintSource], project: ProjectContext = ProjectContext()) -> [LintFinding] {
        review(sources, project: project).findings
    }

    /// The reviews of several projects, each linted on its own (no call is followed from one into
    /// another), side by side on every core; in the order given.
    public static func review(projects: [(sources: [LintSource], project: ProjectContext)]) -> [LintReview] {
        let reviews = Mutex([LintReview?](repeating: nil, count: projects.count))
        DispatchQueue.concurrentPerform(iterations: projects.count) { number in
            let review = review(projects[number].sources, project: projects[number].project)
            reviews.withLock { $0[number] = review }
        }
        return reviews.withLock { $0.map { $0 ?? LintReview() } }
    }

    /// Findings and notes in a set of files linted together, each sorted by file and position.
    public static func review(_ sources: [LintSource], project: ProjectContext = ProjectContext()) -> LintReview {
        let index = ProjectIndex(sources)
        var review = LintReview()
        // Only the rules whose words a file contains read it; a file they all skip is not parsed.
        for (number, rules) in index.readers.enumerated() where !rules.isEmpty {
            let file = index.file(number, project: project)
            // A finding two paths of one rule reach is kept once.
            var seen: Set<LintFinding> = []
            let found = rules.flatMap { $0.check(file) }.filter { seen.insert($0).inserted }
            review.findings += found.sorted { ($0.location, $0.rule.id) < ($1.location, $1.rule.id) }
            var noted: Set<LintNote> = []
            let notes = rules.flatMap { $0.notes(file) }.filter { noted.insert($0).inserted }
            review.notes += notes.sorted { ($0.location, $0.rule) < ($1.location, $1.rule) }
        }
        return review
    }
}

/// What one run of the rules says: findings to act on, and notes on what was left undecided.
public struct LintReview: Sendable {
    public var findings: [LintFinding] = []
    public var notes: [LintNote] = []
}
