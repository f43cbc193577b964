// What the device answers about transcribers and locales, asked through Apple's public API only:
// SpeechTranscriber's availability, both transcribers' locale lists, and
// supportedLocale(equivalentTo:) for locales with regions and extensions. Run on a Mac it records
// what Apple's framework answers; on Linux, what the reference answers under the device profile
// the settings give (docs/device-profiles.md). scripts/compare-device-answers compares two files.
import Foundation
import Speech

/// The answers, as one JSON object.
struct DeviceAnswers: Encodable {
    struct Equivalent: Encodable {
        var asked: String
        var speechTranscriber: String?
        var dictationTranscriber: String?
    }

    var platform: TraceLine.Platform
    var currentLocale: String
    var speechTranscriberAvailable: Bool
    var speechTranscriberSupported: [String]
    var speechTranscriberInstalled: [String]
    var dictationTranscriberSupported: [String]
    var dictationTranscriberInstalled: [String]
    var equivalents: [Equivalent]

    /// Locales whose equivalent the documented rule decides: exact, other regions, extensions,
    /// a bare language, a script, and one no transcriber has.
    static let probes = [
        "en-US", "en_US", "en-US-u-rg-gbzzzz", "en_IN", "en-001", "en-GB", "fr", "fr-CA", "es-419", "zh-Hant-TW",
        "ja-JP", "xx-ZZ",
    ]

    static func ask(platform: TraceLine.Platform) async -> DeviceAnswers {
        let tags = { (locales: [Locale]) in locales.map { $0.identifier(.bcp47) } }
        var equivalents: [Equivalent] = []
        for (asked, locale) in [("Locale.current", Locale.current)] + probes.map({ ($0, Locale(identifier: $0)) }) {
            equivalents.append(
                Equivalent(
                    asked: asked,
                    speechTranscriber: await SpeechTranscriber.supportedLocale(equivalentTo: locale)?.identifier(
                        .bcp47),
                    dictationTranscriber: await DictationTranscriber.supportedLocale(equivalentTo: locale)?
                        .identifier(.bcp47)))
        }
        return DeviceAnswers(
            platform: platform, currentLocale: Locale.current.identifier(.bcp47),
            speechTranscriberAvailable: SpeechTranscriber.isAvailable,
            speechTranscriberSupported: tags(await SpeechTranscriber.supportedLocales),
            speechTranscriberInstalled: tags(await SpeechTranscriber.installedLocales),
            dictationTranscriberSupported: tags(await DictationTranscriber.supportedLocales),
            dictationTranscriberInstalled: tags(await DictationTranscriber.installedLocales),
            equivalents: equivalents)
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
