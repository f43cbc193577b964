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
