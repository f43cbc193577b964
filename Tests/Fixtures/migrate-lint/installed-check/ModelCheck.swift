import Speech

/// The installed check decides only whether to ask for an installation: a miss costs a request,
/// which answers nil when the assets are there, so an exact comparison refuses nothing usable.
final class ModelCheck {
    func prepare(_ transcriber: SpeechTranscriber, locale: Locale) async throws {
        if await installed(locale: locale) {
            return
        }
        try await download(for: transcriber)
    }

    func installed(locale: Locale) async -> Bool {
        let installed = await Set(SpeechTranscriber.installedLocales)
        return installed.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
    }

    func download(for module: SpeechTranscriber) async throws {
        if let request = try await AssetInventory.assetInstallationRequest(supporting: [module]) {
            try await request.downloadAndInstall()
        }
    }
}
