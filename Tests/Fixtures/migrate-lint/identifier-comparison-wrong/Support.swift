import Speech

/// The twin of identifier-comparison, in the sample code's shape: the requested locale's
/// identifier is compared with the lists' strings, so en_US@rg=gbzzzz or a bare "fr" is refused.
struct Support {
    func supported(locale: Locale) async -> Bool {
        let supported = await SpeechTranscriber.supportedLocales
        return supported.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47)) // lint: exact-locale-match
    }

    func installed(locale: Locale) async -> Bool {
        let installed = await Set(SpeechTranscriber.installedLocales.map { $0.identifier(.bcp47) })
        return installed.contains(locale.identifier(.bcp47)) // lint: exact-locale-match
    }

    /// Transcription starts only when the requested locale is supported and installed.
    func canStart(locale: Locale) async -> Bool {
        guard await supported(locale: locale), await installed(locale: locale) else { return false }
        return true
    }
}
