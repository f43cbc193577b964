import Speech

/// Reserves the dictation locale, asking twice before giving up; past that, a
/// reservation was created here, so the one kept in `reservedLocale` is this code's to release.
actor DictationAssets {
    enum Failure: Error { case noReservation }
    private var reservedLocale: Locale?

    func prepare(_ locale: Locale) async throws {
        if !(try await AssetInventory.reserve(locale: locale)) {
            guard try await AssetInventory.reserve(locale: locale) else {
                throw Failure.noReservation
            }
        }
        reservedLocale = locale
    }

    func teardown() async {
        if let reservedLocale {
            await AssetInventory.release(reservedLocale: reservedLocale)
            self.reservedLocale = nil
        }
    }
}
