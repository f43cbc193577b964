import Foundation
import MigrationLint
import Testing

@_spi(Fuzzing) @testable import HarnessCLI

/// `migrate lint` end to end: folders, Info.plist discovery, baseline round trip, JUnit, exit codes.
@Suite("migrate lint command")
struct MigrateLintCommandTests {
    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(
            at: url.appendingPathComponent("App/.build"), withIntermediateDirectories: true)
        return url
    }()

    func write(_ name: String, _ text: String) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func plist(_ keys: [String]) -> String {
        let entries = keys.map { "<key>\($0)</key><string>Transcribes what you say.</string>" }.joined()
        return #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>"# + entries + "</dict></plist>"
    }

    func run(_ arguments: [String]) async -> (Int32, Captured) {
        let captured = Captured()
        return (await SpeechHarnessTool.run(["migrate", "lint"] + arguments, console: captured.console), captured)
    }

    @Test func findingsBaselineAndJUnit() async throws {
        try write(
            "App/Mic.swift",
            "let engine = AVAudioEngine()\n// SFSpeechRecognizer in a comment\nlet r = SFSpeechRecognizer()\nlet input = engine.inputNode\n"
        )
        try write("App/.build/Generated.swift", "let ignored = SFSpeechRecognizer()\n")
        try write("App/Info.plist", plist(["NSMicrophoneUsageDescription"]))
        let root = folder.appendingPathComponent("App").path
        let junit = folder.appendingPathComponent("lint.xml").path

        let (status, first) = await run([root, "--junit", junit])
        #expect(status == 1)
        #expect(first.stdout.contains("App/Mic.swift:3:9: warning: [legacy-api]"))
        #expect(first.stdout.contains("Info.plist lacks NSSpeechRecognitionUsageDescription"))
        #expect(first.stdout.hasSuffix("1 file, 2 findings"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == LintRules.descriptors.count - 1)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 2)

        let baseline = folder.appendingPathComponent("baseline.json").path
        #expect(await run([root, "--write-baseline", baseline]).0 == 0)
        try write(
            "App/Mic.swift",
            "\nlet engine = AVAudioEngine()\nlet r = SFSpeechRecognizer()\nlet input = engine.inputNode\n")
        let (accepted, second) = await run([root, "--baseline", baseline])
        #expect(accepted == 0)
        #expect(second.stdout == "1 file, 0 findings, 2 accepted by the baseline")

        try write("App/Info.plist", plist(["NSMicrophoneUsageDescription", "NSSpeechRecognitionUsageDescription"]))
        let (_, third) = await run([root, "--baseline", baseline])
        #expect(third.stderr.contains("baseline entry no longer found: \(root)/Mic.swift [missing-usage-description]"))
    }

    @Test func theMicrophoneRuleAppliesToAppTargetsOnly() async throws {
        try write("Tool/main.swift", "let engine = AVAudioEngine()\nlet input = engine.inputNode\n")
        let tool = folder.appendingPathComponent("Tool").path
        let junit = folder.appendingPathComponent("tool.xml").path
        let (clean, c) = await run([tool, "--junit", junit])
        #expect(clean == 0)
        #expect(c.stdout.contains("note: [missing-usage-description] not applied: no app target found"))
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("<skipped message=\"no app target found"))
        // A framework's project is no app either; an XcodeGen application, or an app target in a project, is.
        try write("Tool/Tool.xcodeproj/project.pbxproj", "productType = \"com.apple.product-type.framework\";\n")
        #expect(await run([tool]).0 == 0)
        try write("Tool/project.yml", "targets:\n  Dictation:\n    type: application\n    platform: iOS\n")
        let (app, a) = await run([tool])
        #expect(app == 1 && a.stdout.contains("Info.plist lacks NSMicrophoneUsageDescription"))
        // The spec's own `info: properties:` declare the key (held-out set 7's XcodeGen app).
        try write(
            "Tool/project.yml",
            "targets:\n  Dictation:\n    type: application\n    platform: iOS\n    info:\n      properties:\n"
                + "        NSMicrophoneUsageDescription: Transcribes what you say.\n")
        #expect(await run([tool]).0 == 0)
        try FileManager.default.removeItem(atPath: tool + "/project.yml")
        try write("Tool/Tool.xcodeproj/project.pbxproj", "productType = \"com.apple.product-type.application\";\n")
        #expect(await run([tool]).0 == 1)
    }

    /// Modules side by side without a Swift package or Xcode project (React Native or Expo modules
    /// with a `package.json`, pods with a `.podspec`, Flutter plugins with a `pubspec.yaml`) are each
    /// their own project: one module's class named `SpeechTranscriber` is not the other's.
    @Test func modulesWithOtherBuildManifestsAreProjectsOfTheirOwn() async throws {
        try write("Modules/legacy/package.json", "{}")
        try write(
            "Modules/legacy/ios/SpeechTranscriber.swift",
            "import Speech\nfinal class SpeechTranscriber {\n    let recognizer = SFSpeechRecognizer()\n}\n")
        try write("Modules/modern/Modern.podspec", "Pod::Spec.new do |s| end\n")
        try write(
            "Modules/modern/ios/Dictation.swift",
            "import Speech\nfinal class Dictation {\n    let transcriber = SpeechTranscriber(locale: Locale(identifier: \"en-US\"), preset: .transcription)\n"
                + "    let fallback = SFSpeechRecognizer()\n}\n")
        try write("Modules/flutter/pubspec.yaml", "name: flutter\n")
        try write("Modules/flutter/ios/Classes/Plugin.swift", "let x = 1\n")
        let modules = folder.appendingPathComponent("Modules").path
        let inputs = LintInputs.collect([modules], infoPlists: [])
        #expect(
            inputs.projects.map(\.root).sorted() == ["flutter", "legacy", "modern"].map { modules + "/" + $0 })
        let (_, joint) = await run([modules])
        let findings = joint.stdout.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(findings.count == 1, "\(joint.stdout)")
        #expect(findings.first?.contains("legacy/ios/SpeechTranscriber.swift:3:") == true, "\(joint.stdout)")
    }

    @Test func badInputIsNamed() async throws {
        try write("App/Broken.plist", "not a plist")
        try write("App/Clean.swift", "let x = 1\n")
        let (missing, c) = await run([folder.appendingPathComponent("nope").path])
        #expect(missing == 1 && c.stderr.contains("nope: no such file or folder"))
        let (bad, d) = await run([
            folder.appendingPathComponent("App/Clean.swift").path, "--info-plist",
            folder.appendingPathComponent("App/Broken.plist").path,
        ])
        #expect(bad == 1 && d.stderr.contains("Broken.plist: not a property list"))
        try write("b.json", "{\"version\": 1}")
        let (usage, e) = await run([
            folder.appendingPathComponent("App").path, "--baseline", folder.appendingPathComponent("b.json").path,
        ])
        #expect(usage == 1 && e.stderr.contains("b.json: not a lint baseline"))
        #expect(await run([]).0 == 2)
    }
}
