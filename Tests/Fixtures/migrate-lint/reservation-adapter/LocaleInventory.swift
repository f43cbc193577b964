import Speech

/// The calls to AssetInventory a locale policy needs, as closures, so tests can replace them. The
/// live value only forwards: which locales are released is the policy's decision.
struct LocaleInventory: Sendable {
    var reserve: @Sendable (Locale) async throws -> Bool
    var release: @Sendable (Locale) async -> Bool

    static let live = LocaleInventory(
        reserve: { locale in try await AssetInventory.reserve(locale: locale) },
        release: { locale in await AssetInventory.release(reservedLocale: locale) } // lint-note: unowned-reservation-release
    )
}
