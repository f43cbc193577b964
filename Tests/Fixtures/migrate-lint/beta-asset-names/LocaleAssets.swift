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
