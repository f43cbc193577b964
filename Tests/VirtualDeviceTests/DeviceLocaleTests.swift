import Foundation
import SpeechCore
import Testing
import VirtualDevice

@Suite("Device locale")
struct DeviceLocaleTests {
    @Test func foundationsCurrentLocaleStandsForTheDevices() {
        let device = DeviceLocale(tag: "fr_FR", currentTag: "en-001")
        #expect(device.tag(of: Locale(identifier: "en_001")) == "fr-FR")
        #expect(device.tag(of: Locale(identifier: "en-GB")) == "en-GB")
        #expect(device.tag(of: Locale(identifier: "fr-FR")) == "fr-FR")
    }

    @Test func listsShowTheCurrentLocaleAfterTheDevicesOnlyWhenTheDevicesIsListed() {
        let device = DeviceLocale(tag: "en-GB")
        let listed = ["en-US", "en-GB", "fr-FR"].map(Locale.init(identifier:))
        #expect(device.presenting(listed) == [listed[0], listed[1], Locale.current, listed[2]])
        #expect(device.presenting([listed[0], listed[2]]) == [listed[0], listed[2]])
        // Listed once, and not at all when the device's locale is Foundation's own.
        #expect(device.presenting(device.presenting(listed)).count == 4)
        let same = DeviceLocale(tag: LocaleTag.normalized(Locale.current.identifier))
        #expect(same.presenting(listed) == listed)
    }

    @Test func theSettingTakesLocaleIdentifiersOnly() throws {
        let setting = HarnessSettings.deviceLocale
        #expect(try setting.parse("fr_fr") == "fr-FR")
        #expect(try setting.parse("en-US-u-rg-gbzzzz") == "en-US-u-rg-gbzzzz")
        #expect(try setting.parse("zh-hant-tw") == "zh-Hant-TW")
        for wrong in ["", "english", "e", "en--US", "en US", "en-US-toolongsubtag", "ça"] {
            #expect(throws: SettingError.self) { try setting.parse(wrong) }
        }
        #expect(try DeviceSettings.fromEnvironment(["SPEECH_HARNESS_DEVICE_LOCALE": "it_IT"]).locale == "it-IT")
        #expect(try DeviceSettings.fromEnvironment([:]).locale == "en-US")
    }
}
