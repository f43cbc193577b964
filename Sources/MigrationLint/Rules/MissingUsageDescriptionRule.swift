/// Microphone capture in an app target whose property lists lack the usage keys.
struct MissingUsageDescriptionRule: LintRule {
    static let id = "missing-usage-description"
    static let triggers: [[String]] = [["inputNode", "installTap", "AVCaptureDevice", "requestRecordPermission"]]
    static let summary = "captures the microphone but the app's Info.plist lacks a usage description"
    static let hint =
        "add NSMicrophoneUsageDescription (and NSSpeechRecognitionUsageDescription in an iOS app that transcribes the microphone, or wherever the SFSpeechRecognizer API is used) to the app's Info.plist (or INFOPLIST_KEY_ build settings)"
    static let explanation = """
        An app that captures the microphone (an AVAudioEngine's input node, installTap,
        AVCaptureDevice, requestRecordPermission; an engine with none of those in the file only
        plays sound) must declare NSMicrophoneUsageDescription, or the system ends it on
        first access. NSSpeechRecognitionUsageDescription is asked for in two cases. The first is
        where the files linted use the SFSpeechRecognizer API. The second is an iOS app (SDKROOT
        iphoneos, an XcodeGen `platform: iOS`, an iOS-only Info.plist key) whose files transcribe
        with SpeechAnalyzer as well as capture: the migration guide this lint follows says an iOS
        host app doing live microphone transcription needs both keys. The two sources differ:
        Apple's page for the key asks for it where an app's APIs send user data to Apple's speech
        recognition servers, which SpeechAnalyzer's on-device modules do not; the guide asks for it
        in any such iOS app, and this rule follows the guide. Applied only to app targets: an
        Info.plist, an .xcodeproj application target, an XcodeGen `type: application`, or
        INFOPLIST_KEY_ build settings. Command-line tools and packages have nothing to declare in,
        and the run says why the rule was not applied.
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
        // An engine alone may only play sound: capture needs its input node, a tap, a capture
        // device or the record permission in the file.
        if capture.text == "AVAudioEngine",
            !file.tokens.contains(where: {
                $0.kind == .identifier
                    && ["inputNode", "installTap", "AVCaptureDevice", "requestRecordPermission"].contains($0.text)
            })
        {
            return []
        }
        // Speech recognition permission: the legacy recogniser's (it may send audio to Apple's
        // servers), and, by the migration guide, an iOS app's that transcribes live capture.
        let transcribers = ["SpeechAnalyzer", "SpeechTranscriber", "DictationTranscriber"]
        let legacy = file.runTokens(mentioning: ["SF"]).contains { tokens in
            tokens.contains { $0.kind == .identifier && LegacyAPIRule.legacyNames[$0.text] != nil }
        }
        let transcribes = file.runTokens(mentioning: transcribers).contains { tokens in
            tokens.contains { $0.kind == .identifier && transcribers.contains($0.text) }
        }
        let iOSTranscription = file.project.iOSApp != nil && transcribes
        let required =
            ["NSMicrophoneUsageDescription"]
            + (legacy || iOSTranscription ? ["NSSpeechRecognitionUsageDescription"] : [])
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
                    "\(capture.text) used; Info.plist lacks \(missing.joined(separator: " and "))"
                        + (iOSTranscription && !legacy && missing.contains("NSSpeechRecognitionUsageDescription")
                            ? " (an iOS app transcribing the microphone, \(file.project.iOSApp ?? ""))" : "")))
        }
        return findings
    }
}
