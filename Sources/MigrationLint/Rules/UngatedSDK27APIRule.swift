/// An SDK 27 helper used where a system older than 27 can run the code.
struct UngatedSDK27APIRule: LintRule {
    static let id = "ungated-sdk27-api"
    static let triggers: [[String]] = [Array(sdk27Names.keys)]
    static let summary = "uses an SDK 27 helper where the app also runs on systems before 27"
    static let hint =
        "gate it with `if #available(iOS 27, macOS 27, *)` (or mark the declaration `@available(iOS 27, macOS 27, *)`), keep it in a source path only the 27 SDK compiles, and keep the 26 path for older systems"
    static let explanation = """
        The SDK 27 helpers (`CaptureInputSequenceProvider`, `AssetInputSequenceProvider`,
        `AnalyzerInputConverter`, `SpeechAnalyzer.Options(…ignoresResourceLimits:)`,
        `SFSpeechError.Code.cannotConfigureAudioSystem`) exist only on systems 27 and later. In an app
        whose deployment target is below 27 on some platform (its build settings, XcodeGen spec or
        package manifest say so; a manifest naming no platform deploys to the package manager's
        oldest), every use must sit where Swift knows 27 is present on each such platform: in the
        branch of `if #available`, after `guard #available … else`, in the else of `if #unavailable`,
        or in a declaration marked `@available` with those platforms at 27 (the `*` does not count).
        The migration guide also keeps these declarations in a source path only the 27 SDK compiles
        (a 26 SDK cannot name them, even inside `#available`) and keeps the 26 implementation; the
        rule cannot tell which files a build includes, so it checks the runtime gate. One finding per
        function (or per type, outside functions) at its first ungated use, with the deployment
        setting it read. Where no deployment setting is in the files, the rule notes the use instead
        of judging it. A type of the project with one of these names is its own, not Apple's.
        """

    /// The names that only the 27 SDK declares, and what they are.
    static let sdk27Names: [String: String] = [
        "CaptureInputSequenceProvider": "CaptureInputSequenceProvider",
        "AssetInputSequenceProvider": "AssetInputSequenceProvider",
        "AnalyzerInputConverter": "AnalyzerInputConverter",
        "ignoresResourceLimits": "SpeechAnalyzer.Options.ignoresResourceLimits",
        "cannotConfigureAudioSystem": "SFSpeechError.Code.cannotConfigureAudioSystem",
    ]

    static let sdk27 = DeploymentTargets.Version("27")!

    static func check(_ file: LintedFile) -> [LintFinding] { review(file).findings }

    static func notes(_ file: LintedFile) -> [LintNote] { review(file).notes }

    private static func review(_ file: LintedFile) -> LintReview {
        var review = LintReview()
        let deployment = file.project.deploymentTargets
        let older = deployment?.platforms(below: sdk27) ?? []
        if deployment != nil, older.isEmpty { return review }
        var judged: Set<Int> = []
        for (index, token) in file.tokens.enumerated() where token.kind == .identifier {
            guard let name = sdk27Names[token.text], isApples(file, index) else { continue }
            let scope = file.scope(of: index)
            guard !judged.contains(scope) else { continue }
            guard let deployment else {
                judged.insert(scope)
                review.notes.append(
                    LintNote(
                        file: file.file, location: token.location, rule: id,
                        text:
                            "\(name) not judged: no deployment target (build settings, XcodeGen spec or package manifest) is in the files linted"
                    ))
                continue
            }
            let regions = file.structure.availableVersions(at: index)
            let missing = older.filter { platform in
                !regions.contains { region in
                    region.platforms[platform].flatMap(DeploymentTargets.Version.init).map { $0 >= sdk27 } ?? false
                }
            }
            guard !missing.isEmpty else { continue }
            judged.insert(scope)
            let below = missing.map { "\($0) \(deployment.versions[$0]!)" }.joined(separator: ", ")
            var evidence = [
                LintStep(
                    file: file.file, location: token.location,
                    text: "the app deploys to \(below) (\(deployment.source)), below 27")
            ]
            for region in regions {
                let named = region.platforms.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
                evidence.append(
                    file.step(at: region.origin, "this gate names \(named), not \(missing.joined(separator: ", ")) 27"))
            }
            review.findings.append(
                file.finding(
                    Self.self, at: token.location,
                    "\(name) (SDK 27) used with no availability gate for \(missing.joined(separator: ", ")) 27; the app deploys to \(below)",
                    evidence: evidence))
        }
        return review
    }

    /// Whether the name at `index` is Apple's: not a declaration of the project's own, nor a
    /// member of another type (`Options.ignoresResourceLimits` and `.cannotConfigureAudioSystem`
    /// are members; the classes are named bare).
    private static func isApples(_ file: LintedFile, _ index: Int) -> Bool {
        let name = file.tokens[index].text
        if let before = file.token(index - 1),
            ["class", "struct", "enum", "actor", "protocol", "typealias", "func", "var", "let", "case"].contains(
                before.text)
        {
            return false
        }
        if file.run?.declaresType(name) == true { return false }
        return true
    }
}

extension LintedFile {
    /// The block a finding is grouped by: the function whose signature or body holds `index`, or the
    /// innermost closure, else the innermost type, else the file (-1).
    fileprivate func scope(of index: Int) -> Int {
        // A signature (`func f() -> AnalyzerInputConverter {`) belongs with its body.
        if let signature = structure.blocks.first(where: { block in
            guard case .function = block.kind, index < block.open else { return false }
            return structure.statementStart(of: block.open) <= index
        }) {
            return signature.open
        }
        let blocks = structure.enclosingBlocks(of: index)
        if let function = blocks.last(where: {
            if case .function = $0.kind { return true }
            return $0.kind == .other && token($0.open - 1)?.is("=") == true
        }) {
            return function.open
        }
        if let type = blocks.last(where: { if case .type = $0.kind { return true } else { return false } }) {
            return type.open
        }
        return -1
    }
}
