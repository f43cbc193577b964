import Speech

/// The twin of reserve-retry: the retry's answer is thrown away, so the locale kept in
/// `reservedLocale` may be a reservation another feature made.
actor DictationAssets {
    enum Failure: Error { case noReservation }
    private var reservedLocale: Locale?

    func prepare(_ locale: Locale) async throws {
        if !(try await AssetInventory.reserve(locale: locale)) {
            _ = try await AssetInventory.reserve(locale: locale)
        }
        reservedLocale = locale
    }

    func teardown() async {
        if let reservedLocale {
            await AssetInventory.release(reservedLocale: reservedLocale) // lint: unowned-reservation-release
            self.reservedLocale = nil
        }
    }
}
