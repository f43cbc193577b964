import Speech

/// App A transcribes in one locale written in the code, so comparing it exactly is safe.
final class Transcriber {
    static let preferred = Locale(identifier: "en-US")

    func prepare() async -> Bool {
        await supported(locale: Self.preferred)
    }

    func supported(locale: Locale) async -> Bool {
        let supported = await SpeechTranscriber.supportedLocales
        return supported.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
    }
}
