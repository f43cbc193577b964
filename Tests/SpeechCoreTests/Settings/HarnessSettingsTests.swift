import Foundation
import SpeechCore
import Testing

@Suite("Settings, declared once")
struct HarnessSettingsTests {
    /// docs/configuration.md's table is the declarations': regenerate it with
    /// `speech-harness settings --markdown` when this fails.
    @Test func theDocumentedTableIsTheDeclarations() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let marker = "## Settings\n\n"
        let documented = try #require(text.range(of: marker).map { String(text[$0.upperBound...]) })
        #expect(
            documented.trimmingCharacters(in: .whitespacesAndNewlines)
                == HarnessSettings.markdownTables().trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Every variable, key and option is unique, and every variable read anywhere in the sources
    /// is declared (a setting read by its bare name would escape the table).
    @Test func everySettingIsDeclaredOnceAndEveryReadIsDeclared() throws {
        let all = HarnessSettings.all
        #expect(Set(all.map(\.variable)).count == all.count)
        #expect(Set(all.map(\.key)).count == all.count)
        let options = all.compactMap(\.option)
        #expect(Set(options).count == options.count)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let buildConditions: Set = [
            "SPEECH_HARNESS_MUTATIONS", "SPEECH_HARNESS_HOST_CPU", "SPEECH_HARNESS_CLIBFUZZER_H",
        ]
        var named: Set<String> = []
        var literalReads: Set<String> = []
        for folder in ["Sources", "Fuzz"] {
            let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let path = files?.nextObject() as? String {
                guard path.hasSuffix(".swift") || path.hasSuffix(".h") || path.hasSuffix(".c") else { continue }
                let text = try String(
                    contentsOf: root.appendingPathComponent(folder).appendingPathComponent(path), encoding: .utf8)
                // A variable's name as a whole string literal is a read or write that bypasses
                // the declarations (help text that mentions one is a longer literal).
                if !path.hasPrefix("SpeechCore/Settings/"), text.contains("\"SPEECH_HARNESS_") {
                    let literal = try NSRegularExpression(pattern: "\"SPEECH_HARNESS_[A-Z0-9_]+\"")
                    if literal.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                        literalReads.insert(folder + "/" + path)
                    }
                }
                // A name followed by `*` speaks of a family (`SPEECH_HARNESS_WHISPER_*`), not a setting.
                let pattern = try NSRegularExpression(pattern: "SPEECH_HARNESS_[A-Z0-9_]*(\\*?)")
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
                where match.range(at: 1).length == 0 {
                    named.insert((text as NSString).substring(with: match.range))
                }
            }
        }
        let undeclared = named.subtracting(all.map(\.variable)).subtracting(buildConditions)
        #expect(
            literalReads.isEmpty,
            "read by name instead of through HarnessSettings: \(literalReads.sorted())")
        #expect(undeclared.isEmpty, "named in the sources but not declared: \(undeclared.sorted())")
    }

    @Test func aBadValueNamesTheSettingTheValueAndWhatIsAllowed() throws {
        #expect(throws: SettingError.self) {
            try HarnessSettings.whisperBeamSize.value(in: ["SPEECH_HARNESS_WHISPER_BEAM_SIZE": "0"])
        }
        let error = #expect(throws: SettingError.self) {
            try HarnessSettings.microphonePacing.value(in: ["SPEECH_HARNESS_MICROPHONE_PACING": "slow"])
        }
        #expect(error?.description == "SPEECH_HARNESS_MICROPHONE_PACING='slow': expected one of realtime, fast")
        // Blank is not given; a word is compared without case and decoded into its value.
        #expect(try HarnessSettings.whisperBeamSize.value(in: ["SPEECH_HARNESS_WHISPER_BEAM_SIZE": " "]) == 1)
        #expect(
            try HarnessSettings.recordPermission.value(in: ["SPEECH_HARNESS_RECORD_PERMISSION": "DENIED"]) == .denied)
        #expect(
            try HarnessSettings.recordPermission.value(in: ["SPEECH_HARNESS_RECORD_PERMISSION": "granted"])
                == .authorized)
        #expect(
            try HarnessSettings.assetDownloads.value(in: ["SPEECH_HARNESS_ASSET_DOWNLOADS": "SLOW:2.5"])
                == .slow(seconds: 2.5))
        #expect(
            try HarnessSettings.interruption.value(in: ["SPEECH_HARNESS_INTERRUPTION": "call:2-5"])
                == .call(at: 2, until: 5))
        #expect(try HarnessSettings.interruption.value(in: ["SPEECH_HARNESS_INTERRUPTION": "none"]) == nil)
        #expect(
            try HarnessSettings.microphoneEnd.value(in: ["SPEECH_HARNESS_MICROPHONE_END": "stop"])
                == .stopEngine(afterSilence: 0))
        #expect(try HarnessSettings.osRelease.value(in: ["SPEECH_HARNESS_OS_RELEASE": "26"]) == .release26)
        #expect(
            try HarnessSettings.speechTranscriber.value(in: ["SPEECH_HARNESS_SPEECH_TRANSCRIBER": "Unavailable"])
                == false)
        #expect(throws: SettingError.self) {
            try HarnessSettings.assetDownloads.value(in: ["SPEECH_HARNESS_ASSET_DOWNLOADS": "slow:0"])
        }
        #expect(throws: SettingError.self) {
            try HarnessSettings.faultRate.value(in: ["SPEECH_HARNESS_FAULT_RATE": "1.5"])
        }
        #expect(try HarnessSettings.faultRate.value(in: [:]) == 0.1)
    }

    /// The file holds any setting by its key; the environment wins over it; anything else in it is
    /// an error naming the file and the field.
    @Test func theConfigurationFileIsReadStrictly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(".speech-harness.json")
        func write(_ json: String) throws { try Data(json.utf8).write(to: file) }

        try write(#"{"engine": "dsp", "microphonePacing": "FAST", "whisperBeamSize": 5, "microphoneLead": 0.5}"#)
        let loaded = HarnessEnvironment.loading(
            ["SPEECH_HARNESS_ENGINE": "scripted", "SPEECH_HARNESS_WHISPER_BEAM_SIZE": ""], directory: directory.path)
        #expect(loaded.configurationProblem == nil)
        #expect(try loaded.value(HarnessSettings.engine) == "scripted", "the environment wins")
        #expect(try loaded.value(HarnessSettings.microphonePacing) == .fast)
        #expect(try loaded.value(HarnessSettings.whisperBeamSize) == 5, "a blank variable leaves the file's value")
        #expect(try loaded.value(HarnessSettings.microphoneLead) == 0.5)

        for (json, problem) in [
            (#"{"engin": "dsp"}"#, "field 'engin': not a setting (known: "),
            (#"{"engine": ["dsp"]}"#, "field 'engine': expected a string, got a list"),
            (#"{"whisperBeamSize": 99}"#, "field 'whisperBeamSize': '99': expected a whole number from 1 to 16"),
            (#"["engine"]"#, "expected an object of settings, got a list"),
            ("{\"engine\": ", "not valid JSON"),
        ] {
            try write(json)
            let error = #expect(throws: ConfigurationFileError.self) {
                try ConfigurationFile.load(directory: directory.path)
            }
            #expect(error?.path == file.path)
            #expect(error?.problem.hasPrefix(problem) == true, "\(json): \(String(describing: error))")
            #expect(HarnessEnvironment.loading([:], directory: directory.path).configurationProblem == error)
        }
    }
}
