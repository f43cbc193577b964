import Foundation
import SpeechCore

/// What `Locale.current` stands for on the simulated device.
///
/// Foundation on Linux fixes `Locale.current` at one value (`en_001`, whatever `LANG` says), and
/// nothing outside Foundation can change it. So the speech APIs read that value as the device's
/// locale where a program hands it to them, and show it back in their locale lists beside the
/// device's locale: a program comparing `Locale.current` with `supportedLocales`, even by
/// identifier string, then sees what it would see on a device set to that locale. Every other
/// locale passes through unchanged.
public struct DeviceLocale: Sendable, Hashable {
    /// The device's locale, normalized (`en-US`).
    public var tag: String
    /// The tag of Foundation's `Locale.current` in this process (`en-001` on Linux).
    public var currentTag: String

    public init(tag: String, currentTag: String = LocaleTag.normalized(Locale.current.identifier)) {
        self.tag = LocaleTag.normalized(tag)
        self.currentTag = currentTag
    }

    /// The device's locale as the settings give it (``DeviceSettings/current``).
    public static var current: DeviceLocale { DeviceLocale(tag: DeviceSettings.current.locale) }

    /// The tag the speech APIs work with for `locale`: the device's when `locale` is `Locale.current`.
    public func tag(of locale: Locale) -> String {
        let tag = LocaleTag.normalized(locale.identifier)
        return tag == currentTag ? self.tag : tag
    }

    /// `locales` as a program on the device sees them: where the device's locale is listed,
    /// `Locale.current` is listed after it.
    public func presenting(_ locales: [Locale]) -> [Locale] {
        guard tag != currentTag,
            let index = locales.firstIndex(where: { LocaleTag.normalized($0.identifier) == tag }),
            !locales.contains(where: { LocaleTag.normalized($0.identifier) == currentTag })
        else { return locales }
        var shown = locales
        shown.insert(Locale.current, at: index + 1)
        return shown
    }
}
