import Speech

/// Whether a language the user picked can be transcribed: the picked identifier is resolved to the framework's usable equivalent by a helper, whose answer is then compared with the lists exactly.
enum AssetStatus {
    static func isSupported(_ identifier: String) async -> Bool {
        guard let locale = await supportedLocale(for: identifier) else { return false }
        let resolved = locale.identifier(.bcp47)
        let supported = await SpeechTranscriber.supportedLocales
        return supported.contains { $0.identifier(.bcp47) == resolved }
    }

    private static func supportedLocale(for identifier: String) async -> Locale? {
        await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: identifier))
    }
}
