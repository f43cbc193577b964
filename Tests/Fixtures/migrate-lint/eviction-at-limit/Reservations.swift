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
