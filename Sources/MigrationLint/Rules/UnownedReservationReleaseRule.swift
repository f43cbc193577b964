/// A locale reservation released where this code may not own it.
struct UnownedReservationReleaseRule: LintRule {
    static let id = "unowned-reservation-release"
    static let triggers: [[String]] = [["reservedLocale", "deallocate"]]
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
        one is let go to make room under the system's limit) is the app's to release, and so are the
        locales of a loop over that list under a condition on `maximumReservedLocales` (eviction at
        the limit). After `if !(reserve(…)) { … guard reserve(…) else { leave } }` a reservation was
        created, and a name then given the reserved locale records it. A release of the locale a
        closure is given, the closure being an argument or an assigned value (a dependency's
        `release: { locale in … }`), forwards a decision made where the closure is called: the
        rule notes it and does not judge it. A type split over files (its extensions each in a file
        of its own) records ownership in any of them, a name given the locale only where `reserve`
        returned true records it, a name given a record whole (`ownsReservation = created`)
        records it, and a local copy of a record (`let reserved = reservedLocale`) is one.
        """

    static func check(_ file: LintedFile) -> [LintFinding] { review(file).findings }

    static func notes(_ file: LintedFile) -> [LintNote] { review(file).notes }

    /// The findings, and notes for releases whose owner is decided where the rule cannot follow.
    private static func review(_ file: LintedFile) -> LintReview {
        var review = LintReview()
        let owners = file.reservationOwnershipNames()
        for index in file.tokens.indices
        where
            (file.matches(index, ["release", "(", "reservedLocale", ":"])
            || file.matches(index, ["deallocate", "(", "locale", ":"]))
            && file.token(index - 1)?.is("func") != true
        {
            // A type split over files (`View+Dictation.swift`): what its other files record counts.
            var owners = owners.union(file.typeOwnershipNames(around: index))
            owners.formUnion(file.localCopies(of: owners, before: index))
            if file.releaseIsOwned(index, owners: owners) || file.releasesListedReservation(index)
                || file.evictsAtTheLimit(index)
            {
                continue
            }
            let call = file.tokens[index].text == "release" ? "release(reservedLocale:)" : "deallocate(locale:)"
            if let adapter = file.forwardingClosure(releasing: index) {
                review.notes.append(
                    LintNote(
                        file: file.file, location: file.tokens[index].location, rule: id,
                        text:
                            "\(call) not judged: it releases the locale its closure is given (\(adapter)), so whether this code owns the reservation is decided where the closure is called, which the rule does not follow"
                    ))
                continue
            }
            let place = file.structure.enclosingFunction(of: index).map { " in \($0.name)()" } ?? ""
            let followed =
                owners.isEmpty
                ? "nothing in this file keeps what reserve(locale:) returned"
                : "ownership is kept in \(owners.sorted().joined(separator: ", ")), and this release neither tests nor iterates it"
            review.findings.append(
                file.finding(
                    Self.self, at: file.tokens[index].location,
                    "\(call)\(place) not conditioned on a reservation this code made; \(followed)"))
        }
        return review
    }
}

extension LintedFile {
    /// Locals of the function around `index` bound, before it, to one of `names` (`let reserved =
    /// dictationReservedLocale`, `let reserved = self.reservedLocale`): copies of an ownership record.
    fileprivate func localCopies(of names: Set<String>, before index: Int) -> Set<String> {
        guard !names.isEmpty, let function = structure.enclosingFunction(of: index) else { return [] }
        var copies: Set<String> = []
        for position in function.body.lowerBound..<index
        where (tokens[position].is("let") || tokens[position].is("var")) && token(position + 2)?.is("=") == true {
            guard let local = token(position + 1), local.kind == .identifier else { continue }
            var value = position + 3
            if matches(value, ["self", "."]) { value += 2 }
            guard let source = token(value), names.contains(source.text),
                token(value + 1).map({ $0.location.line > source.location.line || $0.is(";") }) ?? true
            else { continue }
            copies.insert(local.text)
        }
        return copies
    }

    /// The ownership records of the other files of the run that extend the type around `index`
    /// (its declaration and its extensions, each in a file of its own).
    fileprivate func typeOwnershipNames(around index: Int) -> Set<String> {
        guard let run, let type = structure.enclosingTypeName(of: index) else { return [] }
        let name = String(type.split(separator: ".").last ?? "")
        var names: Set<String> = []
        for (number, unit) in run.units(mentioning: "reserve") where number != unitIndex && unit.mentions(name) {
            guard unit.structure.blocks.contains(where: { $0.kind == .type(name: type) }) else { continue }
            names.formUnion(run.file(number, project: project).reservationOwnershipNames())
        }
        return names
    }

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
            // if !(try await reserve(locale: l)) { …; guard try await reserve(locale: l) else { throw … } }
            // owned = l: past that block a reserve returned true.
            for block in structure.blocks
            where block.kind == .conditional && matches(block.header.lowerBound, ["!", "("])
                && recordsOwnership(block.header)
            {
                guard
                    structure.guards.contains(where: {
                        $0.condition.lowerBound > block.open && $0.condition.upperBound < block.close
                            && recordsOwnership($0.condition)
                    }),
                    let reserved = (block.header).first(where: { matches($0, ["locale", ":"]) }).flatMap({
                        token($0 + 2)
                    })
                else { continue }
                let rest = (block.close + 1)..<structure.functionBody(of: block.open).upperBound
                names.formUnion(ownershipRecords(in: rest))
                for position in rest where matches(position, ["=", reserved.text]) {
                    if let name = token(position - 1), name.kind == .identifier { names.insert(name.text) }
                }
            }
            // guard try await AssetInventory.reserve(locale: l) else { return }; owned.insert(l)
            for entry in structure.guards where recordsOwnership(entry.condition) {
                // The condition ends at `else`; what follows its `{ … }` runs only when it held.
                let elseClose = structure.partner[entry.condition.upperBound + 1] ?? entry.scopeEnd
                names.formUnion(ownershipRecords(in: min(elseClose + 1, entry.scopeEnd)..<entry.scopeEnd))
            }
            // `self.ownsReservation = created`: a name given a record, whole, records it too.
            for position in tokens.indices where tokens[position].is("=") {
                guard let value = token(position + 1), names.contains(value.text),
                    let target = token(position - 1), target.kind == .identifier
                else { continue }
                let next = token(position + 2)
                if next == nil || next!.location.line > value.location.line || next!.is(";") || next!.is("}") {
                    names.insert(target.text)
                }
            }
        }
        return names
    }

    /// Whether the release at `index` lets go of a locale read from `AssetInventory.reservedLocales`
    /// in a loop (`for locale in reserved`, `reserved` bound from that list) under a condition on
    /// `maximumReservedLocales`: the app's own reservations, evicted to make room at the limit.
    fileprivate func evictsAtTheLimit(_ index: Int) -> Bool {
        guard let argument = token(index + 4), argument.kind == .identifier,
            let loop = structure.enclosingBlocks(of: index).last(where: { $0.kind == .loop }),
            let pattern = loop.header.first, tokens[pattern].text == argument.text,
            let inKeyword = loop.header.first(where: { tokens[$0].is("in") })
        else { return false }
        let body = structure.functionBody(of: index)
        /// Names bound (`let x = …`) in the function to a value mentioning `word`, and the word.
        func names(from word: String) -> Set<String> {
            var found: Set<String> = [word]
            for position in body where tokens[position].is(word) {
                let start = structure.statementStart(of: position)
                if let bound = (start..<position).first(where: { tokens[$0].is("let") || tokens[$0].is("var") }),
                    let name = token(bound + 1), name.kind == .identifier
                {
                    found.insert(name.text)
                }
            }
            return found
        }
        let lists = names(from: "reservedLocales")
        guard ((inKeyword + 1)..<loop.header.upperBound).contains(where: { lists.contains(tokens[$0].text) }) else {
            return false
        }
        let limits = names(from: "maximumReservedLocales")
        return structure.conditions(at: index).contains { condition in
            condition.contains { limits.contains(tokens[$0].text) }
        }
    }

    /// The closure whose parameter the release at `index` releases, when that closure is an
    /// argument or an assigned value: `release: { locale in … release(reservedLocale: locale) }`.
    fileprivate func forwardingClosure(releasing index: Int) -> String? {
        guard let argument = token(index + 4), argument.kind == .identifier,
            let closure = structure.enclosingBlocks(of: index).last(where: { $0.kind == .other }),
            let inKeyword = ((closure.open + 1)..<index).first(where: { tokens[$0].is("in") })
        else { return nil }
        let parameters = ((closure.open + 1)..<inKeyword).filter { tokens[$0].kind == .identifier }
        guard parameters.contains(where: { tokens[$0].text == argument.text }) else { return nil }
        if token(closure.open - 1)?.is(":") == true, let label = token(closure.open - 2), label.kind == .identifier {
            return "the `\(label.text):` closure at line \(tokens[closure.open].location.line)"
        }
        if token(closure.open - 1)?.is("=") == true, let name = token(closure.open - 2), name.kind == .identifier {
            return "the closure assigned to `\(name.text)` at line \(tokens[closure.open].location.line)"
        }
        return nil
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
            // `reservedLocale = locale`: a name given the locale only where the reservation was made.
            if tokens[inner].is("="), let name = token(inner - 1), name.kind == .identifier,
                let value = token(inner + 1), value.kind == .identifier, !value.is("nil"), !value.is("true"),
                !value.is("false"),
                token(inner + 2).map({ $0.location.line > value.location.line || $0.is("}") }) ?? true
            {
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
