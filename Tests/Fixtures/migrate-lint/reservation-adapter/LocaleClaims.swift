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
