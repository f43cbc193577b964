/// Microphone capture in an app target whose property lists lack the usage keys.
struct MissingUsageDescriptionRule: LintRule {
    static let id = "missing-usage-description"
    static let summary = "captures the microphone but the app's Info.plist lacks a usage description"
    static let hint =
        "add NSMicrophoneUsageDescription (and, where the SFSpeechRecognizer API is used, NSSpeechRecognitionUsageDescription) to the app's Info.plist (or INFOPLIST_KEY_ build settings)"
    static let explanation = """
        An app that captures the microphone (AVAudioEngine, installTap, AVCaptureDevice,
        requestRecordPermission) must declare NSMicrophoneUsageDescription, or the system ends it on
        first access. NSSpeechRecognitionUsageDescription is required only where the files linted use
        the SFSpeechRecognizer API, which may send audio to Apple's servers; SpeechAnalyzer's modules
        run on the device. Applied only to app targets: an Info.plist, an .xcodeproj application
        target, an XcodeGen `type: application`, or INFOPLIST_KEY_ build settings. Command-line tools
        and packages have nothing to declare in, and the run says why the rule was not applied.
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        guard
            let capture = file.tokens.first(where: {
                $0.kind == .identifier
                    && ["AVAudioEngine", "installTap", "AVCaptureDevice", "requestRecordPermission"].contains($0.text)
            })
        else {
            return []
        }
        // Speech recognition permission is the legacy recogniser's (it may send audio to Apple's
        // servers); SpeechAnalyzer's modules run on the device and need only the microphone's.
        let legacy = (file.run?.units.map(\.structure.tokens) ?? [file.tokens]).contains { tokens in
            tokens.contains { $0.kind == .identifier && LegacyAPIRule.legacyNames[$0.text] != nil }
        }
        let required = ["NSMicrophoneUsageDescription"] + (legacy ? ["NSSpeechRecognitionUsageDescription"] : [])
        guard file.project.usageRuleSkipReason == nil else { return [] }
        guard let keys = file.project.usageDescriptionKeys else {
            findings.append(
                file.finding(
                    Self.self, at: capture.location,
                    "\(capture.text) used in an app target (\(file.project.appTarget ?? "?")), and no Info.plist declares \(required.joined(separator: " and "))"
                ))
            return findings
        }
        let missing = required.filter { !keys.contains($0) }
        if !missing.isEmpty {
            findings.append(
                file.finding(
                    Self.self, at: capture.location,
                    "\(capture.text) used; Info.plist lacks \(missing.joined(separator: " and "))"))
        }
        return findings
    }
}
