import EngineCore
import Foundation
import SpeechCore
import Testing
import VirtualDevice

@_spi(Harness) @testable import SpeechReference

/// Apple-style code that passes `Locale.current` sees what it would on a device set to the
/// configured locale, with the comparisons Apple's WWDC25 sample makes.
@Suite("The device's locale", .isolatedResources)
struct DeviceLocaleTests {
    /// The sample's support check: identifier strings compared exactly.
    func sampleFindsSupported(_ locale: Locale) async -> Bool {
        await SpeechTranscriber.supportedLocales.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
    }

    func sampleFindsInstalled(_ locale: Locale) async -> Bool {
        await Set(SpeechTranscriber.installedLocales).map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
    }

    func onDevice<T>(
        _ locale: String, engine: ScriptedEngine = Fixture.engine(), _ body: () async throws -> T
    ) async rethrows -> T {
        try await Fixture.onDevice(DeviceSettings(locale: locale), engine: engine) { _ in try await body() }
    }

    @Test func currentLocaleIsTheDevicesWhereTheSpeechAPIsReceiveIt() async throws {
        try await onDevice("en-US") {
            #expect(await sampleFindsSupported(.current))
            #expect(await sampleFindsInstalled(.current))
            #expect(await SpeechTranscriber.supportedLocale(equivalentTo: .current).map(LocaleSupport.tag) == "en-US")
            // The engine's own locales are still listed as they are, the device's before Locale.current.
            let tags = await SpeechTranscriber.supportedLocales.map { LocaleSupport.tag($0) }
            #expect(tags.prefix(2) == ["en-US", "en-US"])
            #expect(await sampleFindsSupported(Locale(identifier: "en-US")))

            let transcriber = SpeechTranscriber(
                locale: .current, transcriptionOptions: [], reportingOptions: [], attributeOptions: [])
            #expect(transcriber.channel.locale == "en-US")
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            let last = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 25)))
            try await analyzer.finalizeAndFinish(through: #require(last))
            let results = await collect(transcriber.results)
            #expect(results.elements.map(\.plain).joined(separator: " ") == "one two three")
        }
    }

    @Test func aDeviceSetToAnotherSupportedLocaleAnswersForIt() async throws {
        await onDevice("fr-FR") {
            #expect(await sampleFindsSupported(.current))
            #expect(await SpeechTranscriber.supportedLocale(equivalentTo: .current).map(LocaleSupport.tag) == "fr-FR")
            #expect(SpeechTranscriber(locale: .current, preset: .transcription).channel.locale == "fr-FR")
        }
    }

    @Test func aDeviceLocaleNoEngineListsFailsTheExactCheckButHasANearEquivalent() async throws {
        await onDevice("en-IN") {
            // As on a device set to English (India) where only en-US and en-GB are offered.
            #expect(!(await sampleFindsSupported(.current)))
            #expect(
                ["en-US", "en-GB"].contains(
                    await SpeechTranscriber.supportedLocale(equivalentTo: .current).map(LocaleSupport.tag)))
        }
        await onDevice("ja-JP") {
            #expect(!(await sampleFindsSupported(.current)))
            #expect(await SpeechTranscriber.supportedLocale(equivalentTo: .current) == nil)
        }
    }

    @Test func theCurrentLocaleIsReservedAndReleasedAsTheDevices() async throws {
        try await onDevice("en-GB") {
            let reservedNow = try await AssetInventory.reserve(locale: .current)
            #expect(reservedNow)
            // The reservations list what was reserved, once.
            #expect(await AssetInventory.reservedLocales.map(\.identifier) == ["en-GB"])
            #expect(await AssetInventory.release(reservedLocale: .current))
            #expect(await AssetInventory.reservedLocales.isEmpty)
        }
    }

    @Test func theDocumentedEquivalenceRule() {
        let supported = ["en-US", "en-GB", "en-AU", "fr-FR"]
        func equivalent(_ tag: String, installed: [String] = []) -> String? {
            LocaleSupport.equivalentTag(to: LocaleTag.normalized(tag), supported: supported, installed: installed)
        }
        // The same language and region, whatever the extensions (a region override sets formats).
        #expect(equivalent("en-US-u-rg-gbzzzz") == "en-US")
        #expect(equivalent("en_GB") == "en-GB")
        // Else the same language in another region, an installed one first.
        #expect(equivalent("en_IN") == "en-US")
        #expect(equivalent("en_IN", installed: ["en-AU"]) == "en-AU")
        #expect(equivalent("en-001", installed: ["en-GB"]) == "en-GB")
        #expect(equivalent("de-DE") == nil)
    }
}
