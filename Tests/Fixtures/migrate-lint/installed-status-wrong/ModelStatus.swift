import Speech

/// The twin of installed-status: the same status decides whether transcription starts, and a miss
/// ends it without asking for an installation.
enum ModelError: Error { case notDownloaded }

final class ModelStatus {
    private(set) var modelsDownloaded = false

    func refresh(locale: Locale) async -> Bool {
        let installed = await SpeechTranscriber.installedLocales
        let found = installed.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47)) // lint: exact-locale-match
        modelsDownloaded = found
        print("models downloaded for \(locale.identifier): \(found)")
        return found
    }

    func startTranscribing(locale: Locale) async throws {
        guard await refresh(locale: locale) else { throw ModelError.notDownloaded }
    }
}
