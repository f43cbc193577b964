import Speech

/// Installs a language's assets; on failure it releases the very locale it wanted, which another feature may hold.
enum LanguageAssets {
    static func install(_ transcriber: SpeechTranscriber, locale: Locale,
                        onProgress: ((Progress) -> Void)? = nil) async throws {
        do {
            try await installOnce(transcriber)
        } catch {
        _ = await AssetInventory.release(reservedLocale: locale) // lint: unowned-reservation-release
            try await installOnce(transcriber)
        }
    }

    private static func installOnce(_ transcriber: SpeechTranscriber) async throws {
        if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await request.downloadAndInstall()
        }
    }
}
