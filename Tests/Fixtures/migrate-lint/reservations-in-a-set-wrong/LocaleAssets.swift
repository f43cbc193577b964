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
        await AssetInventory.release(reservedLocale: locale) // lint: unowned-reservation-release
    }

    func releaseInOrder() async {
        for locale in order.reversed() {
            await AssetInventory.release(reservedLocale: locale) // lint: unowned-reservation-release
        }
        order = []
    }
}
