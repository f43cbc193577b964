import Speech

/// The twin of installed-check: a miss of the exact installed check ends the feature ("model
/// unavailable") without asking for an installation, so a usable regional equivalent is refused.
enum ModelError: Error { case unavailable }

final class ModelCheck {
    func prepare(_ transcriber: SpeechTranscriber, locale: Locale) async throws {
        guard await installed(locale: locale) else {
            throw ModelError.unavailable
        }
    }

    func installed(locale: Locale) async -> Bool {
        let installed = await Set(SpeechTranscriber.installedLocales)
        return installed.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47)) // lint: exact-locale-match
    }
}
