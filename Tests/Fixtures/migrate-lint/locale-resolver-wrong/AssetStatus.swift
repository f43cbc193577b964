import Speech

/// Whether a language the user picked can be transcribed: the helper only makes a Locale of the identifier, so the exact comparison refuses regional equivalents.
enum AssetStatus {
    static func isSupported(_ identifier: String) async -> Bool {
        guard let locale = await supportedLocale(for: identifier) else { return false }
        let resolved = locale.identifier(.bcp47)
        let supported = await SpeechTranscriber.supportedLocales
        return supported.contains { $0.identifier(.bcp47) == resolved } // lint: exact-locale-match
    }

    private static func supportedLocale(for identifier: String) async -> Locale? {
        Locale(identifier: identifier)
    }
}
