import Speech

/// Support is decided by `supportedLocale(equivalentTo:)`; comparing the resolved locale's
/// identifier with the installed ones is then exact on purpose.
struct Support {
    func usableLocale(for requested: Locale) async -> Locale? {
        guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: requested) else { return nil }
        return locale
    }

    func isInstalled(_ requested: Locale) async -> Bool {
        guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: requested) else { return false }
        let installed = await SpeechTranscriber.installedLocales
        return installed.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
    }

    func table() async -> [(Locale, Bool)] {
        let supported = await SpeechTranscriber.supportedLocales
        let installed = await SpeechTranscriber.installedLocales
        return supported.map { ($0, installed.contains($0)) }
    }
}
