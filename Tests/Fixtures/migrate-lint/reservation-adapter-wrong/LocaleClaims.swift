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
        for locale in asked { await AssetInventory.release(reservedLocale: locale) } // lint: unowned-reservation-release
        asked.removeAll()
    }
}
