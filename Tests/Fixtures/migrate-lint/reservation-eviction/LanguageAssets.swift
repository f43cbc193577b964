import Speech

/// Installs a language's assets; at the system's limit of reserved locales, one of the app's own reservations (read from reservedLocales) is let go to make room.
enum LanguageAssets {
    static func install(_ transcriber: SpeechTranscriber, locale: Locale,
                        onProgress: ((Progress) -> Void)? = nil) async throws {
        do {
            try await installOnce(transcriber)
        } catch {
        let reserved = await AssetInventory.reservedLocales
        guard let victim = reserved.first(where: { $0.identifier(.bcp47) != locale.identifier(.bcp47) }) else {
            throw error
        }
        _ = await AssetInventory.release(reservedLocale: victim)
            try await installOnce(transcriber)
        }
    }

    private static func installOnce(_ transcriber: SpeechTranscriber) async throws {
        if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await request.downloadAndInstall()
        }
    }
}
