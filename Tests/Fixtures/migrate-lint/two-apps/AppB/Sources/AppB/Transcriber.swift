import Speech

/// App B asks for the user's locale and compares it exactly: a regional variant is refused.
final class Transcriber {
    func prepare() async -> Bool {
        await supported(locale: Locale.current)
    }

    func supported(locale: Locale) async -> Bool {
        let supported = await SpeechTranscriber.supportedLocales
        return supported.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47)) // lint: exact-locale-match
    }
}
