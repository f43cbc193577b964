/// Where hand-offs land, across the run: the values callers pass for a labelled parameter, the
/// methods of the types adopting a protocol, and the cases of `switch` statements. Read by
/// ``LintedFile/handOffs(in:depth:visited:)``.
extension ProjectIndex {
    /// The values passed as `label:` in calls of `function` across the run (`start(failureHandler:
    /// { … })`, `service.start(failureHandler: handler)`): each value's first token.
    func arguments(labelled label: String, inCallsOf function: String) -> [(unit: Int, value: Int, line: Int)] {
        var found: [(Int, Int, Int)] = []
        for (number, unit) in units(mentioning: function) where unit.mentions(label) {
            let tokens = unit.structure.tokens
            for index in tokens.indices
            where tokens[index].text == function && index + 1 < tokens.count && tokens[index + 1].is("(")
                && (index == 0 || !tokens[index - 1].is("func"))
            {
                guard let close = unit.structure.partner[index + 1] else { continue }
                var cursor = index + 2
                while cursor < close {
                    if tokens[cursor].text == label, cursor + 2 < close, tokens[cursor + 1].is(":"),
                        tokens[cursor - 1].is("(") || tokens[cursor - 1].is(",")
                    {
                        found.append((number, cursor + 2, tokens[cursor].location.line))
                    }
                    if let partner = unit.structure.partner[cursor], partner > cursor, partner < close {
                        cursor = partner
                    }
                    cursor += 1
                }
            }
        }
        return found
    }

    /// Whether a file of the run declares a protocol of this name.
    func declaresProtocol(_ name: String) -> Bool {
        units.contains { unit in
            guard unit.mentions(name) else { return false }
            let tokens = unit.structure.tokens
            return tokens.indices.contains { index in
                tokens[index].is("protocol") && index + 1 < tokens.count && tokens[index + 1].text == name
            }
        }
    }

    /// The methods named `method` of every type the run declares as adopting `protocol`
    /// (`class Controller: InputDelegate`, `extension Controller: InputDelegate`), in any of its blocks.
    func implementations(
        of method: String, adopting protocolName: String
    ) -> [(
        unit: Int, body: Range<Int>, type: String, line: Int
    )] {
        var adopters: Set<String> = []
        for unit in units where unit.mentions(protocolName) {
            let structure = unit.structure
            for block in structure.blocks {
                guard case .type(let name) = block.kind else { continue }
                let header = structure.statementStart(of: block.open)..<block.open
                guard !header.contains(where: { structure.tokens[$0].is("protocol") }),
                    let colon = header.first(where: { structure.tokens[$0].is(":") })
                else { continue }
                let inherited = ((colon + 1)..<block.open).prefix { !structure.tokens[$0].is("where") }
                if inherited.contains(where: { structure.tokens[$0].text == protocolName }) { adopters.insert(name) }
            }
        }
        var found: [(Int, Range<Int>, String, Int)] = []
        for (number, unit) in units(mentioning: method) where adopters.contains(where: unit.mentions) {
            let structure = unit.structure
            for block in structure.blocks {
                guard case .function(let name) = block.kind, name == method,
                    let owner = structure.enclosingTypeName(of: block.open), adopters.contains(owner)
                else { continue }
                found.append(
                    (number, (block.open + 1)..<block.close, owner, structure.tokens[block.open].location.line))
            }
        }
        return found
    }

    /// The bodies of `case .name` (also `case .name(let x)`, `case let .name(x)`, `case .a, .name:`)
    /// in the `switch` statements of the run.
    func switchCases(named name: String) -> [(unit: Int, body: Range<Int>, line: Int)] {
        var found: [(Int, Range<Int>, Int)] = []
        for (number, unit) in units(mentioning: name) where unit.mentions("switch") {
            let structure = unit.structure
            for block in structure.blocks where structure.switchKeyword(of: block) != nil {
                for handled in structure.cases(ofSwitchAt: block) where handled.names.contains(name) {
                    found.append((number, handled.body, handled.line))
                }
            }
        }
        return found
    }
}

extension SourceStructure {
    /// The `switch` whose body `block` is (`switch action {`, `switch self.state.mode {`), if it is one.
    func switchKeyword(of block: Block) -> Int? {
        var index = block.open - 1
        while index >= 0 {
            let token = tokens[index]
            if token.is("switch") { return index }
            if token.is(")") || token.is("]"), let open = partner[index], open < index {
                index = open - 1
            } else if token.kind == .identifier || token.is(".") || token.is("?") || token.is("!") {
                index -= 1
            } else {
                return nil
            }
        }
        return nil
    }

    /// The cases of the `switch` whose body is `block`: the names each label matches and its
    /// body, up to the next `case` or `default` of that switch.
    func cases(ofSwitchAt block: Block) -> [(names: [String], body: Range<Int>, line: Int)] {
        let structure = self
        var labels: [(names: [String], start: Int, colon: Int)] = []
        var index = block.open + 1
        while index < block.close {
            if let partner = structure.partner[index], partner > index, partner < block.close,
                tokens[index].is("{")
                    || tokens[index].is("(") || tokens[index].is("[")
            {
                index = partner + 1
                continue
            }
            guard tokens[index].is("case") || tokens[index].is("default") else {
                index += 1
                continue
            }
            // The label runs to its `:` outside brackets.
            var cursor = index + 1
            var names: [String] = []
            while cursor < block.close, !tokens[cursor].is(":") {
                if tokens[cursor].is("."), cursor + 1 < block.close,
                    ["case", ",", "let", "var"].contains(tokens[cursor - 1].text)
                {
                    names.append(tokens[cursor + 1].text)
                }
                if let partner = structure.partner[cursor], partner > cursor, partner < block.close { cursor = partner }
                cursor += 1
            }
            labels.append((names, index, cursor))
            index = cursor + 1
        }
        return labels.enumerated().map { number, label in
            let end = number + 1 < labels.count ? labels[number + 1].start : block.close
            return (label.names, min(label.colon + 1, end)..<end, tokens[label.start].location.line)
        }
    }
}
