import Speech

/// The twin of eviction-at-limit: every other reservation is let go whenever a locale is
/// reserved, with room to spare or not.
enum Reservations {
    static func makeRoom(for target: Locale) async {
        let reserved = await AssetInventory.reservedLocales
        for locale in reserved where locale.identifier != target.identifier {
            await AssetInventory.release(reservedLocale: locale) // lint: unowned-reservation-release
        }
    }
}
