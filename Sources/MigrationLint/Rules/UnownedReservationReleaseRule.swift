/// A locale reservation released where this code may not own it.
struct UnownedReservationReleaseRule: LintRule {
    static let id = "unowned-reservation-release"
    static let summary = "releases a locale reservation without checking that this code created it"
    static let hint =
        "release only when `AssetInventory.reserve(locale:)` returned true for this owner; another feature may hold the reservation"
    static let explanation = """
        `AssetInventory.reserve(locale:)` returns true only when it created the reservation. If another
        feature already held it, releasing it here takes the locale's assets from that feature. A
        release must run only for reservations this code made.
        The rule accepts a release under a condition on reserve's result or on a name that records it:
        a Bool assigned from it, a flag set to true or a collection filled (insert, append) only where
        it returned true, including after `guard … reserve(…) else`. Iterating such a collection
        (`for locale in reserved`, `reserved.forEach`) counts as consulting it. A collection filled
        whether or not the reservation was created records nothing and does not count.
        A locale read from `AssetInventory.reservedLocales` (the app's own reservations, as when
        one is let go to make room under the system's limit) is the app's to release.
        """

    static func check(_ file: LintedFile) -> [LintFinding] {
        var findings: [LintFinding] = []
        let owners = file.reservationOwnershipNames()
        for index in file.tokens.indices
        where
            (file.matches(index, ["release", "(", "reservedLocale", ":"])
            || file.matches(index, ["deallocate", "(", "locale", ":"]))
            && file.token(index - 1)?.is("func") != true
        {
            if file.releaseIsOwned(index, owners: owners) || file.releasesListedReservation(index) { continue }
            let call = file.tokens[index].text == "release" ? "release(reservedLocale:)" : "deallocate(locale:)"
            let place = file.structure.enclosingFunction(of: index).map { " in \($0.name)()" } ?? ""
            let followed =
                owners.isEmpty
                ? "nothing in this file keeps what reserve(locale:) returned"
                : "ownership is kept in \(owners.sorted().joined(separator: ", ")), and this release neither tests nor iterates it"
            findings.append(
                file.finding(
                    Self.self, at: file.tokens[index].location,
                    "\(call)\(place) not conditioned on a reservation this code made; \(followed)"))
        }
        return findings
    }
}

extension LintedFile {
    /// Whether the locale released at `index` was read from `AssetInventory.reservedLocales`, in
    /// its binding's value or through a local bound from the list (one step).
    fileprivate func releasesListedReservation(_ index: Int) -> Bool {
        guard let argument = token(index + 4), argument.kind == .identifier,
            let function = structure.enclosingFunction(of: index)
        else { return false }
        /// The value a `let`/`var` (or `guard let`/`if let`) of `name` is given before `index`.
        func value(of name: String) -> Range<Int>? {
            guard
                let bound = (function.body.lowerBound..<index).last(where: {
                    tokens[$0].text == name && (token($0 - 1)?.is("let") == true || token($0 - 1)?.is("var") == true)
                        && token($0 + 1)?.is("=") == true
                })
            else { return nil }
            return (bound + 2)..<min(index, structure.statementEnd(from: bound + 2) + 1)
        }
        guard let range = value(of: argument.text) else { return false }
        if range.contains(where: { tokens[$0].is("reservedLocales") }) { return true }
        return range.contains { position in
            tokens[position].kind == .identifier && tokens[position].text != argument.text
                && value(of: tokens[position].text)?.contains(where: { tokens[$0].is("reservedLocales") }) == true
        }
    }

    /// Names that record ownership: Bools bound to what `reserve(locale:)` returned, and flags and
    /// collections set or filled only where it (or such a Bool) was true.
    fileprivate func reservationOwnershipNames() -> Set<String> {
        var names: Set<String> = []
        let reserves = tokens.indices.filter {
            matches($0, ["reserve", "(", "locale", ":"]) && token($0 - 1)?.is("func") != true
        }
        for index in reserves {
            let start = structure.statementStart(of: index)
            if let assign = (start..<index).last(where: { tokens[$0].is("=") }),
                let name = (start..<assign).last(where: { tokens[$0].kind == .identifier })
            {
                names.insert(tokens[name].text)
            }
        }
        names.remove("_")  // `_ = try await reserve(…)`: the answer is thrown away
        // Twice, so `let created = try await reserve(…); if created { owned.insert(l) }` is followed.
        for _ in 0..<2 {
            let recordsOwnership = { (range: Range<Int>) in
                range.contains {
                    self.tokens[$0].is("reserve") && self.matches($0 + 1, ["(", "locale", ":"])
                        || names.contains(self.tokens[$0].text)
                }
            }
            // if try await AssetInventory.reserve(locale: l) { owned.insert(l) }
            for block in structure.blocks where block.kind == .conditional && recordsOwnership(block.header) {
                names.formUnion(ownershipRecords(in: (block.open + 1)..<block.close))
            }
            // guard try await AssetInventory.reserve(locale: l) else { return }; owned.insert(l)
            for entry in structure.guards where recordsOwnership(entry.condition) {
                // The condition ends at `else`; what follows its `{ … }` runs only when it held.
                let elseClose = structure.partner[entry.condition.upperBound + 1] ?? entry.scopeEnd
                names.formUnion(ownershipRecords(in: min(elseClose + 1, entry.scopeEnd)..<entry.scopeEnd))
            }
        }
        return names
    }

    /// Receivers of `.insert(`/`.append(` and targets of `= true` in `range`.
    fileprivate func ownershipRecords(in range: Range<Int>) -> Set<String> {
        var names: Set<String> = []
        for inner in range {
            if matches(inner, [".", "insert", "("]) || matches(inner, [".", "append", "("]),
                let name = receiverName(beforeDot: inner)
            {
                names.insert(name)
            }
            if matches(inner, ["=", "true"]), let name = token(inner - 1), name.kind == .identifier {
                names.insert(name.text)
            }
        }
        return names
    }

    /// True when the release at `position` runs only for owned reservations: under a condition on
    /// an ownership name (or on `reserve` itself), or while iterating an ownership collection
    /// (`for locale in owned`, `owned.forEach { … }`).
    fileprivate func releaseIsOwned(_ position: Int, owners: Set<String>) -> Bool {
        let mentionsOwner = { (range: Range<Int>) in
            range.contains { owners.contains(self.tokens[$0].text) || self.tokens[$0].is("reserve") }
        }
        if structure.conditions(at: position).contains(where: mentionsOwner) { return true }
        return structure.enclosingBlocks(of: position).contains { block in
            if block.kind == .loop { return mentionsOwner(block.header) }
            guard block.kind == .other else { return false }
            var before = block.open - 1
            if token(before)?.is("(") == true { before -= 1 }
            return token(before)?.is("forEach") == true && token(before - 1)?.is(".") == true
                && receiverName(beforeDot: before - 1).map(owners.contains) == true
        }
    }
}
