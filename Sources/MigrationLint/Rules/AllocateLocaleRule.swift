/// `allocate(locale:)`, a call the shipped SDK does not have.
struct AllocateLocaleRule: LintRule {
    static let id = "allocate-locale"
    static let triggers: [[String]] = [["allocate(locale"]]
    static let summary = "calls allocate(locale:), which the 26 SDK does not have"
    static let hint =
        "reserve the locale with `AssetInventory.reserve(locale:)` and keep the Bool it returns to know whether you own it"
    static let explanation = """
        `allocate(locale:)` appeared in early drafts and guides but is not in the shipped SDK. The
        shipped call is `AssetInventory.reserve(locale:)`, whose Bool says whether this call created
        the reservation, which is what a later release must know.
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        for index in file.tokens.indices where file.matches(index, [".", "allocate", "(", "locale", ":"]) {
            findings.append(
                file.finding(
                    Self.self, at: file.tokens[index + 1].location,
                    "\(file.receiverName(beforeDot: index) ?? "…").allocate(locale:)"))
        }
        return findings
    }
}
