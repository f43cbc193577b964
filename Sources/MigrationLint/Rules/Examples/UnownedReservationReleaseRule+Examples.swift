// One file: the examples of unowned-reservation-release, each a small program written for the lint's tests,
// with its twin; long because the programs are whole.

extension UnownedReservationReleaseRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "a type split over extension files: the locale is kept only when `reserve` created the reservation, in another file than the release, which reads a local copy of it (held-out set 8's view)",
            files: [
                ("DictationView.swift", "final class DictationView { var reservedLocale: Locale? }"),
                (
                    "DictationView+Reserve.swift",
                    ##"""
                    import Speech

                    extension DictationView {
                        func prepare(_ locale: Locale) async throws {
                            if try await AssetInventory.reserve(locale: locale) { reservedLocale = locale }
                        }
                    }
                    """##
                ),
                (
                    "DictationView+Stop.swift",
                    ##"""
                    import Speech

                    extension DictationView {
                        func stop() async {
                            let reserved = reservedLocale
                            reservedLocale = nil
                            if let reserved {
                                await AssetInventory.release(reservedLocale: reserved)
                            }
                        }
                    }
                    """##
                ),
            ]),
        LintExample(
            "reservations-in-a-set: each reservation this code made is kept in a set; release iterates or consults that set",
            files: [
                (
                    "LocaleAssets.swift",
                    ##"""
                    import Speech

                    /// Ownership kept in a stored collection: a locale goes into `reserved` only when
                    /// `reserve(locale:)` created the reservation, and releases go through that collection.
                    actor LocaleAssets {
                        private var reserved: Set<Locale> = []
                        private var order: [Locale] = []

                        func use(_ locale: Locale) async throws {
                            if try await AssetInventory.reserve(locale: locale) {
                                reserved.insert(locale)
                            }
                        }

                        func useInOrder(_ locale: Locale) async throws {
                            let created = try await AssetInventory.reserve(locale: locale)
                            if created { order.append(locale) }
                        }

                        func useOrSkip(_ locale: Locale) async throws {
                            guard try await AssetInventory.reserve(locale: locale) else { return }
                            reserved.insert(locale)
                        }

                        func stopUsing(_ locale: Locale) async {
                            if reserved.remove(locale) != nil {
                                await AssetInventory.release(reservedLocale: locale)
                            }
                        }

                        func releaseAll() async {
                            for locale in reserved {
                                await AssetInventory.release(reservedLocale: locale)
                            }
                            reserved.removeAll()
                        }

                        func releaseInOrder() async {
                            for locale in order.reversed() {
                                await AssetInventory.release(reservedLocale: locale)
                            }
                            order = []
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "beta-asset-names: the beta names (`allocatedLocales`, `maximumAllocatedLocales`, `deallocate(locale:)`) and a release of every reserved locale, against the shipped names releasing only what this code reserved",
            files: [
                (
                    "LocaleAssets.swift",
                    ##"""
                    import Speech

                    /// Written to the shipped reservation API: reserve, keep what this code created, release only that.
                    actor LocaleAssets {
                        private var created: Set<Locale> = []

                        func prepare(_ locale: Locale) async throws {
                            if try await AssetInventory.reserve(locale: locale) { created.insert(locale) }
                            print("\(await AssetInventory.reservedLocales.count) of \(AssetInventory.maximumReservedLocales) reserved")
                        }

                        func releaseAll() async {
                            for locale in created { _ = await AssetInventory.release(reservedLocale: locale) }
                            created.removeAll()
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "reservation-eviction: at the limit of reserved locales, one of the app's own reservations, read from `reservedLocales`, is let go to make room (in a function whose parameters run over two lines, with a closure parameter and its default); the twin releases the locale it was asked to install",
            files: [
                (
                    "LanguageAssets.swift",
                    ##"""
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
                    """##
                )
            ]
        ),
        LintExample(
            "eviction-at-limit: at `maximumReservedLocales`, the app's other reservations, read from `reservedLocales`, are let go in a loop to make room (held-out set 4's Zettel); the twin lets them go whenever a locale is reserved",
            files: [
                (
                    "Reservations.swift",
                    ##"""
                    import Speech

                    /// Before reserving a new locale at the system's limit, the app lets go of its other reservations
                    /// to make room: they are the app's own, read from `reservedLocales`.
                    enum Reservations {
                        static func makeRoom(for target: Locale) async {
                            let reserved = await AssetInventory.reservedLocales
                            let limit = AssetInventory.maximumReservedLocales
                            if reserved.count >= limit {
                                for locale in reserved where locale.identifier != target.identifier {
                                    await AssetInventory.release(reservedLocale: locale)
                                }
                            }
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "reserve-retry: `if !(reserve(…)) { guard reserve(…) else { throw } }`, then the locale kept in a property: only a created reservation gets there (held-out set 4's Zettel); the twin throws the retry's answer away",
            files: [
                (
                    "DictationAssets.swift",
                    ##"""
                    import Speech

                    /// Reserves the dictation locale, asking twice before giving up; past that, a
                    /// reservation was created here, so the one kept in `reservedLocale` is this code's to release.
                    actor DictationAssets {
                        enum Failure: Error { case noReservation }
                        private var reservedLocale: Locale?

                        func prepare(_ locale: Locale) async throws {
                            if !(try await AssetInventory.reserve(locale: locale)) {
                                guard try await AssetInventory.reserve(locale: locale) else {
                                    throw Failure.noReservation
                                }
                            }
                            reservedLocale = locale
                        }

                        func teardown() async {
                            if let reservedLocale {
                                await AssetInventory.release(reservedLocale: reservedLocale)
                                self.reservedLocale = nil
                            }
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "reserve's answer kept in a local, then copied into a stored Bool that the release checks (held-out set 11's shape)",
            ##"""
            import Speech

            final class Engine {
                private var ownsReservation = false
                private let locale = Locale(identifier: "en-US")

                func start() async throws {
                    let created = try await AssetInventory.reserve(locale: locale)
                    ownsReservation = created
                }

                func stop() async {
                    guard ownsReservation else { return }
                    await AssetInventory.release(reservedLocale: locale)
                    ownsReservation = false
                }
            }
            """##
        ),
    ]
    static let triggeringExamples: [LintExample] = [
        LintExample(
            "the twin: the other file keeps the locale whatever `reserve` answered",
            files: [
                ("DictationView.swift", "final class DictationView { var reservedLocale: Locale? }"),
                (
                    "DictationView+Reserve.swift",
                    ##"""
                    import Speech

                    extension DictationView {
                        func prepare(_ locale: Locale) async throws {
                            _ = try await AssetInventory.reserve(locale: locale)
                            reservedLocale = locale
                        }
                    }
                    """##
                ),
                (
                    "DictationView+Stop.swift",
                    ##"""
                    import Speech

                    extension DictationView {
                        func stop() async {
                            let reserved = reservedLocale
                            reservedLocale = nil
                            if let reserved {
                                await AssetInventory.↓release(reservedLocale: reserved)
                            }
                        }
                    }
                    """##
                ),
            ]),
        LintExample(
            "reservations-in-a-set-wrong: each reservation this code made is kept in a set; release iterates or consults that set",
            files: [
                (
                    "LocaleAssets.swift",
                    ##"""
                    import Speech

                    /// The twin of reservations-in-a-set: one release does not consult the set, and `order` records
                    /// every locale asked for, reservation created or not.
                    actor LocaleAssets {
                        private var reserved: Set<Locale> = []
                        private var order: [Locale] = []

                        func use(_ locale: Locale) async throws {
                            if try await AssetInventory.reserve(locale: locale) {
                                reserved.insert(locale)
                            }
                        }

                        func useInOrder(_ locale: Locale) async throws {
                            _ = try await AssetInventory.reserve(locale: locale)
                            order.append(locale)
                        }

                        func stopUsing(_ locale: Locale) async {
                            reserved.remove(locale)
                            await AssetInventory.↓release(reservedLocale: locale)
                        }

                        func releaseInOrder() async {
                            for locale in order.reversed() {
                                await AssetInventory.↓release(reservedLocale: locale)
                            }
                            order = []
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "beta-asset-names-wrong: the beta names (`allocatedLocales`, `maximumAllocatedLocales`, `deallocate(locale:)`) and a release of every reserved locale, against the shipped names releasing only what this code reserved",
            files: [
                (
                    "LocaleAssets.swift",
                    ##"""
                    import Speech

                    /// The twin of beta-asset-names, as the WWDC25 sample wrote it against the first beta: the beta
                    /// names, and a release of every reserved locale whoever reserved it.
                    actor LocaleAssets {
                        func prepare(_ locale: Locale) async throws {
                            _ = try await AssetInventory.reserve(locale: locale)
                            print("\(await AssetInventory.allocatedLocales.count) of \(AssetInventory.maximumAllocatedLocales) reserved")
                        }

                        func releaseAll() async {
                            let allocated = await AssetInventory.allocatedLocales
                            for locale in allocated {
                                await AssetInventory.↓deallocate(locale: locale)
                            }
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "reservation-eviction-wrong: at the limit of reserved locales, one of the app's own reservations, read from `reservedLocales`, is let go to make room (in a function whose parameters run over two lines, with a closure parameter and its default); the twin releases the locale it was asked to install",
            files: [
                (
                    "LanguageAssets.swift",
                    ##"""
                    import Speech

                    /// Installs a language's assets; on failure it releases the very locale it wanted, which another feature may hold.
                    enum LanguageAssets {
                        static func install(_ transcriber: SpeechTranscriber, locale: Locale,
                                            onProgress: ((Progress) -> Void)? = nil) async throws {
                            do {
                                try await installOnce(transcriber)
                            } catch {
                            _ = await AssetInventory.↓release(reservedLocale: locale)
                                try await installOnce(transcriber)
                            }
                        }

                        private static func installOnce(_ transcriber: SpeechTranscriber) async throws {
                            if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
                                try await request.downloadAndInstall()
                            }
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "reservation-adapter: a dependency struct's live `release: { locale in AssetInventory.release(reservedLocale: locale) }` only forwards, and the policy calling it releases only what `reserve` created (held-out set 4's EnviousWispr): a note, not a finding; the twin's policy also releases directly every locale it was asked for",
            files: [
                (
                    "LocaleClaims.swift",
                    ##"""
                    import Speech

                    /// Keeps the locales this feature reserved, and releases only those.
                    actor LocaleClaims {
                        private let inventory: LocaleInventory
                        private var claimed: Set<Locale> = []

                        init(inventory: LocaleInventory = .live) {
                            self.inventory = inventory
                        }

                        func claim(_ locale: Locale) async throws {
                            if try await inventory.reserve(locale) { claimed.insert(locale) }
                        }

                        func releaseAll() async {
                            for locale in claimed { _ = await inventory.release(locale) }
                            claimed.removeAll()
                        }
                    }
                    """##
                ),
                (
                    "LocaleInventory.swift",
                    ##"""
                    import Speech

                    /// The calls to AssetInventory a locale policy needs, as closures, so tests can replace them. The
                    /// live value only forwards: which locales are released is the policy's decision.
                    struct LocaleInventory: Sendable {
                        var reserve: @Sendable (Locale) async throws -> Bool
                        var release: @Sendable (Locale) async -> Bool

                        static let live = LocaleInventory(
                            reserve: { locale in try await AssetInventory.reserve(locale: locale) },
                            release: { locale in await AssetInventory.⇣release(reservedLocale: locale) }
                        )
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "reservation-adapter-wrong: a dependency struct's live `release: { locale in AssetInventory.release(reservedLocale: locale) }` only forwards, and the policy calling it releases only what `reserve` created (held-out set 4's EnviousWispr): a note, not a finding; the twin's policy also releases directly every locale it was asked for",
            files: [
                (
                    "LocaleClaims.swift",
                    ##"""
                    import Speech

                    /// The twin of reservation-adapter: the policy also releases directly, every locale it was asked
                    /// for, whether or not its reservation was this feature's.
                    actor LocaleClaims {
                        private let inventory: LocaleInventory
                        private var asked: [Locale] = []

                        init(inventory: LocaleInventory = .live) {
                            self.inventory = inventory
                        }

                        func claim(_ locale: Locale) async throws {
                            _ = try await inventory.reserve(locale)
                            asked.append(locale)
                        }

                        func releaseAll() async {
                            for locale in asked { await AssetInventory.↓release(reservedLocale: locale) }
                            asked.removeAll()
                        }
                    }
                    """##
                ),
                (
                    "LocaleInventory.swift",
                    ##"""
                    import Speech

                    /// The calls to AssetInventory a locale policy needs, as closures, so tests can replace them. The
                    /// live value only forwards: which locales are released is the policy's decision.
                    struct LocaleInventory: Sendable {
                        var reserve: @Sendable (Locale) async throws -> Bool
                        var release: @Sendable (Locale) async -> Bool

                        static let live = LocaleInventory(
                            reserve: { locale in try await AssetInventory.reserve(locale: locale) },
                            release: { locale in await AssetInventory.⇣release(reservedLocale: locale) }
                        )
                    }
                    """##
                ),
            ]
        ),
        LintExample(
            "eviction-at-limit-wrong: at `maximumReservedLocales`, the app's other reservations, read from `reservedLocales`, are let go in a loop to make room (held-out set 4's Zettel); the twin lets them go whenever a locale is reserved",
            files: [
                (
                    "Reservations.swift",
                    ##"""
                    import Speech

                    /// The twin of eviction-at-limit: every other reservation is let go whenever a locale is
                    /// reserved, with room to spare or not.
                    enum Reservations {
                        static func makeRoom(for target: Locale) async {
                            let reserved = await AssetInventory.reservedLocales
                            for locale in reserved where locale.identifier != target.identifier {
                                await AssetInventory.↓release(reservedLocale: locale)
                            }
                        }
                    }
                    """##
                )
            ]
        ),
        LintExample(
            "reserve-retry-wrong: `if !(reserve(…)) { guard reserve(…) else { throw } }`, then the locale kept in a property: only a created reservation gets there (held-out set 4's Zettel); the twin throws the retry's answer away",
            files: [
                (
                    "DictationAssets.swift",
                    ##"""
                    import Speech

                    /// The twin of reserve-retry: the retry's answer is thrown away, so the locale kept in
                    /// `reservedLocale` may be a reservation another feature made.
                    actor DictationAssets {
                        enum Failure: Error { case noReservation }
                        private var reservedLocale: Locale?

                        func prepare(_ locale: Locale) async throws {
                            if !(try await AssetInventory.reserve(locale: locale)) {
                                _ = try await AssetInventory.reserve(locale: locale)
                            }
                            reservedLocale = locale
                        }

                        func teardown() async {
                            if let reservedLocale {
                                await AssetInventory.↓release(reservedLocale: reservedLocale)
                                self.reservedLocale = nil
                            }
                        }
                    }
                    """##
                )
            ]
        ),
    ]
}
