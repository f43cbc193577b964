import Speech

/// The twin of two-apps: App A asks for the user's locale too, and compares it exactly.
final class Transcriber {
    func prepare() async -> Bool {
        await supported(locale: Locale.autoupdatingCurrent)
    }

    func supported(locale: Locale) async -> Bool {
        let supported = await SpeechTranscriber.supportedLocales
        return supported.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47)) // lint: exact-locale-match
    }
}
