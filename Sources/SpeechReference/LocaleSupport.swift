import Foundation
import SpeechCore

/// Which locales the transcribers support and have installed, from the engines the process can use.
enum LocaleSupport {
    /// The engines to consult: the chosen one when a choice is made, else every registered engine.
    static func engines() -> [any RecognitionEngine] {
        if let override = EngineSelection.override { return [override] }
        // An engine setting that names no usable engine stops the program with the reason: the
        // locale queries cannot throw, and "no locale is supported" would hide it.
        do {
            if let id = try EngineRegistry.configuredEngineID() { return [try EngineRegistry.shared.make(id)] }
        } catch {
            HarnessEnvironment.stop(error)
        }
        return EngineRegistry.shared.ids.compactMap { try? EngineRegistry.shared.make($0) }
    }

    static func tag(_ locale: Locale) -> String { LocaleTag.normalized(locale.identifier) }

    static func locale(_ tag: String) -> Locale { Locale(identifier: LocaleTag.normalized(tag)) }

    static func supported() -> [Locale] {
        var seen = Set<String>()
        return engines().flatMap(\.capabilities.locales).map(LocaleTag.normalized).filter { seen.insert($0).inserted }
            .map(locale)
    }

    static func installed() -> [Locale] {
        let engines = engines()
        return supported().filter { locale in
            engines.contains { $0.supports(locale: tag(locale)) && $0.isInstalled(locale: tag(locale)) }
        }
    }

    /// The supported locale equal to `locale`, else one of the same language (region fallback).
    static func equivalent(to locale: Locale, in candidates: [Locale]) -> Locale? {
        let wanted = tag(locale)
        if let exact = candidates.first(where: { tag($0) == wanted }) { return exact }
        let language = LocaleTag.language(wanted)
        return candidates.first { LocaleTag.language(tag($0)) == language }
    }

    /// The engine a new module for `locale` uses, or why there is none.
    static func engine(for locale: Locale) -> (engine: (any RecognitionEngine)?, problem: String?) {
        do {
            return (try EngineRegistry.shared.defaultEngine(for: tag(locale)), nil)
        } catch {
            return (nil, "\(error)")
        }
    }
}
