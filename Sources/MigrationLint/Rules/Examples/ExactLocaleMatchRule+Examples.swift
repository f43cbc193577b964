extension ExactLocaleMatchRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "a locale an initializer's parameter defaults to, which no caller passes (held-out shape): a constant",
            ##"""
            import Speech

            final class Transcription {
                private let locale: Locale

                init(locale: Locale = Locale(identifier: "en_US")) { self.locale = locale }

                func isSupported() async -> Bool {
                    await SpeechTranscriber.supportedLocales.contains(locale)
                }
            }

            func makeTranscription() -> Transcription { Transcription() }
            """##),
        LintExample(
            "a locale written out as components is a constant",
            ##"""
            import Speech

            func englishIsSupported() async -> Bool {
                let english = Locale(components: .init(languageCode: .english, languageRegion: .unitedStates))
                return await SpeechTranscriber.supportedLocales.contains(english)
            }
            """##),
        LintExample(
            "identifier-comparison: identifier strings compared with the lists' (`map { $0.identifier(.bcp47) }.contains(…)`), against the same comparison of a locale `supportedLocale(equivalentTo:)` resolved",
            files: [
                (
                    "Support.swift",
                    ##"""
                    import Speech

                    /// Support is decided by `supportedLocale(equivalentTo:)`; comparing the resolved locale's
                    /// identifier with the installed ones is then exact on purpose.
                    struct Support {
                        func usableLocale(for requested: Locale) async -> Locale? {
                            guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: requested) else { return nil }
                            return locale
                        }

                        func isInstalled(_ requested: Locale) async -> Bool {
                            guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: requested) else { return false }
                            let installed = await SpeechTranscriber.installedLocales
                            return installed.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
                        }

                        func table() async -> [(Locale, Bool)] {
                            let supported = await SpeechTranscriber.supportedLocales
                            let installed = await SpeechTranscriber.installedLocales
                            return supported.map { ($0, installed.contains($0)) }
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "installed-check: an exact `installedLocales` check whose miss only leads to an installation request (not reported), against one whose miss ends the feature as \"model unavailable\"",
            files: [
                (
                    "ModelCheck.swift",
                    ##"""
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
                    """##
                )
            ]
        ),
        LintExample(
            "locale-resolver: a picked identifier resolved by a helper that returns `supportedLocale(equivalentTo:)`'s answer, then compared with the lists exactly; the twin's helper only makes a `Locale` of the identifier",
            files: [
                (
                    "AssetStatus.swift",
                    ##"""
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
                    """##
                )
            ]
        ),
        LintExample(
            "installed-status: an exact `installedLocales` check whose answer is only kept as a status and shown (not reported, as in held-out set 3's dictation app); the twin's status is a `guard`'s condition that ends transcription without asking for an installation",
            files: [
                (
                    "ModelStatus.swift",
                    ##"""
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
                    """##
                )
            ]
        ),
    ]
    static let triggeringExamples: [LintExample] = [
        LintExample(
            "the twin: a caller passes the user's locale for the parameter with a constant default",
            ##"""
            import Speech

            final class Transcription {
                private let locale: Locale

                init(locale: Locale = Locale(identifier: "en_US")) { self.locale = locale }

                func isSupported() async -> Bool {
                    await SpeechTranscriber.supportedLocales.↓contains(locale)
                }
            }

            func makeTranscription() -> Transcription { Transcription(locale: .current) }
            """##),
        LintExample(
            "identifier-comparison-wrong: identifier strings compared with the lists' (`map { $0.identifier(.bcp47) }.contains(…)`), against the same comparison of a locale `supportedLocale(equivalentTo:)` resolved",
            files: [
                (
                    "Support.swift",
                    ##"""
                    import Speech

                    /// The twin of identifier-comparison, in the sample code's shape: the requested locale's
                    /// identifier is compared with the lists' strings, so en_US@rg=gbzzzz or a bare "fr" is refused.
                    struct Support {
                        func supported(locale: Locale) async -> Bool {
                            let supported = await SpeechTranscriber.supportedLocales
                            return supported.map { $0.identifier(.bcp47) }.↓contains(locale.identifier(.bcp47))
                        }

                        func installed(locale: Locale) async -> Bool {
                            let installed = await Set(SpeechTranscriber.installedLocales.map { $0.identifier(.bcp47) })
                            return installed.↓contains(locale.identifier(.bcp47))
                        }

                        /// Transcription starts only when the requested locale is supported and installed.
                        func canStart(locale: Locale) async -> Bool {
                            guard await supported(locale: locale), await installed(locale: locale) else { return false }
                            return true
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "installed-check-wrong: an exact `installedLocales` check whose miss only leads to an installation request (not reported), against one whose miss ends the feature as \"model unavailable\"",
            files: [
                (
                    "ModelCheck.swift",
                    ##"""
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
                            return installed.map { $0.identifier(.bcp47) }.↓contains(locale.identifier(.bcp47))
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "locale-resolver-wrong: a picked identifier resolved by a helper that returns `supportedLocale(equivalentTo:)`'s answer, then compared with the lists exactly; the twin's helper only makes a `Locale` of the identifier",
            files: [
                (
                    "AssetStatus.swift",
                    ##"""
                    import Speech

                    /// Whether a language the user picked can be transcribed: the helper only makes a Locale of the identifier, so the exact comparison refuses regional equivalents.
                    enum AssetStatus {
                        static func isSupported(_ identifier: String) async -> Bool {
                            guard let locale = await supportedLocale(for: identifier) else { return false }
                            let resolved = locale.identifier(.bcp47)
                            let supported = await SpeechTranscriber.supportedLocales
                            return supported.↓contains { $0.identifier(.bcp47) == resolved }
                        }

                        private static func supportedLocale(for identifier: String) async -> Locale? {
                            Locale(identifier: identifier)
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "installed-status-wrong: an exact `installedLocales` check whose answer is only kept as a status and shown (not reported, as in held-out set 3's dictation app); the twin's status is a `guard`'s condition that ends transcription without asking for an installation",
            files: [
                (
                    "ModelStatus.swift",
                    ##"""
                    import Speech

                    /// The twin of installed-status: the same status decides whether transcription starts, and a miss
                    /// ends it without asking for an installation.
                    enum ModelError: Error { case notDownloaded }

                    final class ModelStatus {
                        private(set) var modelsDownloaded = false

                        func refresh(locale: Locale) async -> Bool {
                            let installed = await SpeechTranscriber.installedLocales
                            let found = installed.map { $0.identifier(.bcp47) }.↓contains(locale.identifier(.bcp47))
                            modelsDownloaded = found
                            print("models downloaded for \(locale.identifier): \(found)")
                            return found
                        }

                        func startTranscribing(locale: Locale) async throws {
                            guard await refresh(locale: locale) else { throw ModelError.notDownloaded }
                        }
                    }
                    """##
                )
            ]
        ),
    ]
}
