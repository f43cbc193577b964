import Speech

/// An exact installed check whose answer is only kept as a status the settings screen shows:
/// preparing the transcriber asks for an installation whatever the status says, so a miss
/// refuses nothing.
final class ModelStatus {
    private(set) var modelsDownloaded = false

    func refresh(locale: Locale) async -> Bool {
        let installed = await SpeechTranscriber.installedLocales
        let found = installed.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
        modelsDownloaded = found
        print("models downloaded for \(locale.identifier): \(found)")
        return found
    }

    func showSettings(locale: Locale) async {
        let downloaded = await refresh(locale: locale)
        print(downloaded ? "Downloaded" : "Not downloaded")
    }
}
