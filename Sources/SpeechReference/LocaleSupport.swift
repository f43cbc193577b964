import Foundation
import SpeechCore
import VirtualDevice

/// Which locales the transcribers support and have installed, from the engines the process can use.
enum LocaleSupport {
    /// The engines to consult: the chosen one when a choice is made, else every registered engine
    /// and its variants (Whisper with its multilingual model: its locales are supported, and
    /// installed once the bootstrap has installed the model).
    static func engines() -> [any RecognitionEngine] {
        let context = HarnessContext.current
        if let engine = context.engine { return [engine] }
        let registry = context.engines
        // An engine setting that names no usable engine supports no locale here (the locale
        // queries cannot throw); making the analyzer's engine throws the reason.
        do {
            if let id = try EngineRegistry.configuredEngineID(environment: context.environment.variables) {
                return [try registry.make(id)]
            }
        } catch {
            return []
        }
        return (registry.ids + registry.variants).compactMap { try? registry.make($0) }
    }

    /// The tag the engines are asked about for `locale`: `Locale.current` stands for the device's
    /// locale (``DeviceLocale``).
    static func tag(_ locale: Locale) -> String { DeviceLocale.current.tag(of: locale) }

    static func locale(_ tag: String) -> Locale { Locale(identifier: LocaleTag.normalized(tag)) }

    /// Which transcriber asks: the device profile can take SpeechTranscriber away alone.
    enum Transcriber {
        case speech
        /// DictationTranscriber, or a question about any transcriber (a reservation).
        case any
    }

    /// Why the device offers `transcriber` no locale, or nil when it offers the engines'.
    static func unavailability(_ transcriber: Transcriber) -> String? {
        let device = DeviceSettings.current
        if transcriber == .speech, !device.speechTranscriberAvailable {
            return
                "SpeechTranscriber is not available on this device's hardware (\(HarnessSettings.speechTranscriber.variable)=unavailable)"
        }
        if !device.offersLocales {
            return "the device offers no locales (\(HarnessSettings.supportedLocales.variable)=none)"
        }
        return nil
    }

    /// Every registered engine's locales, each once, as the engines list them; none when the
    /// device offers `transcriber` none.
    static func supportedTags(_ transcriber: Transcriber = .any) -> [String] {
        supportedTags(transcriber, of: engines())
    }

    private static func supportedTags(_ transcriber: Transcriber, of engines: [any RecognitionEngine]) -> [String] {
        guard unavailability(transcriber) == nil else { return [] }
        var seen = Set<String>()
        return engines.flatMap(\.capabilities.locales).map(LocaleTag.normalized).filter { seen.insert($0).inserted }
    }

    static func installedTags(_ transcriber: Transcriber = .any) -> [String] {
        let engines = engines()
        return supportedTags(transcriber, of: engines).filter { tag in
            engines.contains { $0.supports(locale: tag) && $0.isInstalled(locale: tag) }
        }
    }

    /// The supported locales as a program sees them (with `Locale.current` beside the device's locale).
    static func supported(_ transcriber: Transcriber) -> [Locale] {
        DeviceLocale.current.presenting(supportedTags(transcriber).map(locale))
    }

    static func installed(_ transcriber: Transcriber) -> [Locale] {
        DeviceLocale.current.presenting(installedTags(transcriber).map(locale))
    }

    /// The supported locale equivalent to `locale`, by the documented rule: one with the same
    /// language, script and region (extensions such as `-u-rg-gbzzzz` set formats, not the
    /// language, and are ignored); else a near-equivalent, the same language in another region,
    /// an installed one first. Nil when no supported locale has the language.
    static func equivalent(to locale: Locale, _ transcriber: Transcriber = .any) -> Locale? {
        equivalentTag(to: tag(locale), supported: supportedTags(transcriber), installed: installedTags(transcriber))
            .map(self.locale)
    }

    /// ``equivalent(to:_:)`` over given lists, for tests.
    static func equivalentTag(to wanted: String, supported: [String], installed: [String]) -> String? {
        let base = LocaleTag.base(wanted)
        if let exact = supported.first(where: { LocaleTag.base($0) == base }) { return exact }
        let language = LocaleTag.language(wanted)
        let near = supported.filter { LocaleTag.language($0) == language }
        return near.first(where: installed.contains) ?? near.first
    }

    /// The engine a new module for `locale` uses, or why there is none (the device offers the
    /// transcriber nothing, or no engine has the locale).
    static func engine(
        for locale: Locale, _ transcriber: Transcriber
    ) -> (engine: (any RecognitionEngine)?, problem: String?) {
        if let reason = unavailability(transcriber) { return (nil, reason) }
        do {
            return (try HarnessContext.current.engines.defaultEngine(for: tag(locale)), nil)
        } catch {
            return (nil, "\(error)")
        }
    }
}
