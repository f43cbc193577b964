/// AssetInventory names of the first betas, with their shipped replacements as fixes.
struct BetaAssetAPIRule: LintRule {
    static let id = "beta-asset-api"
    static let triggers: [[String]] = [["AssetInventory"]]
    static let summary = "uses an AssetInventory name from the beta SDK that did not ship"
    static let hint =
        "the shipped names are `reservedLocales`, `maximumReservedLocales` and `release(reservedLocale:)` (which returns whether it released)"
    static let explanation = """
        The first betas named locale reservations as allocations: `AssetInventory.allocatedLocales`,
        `maximumAllocatedLocales` and `deallocate(locale:)`, as the WWDC25 sample code still does.
        The shipped SDK has `reservedLocales`, `maximumReservedLocales` and `release(reservedLocale:)`;
        code with the beta names does not compile against it. Each finding carries the replacement as a
        fix. A loop that releases every reserved locale is also checked by unowned-reservation-release.
        """

    /// Beta names of the reservation API and their shipped replacements.
    static let betaAssetNames: [(beta: [String], shipped: String)] = [
        (["allocatedLocales"], "reservedLocales"),
        (["maximumAllocatedLocales"], "maximumReservedLocales"),
        (["deallocate", "(", "locale"], "release(reservedLocale"),
    ]

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        for index in file.tokens.indices
        where file.token(index - 1)?.is(".") == true && file.token(index - 2)?.is("AssetInventory") == true {
            for (beta, shipped) in Self.betaAssetNames where file.matches(index, beta) {
                let first = file.tokens[index], last = file.tokens[index + beta.count - 1]
                guard first.location.line == last.location.line else { continue }
                let fix = LintFix(
                    start: first.location.column, end: last.location.column + last.text.count, replacement: shipped)
                let written = beta.count == 1 ? beta[0] : "deallocate(locale:)"
                let replacement = beta.count == 1 ? shipped : "release(reservedLocale:)"
                findings.append(
                    file.finding(
                        Self.self, at: first.location, "AssetInventory.\(written) → AssetInventory.\(replacement)",
                        fix: fix))
            }
        }
        return findings
    }
}
