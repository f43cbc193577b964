extension BetaAssetAPIRule {
    static let nonTriggeringExamples: [LintExample] = [
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
        )
    ]
    static let triggeringExamples: [LintExample] = [
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
                            print("\(await AssetInventory.↓allocatedLocales.count) of \(AssetInventory.↓maximumAllocatedLocales) reserved")
                        }

                        func releaseAll() async {
                            let allocated = await AssetInventory.↓allocatedLocales
                            for locale in allocated {
                                await AssetInventory.↓deallocate(locale: locale)
                            }
                        }
                    }
                    """##
                )
            ]
        )
    ]
}
