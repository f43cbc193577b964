extension AllocateLocaleRule {
    static let nonTriggeringExamples: [LintExample] = [
        LintExample(
            "the shipped call, whose answer says whether this code created the reservation",
            ##"""
            import Speech

            func prepare(_ locale: Locale) async throws -> Bool {
                try await AssetInventory.reserve(locale: locale)
            }
            """##)
    ]

    static let triggeringExamples: [LintExample] = [
        LintExample(
            "the call of early drafts and guides",
            ##"""
            import Speech

            func prepare(_ locale: Locale) async throws {
                try await AssetInventory.↓allocate(locale: locale)
            }
            """##)
    ]
}
