import Foundation
import TestSupport
import Testing

/// `speech-harness-record --device-answers`: the locale and availability questions asked through
/// Apple's public API, and scripts/compare-device-answers on two sets of answers.
@Suite("Device answers")
struct DeviceAnswersTests {
    /// The locale and availability answers (`--device-answers`), as the macOS lane records them
    /// from Apple's framework: on the reference under the default device and under a profile
    /// without SpeechTranscriber, compared with scripts/compare-device-answers.
    @Test(.enabled(if: PackageProgram.available("speech-harness-record")))
    func deviceAnswersFollowTheProfileAndCompare() throws {
        let dir = try TemporaryDirectory()
        func answers(_ name: String, _ environment: [String: String]) throws -> [String: Any] {
            let run = try PackageProgram.run(
                "speech-harness-record", ["--device-answers", dir.path(name)],
                environment: ["SPEECH_HARNESS_ENGINE": "pocketsphinx"].merging(environment) { $1 })
            #expect(run.status == 0, "\(run.output)")
            let data = try Data(contentsOf: URL(fileURLWithPath: dir.path(name)))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let device = try answers("device.json", [:])
        #expect(device["speechTranscriberAvailable"] as? Bool == true)
        #expect((device["speechTranscriberSupported"] as? [String])?.contains("en-US") == true)
        let equivalents = try #require(device["equivalents"] as? [[String: Any]])
        let found = Dictionary(
            uniqueKeysWithValues: equivalents.map { ($0["asked"] as? String ?? "", $0["speechTranscriber"] as? String) }
        )
        #expect(found["Locale.current"] == "en-US" && found["en-US-u-rg-gbzzzz"] == "en-US")
        #expect(found["ja-JP"] == .some(nil))
        let bare = try answers("bare.json", ["SPEECH_HARNESS_SPEECH_TRANSCRIBER": "unavailable"])
        #expect(bare["speechTranscriberAvailable"] as? Bool == false)
        #expect((bare["speechTranscriberSupported"] as? [String])?.isEmpty == true)

        let script = SystemFixture.packageRoot + "/scripts/compare-device-answers"
        let same = try ExternalProgram.run(script, [dir.path("device.json"), dir.path("device.json")])
        #expect(same.status == 0, "\(same.output)\(same.errors)")
        let differ = try ExternalProgram.run(script, [dir.path("device.json"), dir.path("bare.json")])
        #expect(differ.status == 1 && differ.output.contains("rule   SpeechTranscriber.isAvailable: True vs False"))
    }
}
