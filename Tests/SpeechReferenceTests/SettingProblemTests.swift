import AVFAudio
import Foundation
import SpeechCore
import Testing
import VirtualDevice

@testable import SpeechReference

/// A setting the harness cannot use fails the call that uses it, inside the test process: no
/// library code ends the process, so the next test (and the next call here) runs.
@Suite("Bad settings fail a call, not the process", .isolatedResources)
struct SettingProblemTests {
    static func environment(_ name: String, _ value: String) -> HarnessEnvironment {
        HarnessContext.current.environment.setting(name, to: value)
    }

    @Test func aBadDeviceSettingFailsTheAnalyzersStartAndAGoodOneRunsAfterIt() async throws {
        let bad = Self.environment("SPEECH_HARNESS_MICROPHONE_PACING", "sideways")
        let transcriber = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.environment, bad)) {
            // Read under Apple's non-throwing API: the default, not a stop.
            #expect(DeviceSettings.current.microphone.pacing == .realtime)
            await #expect(throws: HarnessSettingsProblem.self) {
                try await analyzer.start(inputSequence: Fixture.stream(Fixture.inputs(count: 2)))
            }
            do {
                try await analyzer.prepareToAnalyze(in: nil)
                Issue.record("prepareToAnalyze accepted a bad setting")
            } catch let problem as HarnessSettingsProblem {
                #expect(
                    problem
                        == .setting(
                            SettingError(
                                variable: "SPEECH_HARNESS_MICROPHONE_PACING", value: "sideways",
                                expected: HarnessSettings.microphonePacing.allowed)))
                #expect("\(problem)".hasPrefix("SPEECH_HARNESS_MICROPHONE_PACING='sideways': expected "))
            }
        }
        // The same process, a usable environment: analysis runs.
        let good = SpeechAnalyzer(modules: [Fixture.transcriber()])
        let last = try await good.analyzeSequence(Fixture.stream(Fixture.inputs(count: 2)))
        #expect(last != nil)
        await good.cancelAndFinishNow()
    }

    @Test func aBadReservationLimitFailsReserveAndTheStoreKeepsItsDefault() async throws {
        let bad = Self.environment("SPEECH_HARNESS_MAX_RESERVED_LOCALES", "many")
        // A store of its own: the standard one is shared with every process of the user.
        let folder = try TemporaryDirectory()
        let store = HarnessContext.$current.withValue(HarnessContext.current.with(\.environment, bad)) {
            AssetStore(root: folder.url)
        }
        #expect(store.maximumReservedLocales == 5)
        var context = HarnessContext.current
        context.environment = bad
        context.assets = store
        await HarnessContext.$current.withValue(context) {
            await #expect(throws: HarnessSettingsProblem.self) {
                try await AssetInventory.reserve(locale: Locale(identifier: "en-US"))
            }
            await #expect(throws: HarnessSettingsProblem.self) {
                _ = try await AssetInventory.assetInstallationRequest(supporting: [Fixture.transcriber()])
            }
            // A call that cannot throw answers as it would with the default.
            #expect(await AssetInventory.reservedLocales.isEmpty)
        }
    }

    @Test func anUnreadableConfigurationFileIsTheProblem() throws {
        let dir = try TemporaryDirectory()
        try Data("{\"whisperBeamSize\": [1]}".utf8).write(to: dir.url.appendingPathComponent(".speech-harness.json"))
        let environment = HarnessEnvironment.loading([:], directory: dir.url.path)
        let problem = try #require(environment.configurationProblem)
        #expect(environment.settingsProblem == .configurationFile(problem))
        #expect(throws: HarnessSettingsProblem.configurationFile(problem)) { try environment.validated() }
        #expect("\(problem)".contains(".speech-harness.json"))
        #expect(HarnessEnvironment(["SPEECH_HARNESS_WHISPER_BEAM_SIZE": "4"]).settingsProblem == nil)
        #expect(HarnessEnvironment(["SPEECH_HARNESS_WHISPER_BEAM_SIZE": " "]).settingsProblem == nil)
        #expect(
            HarnessEnvironment(["SPEECH_HARNESS_WHISPER_BEAM_SIZE": "0"]).settingsProblem
                == .setting(
                    SettingError(
                        variable: "SPEECH_HARNESS_WHISPER_BEAM_SIZE", value: "0",
                        expected: HarnessSettings.whisperBeamSize.allowed)))
    }

    @Test func anEngineSettingNamingNoEngineLeavesTheLocaleListsEmptyInsteadOfStopping() async {
        let bad = Self.environment("SPEECH_HARNESS_ENGINE", "no-such-engine")
        await HarnessContext.$current.withValue(HarnessContext.current.with(\.environment, bad)) {
            #expect(LocaleSupport.engines().isEmpty)
            #expect(await SpeechTranscriber.supportedLocales.isEmpty)
        }
    }
}
