/// The bracket structure of a token stream: matching brackets, the brace blocks with what
/// introduced them, and statement boundaries. Enough shape for lint rules, without a parser.
public struct SourceStructure: Sendable {
    /// A `{ … }` block and the statement that opened it.
    public struct Block: Sendable {
        public enum Kind: Sendable, Equatable {
            /// The body of `func`, `init`, `deinit`, an accessor or a subscript.
            case function(name: String)
            /// The body of `if`/`while` or the `else` of a `guard`; `header` spans the condition tokens.
            case conditional
            /// The `else` block of an `if`; `header` spans that `if`'s condition.
            case elseBranch
            /// A type or extension body; `name` is the type's (`A.B` for `extension A.B`).
            case type(name: String)
            /// The body of a `for` loop; `header` spans `pattern in sequence`.
            case loop
            /// A `catch` clause; `tried` spans the body of its `do`.
            case catchClause(tried: Range<Int>)
            /// A closure or any other block.
            case other
        }

        public var open: Int
        public var close: Int
        public var kind: Kind
        /// Token range of the condition that guards the block (empty when there is none).
        public var header: Range<Int>
    }

    public let tokens: [SwiftToken]
    /// For each bracket token, the index of its partner (or the end of input when unmatched).
    public let partner: [Int: Int]
    public let blocks: [Block]
    /// Conditions of `guard` statements: each guards the rest of its enclosing block.
    public let guards: [(condition: Range<Int>, scopeEnd: Int)]

    public init(_ tokens: [SwiftToken]) {
        self.tokens = tokens
        var partner: [Int: Int] = [:]
        var stack: [Int] = []
        for (index, token) in tokens.enumerated() where token.kind == .punctuation {
            switch token.text {
            case "(", "[", "{": stack.append(index)
            case ")", "]", "}":
                if let open = stack.popLast() {
                    partner[open] = index
                    partner[index] = open
                }
            default: break
            }
        }
        for open in stack { partner[open] = tokens.count }
        self.partner = partner

        var blocks: [Block] = []
        var guards: [(Range<Int>, Int)] = []
        for (index, token) in tokens.enumerated() where token.is("{") {
            let close = partner[index] ?? tokens.count
            let start = Self.statementStart(tokens, partner, before: index)
            var kind = Block.Kind.other
            var header = index..<index
            let words = tokens[start..<index]
            let keyword = Self.lastKeyword(tokens, partner, in: start..<index, among: ["if", "while", "guard"])
            if tokens[start].is("do"), start + 1 < index, tokens[start + 1].is("{"), let tried = partner[start + 1],
                tried < index,
                Self.lastKeyword(tokens, partner, in: start..<index, among: ["catch"]) != nil
            {
                kind = .catchClause(tried: (start + 2)..<tried)
            } else if index > 0, tokens[index - 1].is("else"), keyword.map({ !tokens[$0].is("guard") }) ?? true {
                if let previous = Self.precedingIf(blocks, tokens, before: index - 1) {
                    kind = .elseBranch
                    header = blocks[previous].header
                }
            } else if let function = words.firstIndex(where: {
                ["func", "init", "deinit", "subscript", "get", "set", "willSet", "didSet"].contains($0.text)
                    && $0.kind == .identifier
            }),
                !Self.containsOutsideBrackets(tokens, partner, start..<index, ["=", "in"])
            {
                let name =
                    tokens[function].text == "func" && function + 1 < index
                    ? tokens[function + 1].text : tokens[function].text
                kind = .function(name: name)
            } else if keyword == nil, tokens[start].is("var") || words.contains(where: { $0.is("var") }),
                let variable = (start..<index).first(where: { tokens[$0].is("var") }), variable + 2 < index,
                tokens[variable + 1].kind == .identifier, tokens[variable + 2].is(":"),
                !Self.containsOutsideBrackets(tokens, partner, start..<index, ["=", "in"])
            {
                // `var body: some View {`: a computed property's getter.
                kind = .function(name: tokens[variable + 1].text)
            } else if let keyword, tokens[keyword].is("guard") {
                // `guard … else {`: the else block runs when the condition fails; the condition holds after it.
                let elseIndex = (keyword..<index).last { tokens[$0].is("else") } ?? index
                guards.append(((keyword + 1)..<elseIndex, Self.enclosingClose(tokens, partner, of: keyword)))
            } else if let keyword {
                kind = .conditional
                header = (keyword + 1)..<index
            } else if tokens[start].is("for") {
                kind = .loop
                header = (start + 1)..<index
            } else if let introducer = words.firstIndex(where: {
                ["class", "struct", "enum", "actor", "extension", "protocol"].contains($0.text)
                    && $0.kind == .identifier
            }) {
                kind = .type(name: Self.typeName(tokens, after: introducer, before: index))
            }
            blocks.append(Block(open: index, close: close, kind: kind, header: header))
        }
        self.blocks = blocks
        self.guards = guards
    }

    /// `Name` or `Outer.Inner` after `class`/`extension`…, up to the generic, conformance or body.
    private static func typeName(_ tokens: [SwiftToken], after introducer: Int, before open: Int) -> String {
        var parts: [String] = []
        var index = introducer + 1
        while index < open, tokens[index].kind == .identifier {
            parts.append(tokens[index].text)
            guard index + 2 < open, tokens[index + 1].is(".") else { break }
            index += 2
        }
        return parts.joined(separator: ".")
    }

    /// Whether one of `words` occurs in `range` outside brackets: `let f = { … }` assigns a
    /// closure, while `func f(x: Int = 0) {` only has a default value.
    private static func containsOutsideBrackets(
        _ tokens: [SwiftToken], _ partner: [Int: Int], _ range: Range<Int>, _ words: Set<String>
    ) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            if token.is("(") || token.is("[") {
                index = (partner[index] ?? range.upperBound) + 1
                continue
            }
            if words.contains(token.text) && (token.kind == .operator || token.kind == .identifier) { return true }
            index += 1
        }
        return false
    }

    /// The `if` (or `else if`) block whose `}` is right before `position`.
    private static func precedingIf(_ blocks: [Block], _ tokens: [SwiftToken], before position: Int) -> Int? {
        guard position > 0, tokens[position - 1].is("}") else { return nil }
        return blocks.lastIndex { $0.close == position - 1 && ($0.kind == .conditional || $0.kind == .elseBranch) }
    }

    /// The last of `keywords` in `range` outside nested brackets: the `if` of `} else if x {`.
    private static func lastKeyword(
        _ tokens: [SwiftToken], _ partner: [Int: Int], in range: Range<Int>, among keywords: Set<String>
    ) -> Int? {
        var index = range.upperBound - 1
        while index >= range.lowerBound {
            let token = tokens[index]
            if token.is(")") || token.is("]") || token.is("}") {
                index = (partner[index] ?? index) - 1
                continue
            }
            if token.kind == .identifier && keywords.contains(token.text) { return index }
            index -= 1
        }
        return nil
    }

    /// The `}` closing the block that contains `position` (or the end of input at top level).
    private static func enclosingClose(_ tokens: [SwiftToken], _ partner: [Int: Int], of position: Int) -> Int {
        var index = position - 1
        while index >= 0 {
            if tokens[index].is("}") || tokens[index].is(")") || tokens[index].is("]") {
                index = (partner[index] ?? index) - 1
                continue
            }
            if tokens[index].is("{") { return partner[index] ?? tokens.count }
            index -= 1
        }
        return tokens.count
    }

    /// The first token of the statement containing `position`, at the same bracket depth.
    public func statementStart(of position: Int) -> Int {
        Self.statementStart(tokens, partner, before: position)
    }

    static func statementStart(_ tokens: [SwiftToken], _ partner: [Int: Int], before position: Int) -> Int {
        var start = position
        while start > 0 {
            var previous = start - 1
            let token = tokens[previous]
            if token.is("{") || token.is(";") || token.is("(") || token.is("[")
                || token.is("}") && !Self.continuesAfterBrace(tokens, start)
            {
                break
            }
            if token.is(")") || token.is("]") || token.is("}") {
                previous = partner[previous] ?? previous
                if previous >= tokens.count { break }
            }
            // A line break right before `start` ends the statement unless the line continues; a
            // bracketed group jumped over (a parameter list across lines) is no break.
            if tokens[start - 1].location.line < tokens[start].location.line
                && !Self.continues(from: tokens[start - 1], to: tokens[start])
            {
                break
            }
            start = previous
        }
        return start
    }

    /// `} else`, `}.task`, `} catch`: a closing brace that does not end the statement.
    private static func continuesAfterBrace(_ tokens: [SwiftToken], _ next: Int) -> Bool {
        guard next < tokens.count else { return false }
        return tokens[next].is("else") || tokens[next].is(".") || tokens[next].is("catch")
    }

    private static func continues(from previous: SwiftToken, to next: SwiftToken) -> Bool {
        if previous.kind == .operator || previous.is(",") || previous.is(".") || previous.is(":") { return true }
        if next.kind == .operator || next.is(".") || next.is("else") || next.is("catch") { return true }
        if previous.kind == .identifier
            && ["try", "await", "return", "let", "var", "in", "if", "guard", "where"].contains(previous.text)
        {
            return true
        }
        return false
    }

    /// The index just after the statement that starts at `start`: the first token on a later line
    /// that does not continue it, or the `}`/`;` that ends it, at the same bracket depth.
    public func statementEnd(from start: Int) -> Int {
        var index = start
        while index < tokens.count {
            let token = tokens[index]
            if token.is("}") || token.is(";") || token.is(")") || token.is("]") { return index }
            if token.is("(") || token.is("[") || token.is("{") {
                index = (partner[index] ?? tokens.count) + 1
                continue
            }
            if index > start, token.location.line > tokens[index - 1].location.line,
                !Self.continues(from: tokens[index - 1], to: token)
            {
                return index
            }
            index += 1
        }
        return tokens.count
    }

    /// Blocks containing `position`, innermost last.
    public func enclosingBlocks(of position: Int) -> [Block] {
        blocks.filter { $0.open < position && position < $0.close }
    }

    /// The innermost function (`func`, `init`, accessor…) containing `position`.
    public func enclosingFunction(of position: Int) -> (name: String, body: Range<Int>)? {
        for block in enclosingBlocks(of: position).reversed() {
            if case .function(let name) = block.kind { return (name, (block.open + 1)..<block.close) }
        }
        return nil
    }

    /// The block whose inside is `body` (a function's, as ``enclosingFunction(of:)`` gives it).
    public func block(enclosing body: Range<Int>) -> Block? {
        blocks.first { $0.open + 1 == body.lowerBound }
    }

    /// The parentheses of the parameter list of the function whose body is `block` (`func f(a: Int)
    /// -> T {`); nil for a body without one, such as an accessor's.
    public func parameterList(ofFunctionAt block: Block) -> (open: Int, close: Int)? {
        let header = statementStart(of: block.open)..<block.open
        guard let open = header.first(where: { tokens[$0].is("(") }), let close = partner[open], close < block.open
        else { return nil }
        return (open, close)
    }

    /// The names the function's parameters go by in its body: `action` for `_ action: Action`,
    /// `failureHandler` for `failureHandler: @escaping (String) -> Void`.
    public func parameterNames(ofFunctionAt block: Block) -> Set<String> {
        guard let list = parameterList(ofFunctionAt: block) else { return [] }
        let separates = { (index: Int) in index >= list.open && (tokens[index].is("(") || tokens[index].is(",")) }
        return Set(
            ((list.open + 1)..<list.close).compactMap { index -> String? in
                guard tokens[index].kind == .identifier, index + 1 < list.close, tokens[index + 1].is(":"),
                    separates(index - 1) || separates(index - 2)
                else { return nil }
                return tokens[index].text
            })
    }

    /// The function body containing `position` as a token range, or the whole file.
    public func functionBody(of position: Int) -> Range<Int> {
        enclosingFunction(of: position)?.body ?? 0..<tokens.count
    }

    /// The name of the innermost type or extension containing `position`.
    public func enclosingTypeName(of position: Int) -> String? {
        for block in enclosingBlocks(of: position).reversed() {
            if case .type(let name) = block.kind { return name }
        }
        return nil
    }

    /// Token ranges of every condition that must hold at `position`: enclosing `if`/`while`/`else`
    /// headers and earlier `guard` conditions of enclosing blocks.
    public func conditions(at position: Int) -> [Range<Int>] {
        var result = enclosingBlocks(of: position).filter { $0.kind == .conditional || $0.kind == .elseBranch }.map(
            \.header)
        for entry in guards where entry.condition.upperBound < position && position < entry.scopeEnd {
            result.append(entry.condition)
        }
        return result
    }
}
