import Speech

/// The twin of beta-asset-names, as the WWDC25 sample wrote it against the first beta: the beta
/// names, and a release of every reserved locale whoever reserved it.
actor LocaleAssets {
    func prepare(_ locale: Locale) async throws {
        _ = try await AssetInventory.reserve(locale: locale)
        print("\(await AssetInventory.allocatedLocales.count) of \(AssetInventory.maximumAllocatedLocales) reserved") // lint: beta-asset-api, beta-asset-api
    }

    func releaseAll() async {
        let allocated = await AssetInventory.allocatedLocales // lint: beta-asset-api
        for locale in allocated {
            await AssetInventory.deallocate(locale: locale) // lint: beta-asset-api, unowned-reservation-release
        }
    }
}
