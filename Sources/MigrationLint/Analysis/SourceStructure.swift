import LintSyntax

/// The shape of one file the rules share: its tokens, matching brackets, the brace blocks with
/// what opened them and the `guard` scopes (all read by Swift's parser), and statement boundaries.
public struct SourceStructure: Sendable {
    /// A `{ … }` block and the statement that opened it.
    public typealias Block = SourceBlock

    public let tokens: [SwiftToken]
    /// For each bracket token, the index of its partner (or the end of input when unmatched).
    public let partner: [Int: Int]
    public let blocks: [Block]
    /// Conditions of `guard` statements: each guards the rest of its enclosing block.
    public let guards: [(condition: Range<Int>, scopeEnd: Int)]
    /// Code that runs only where an availability condition holds, or only where it fails.
    public let availability: [AvailabilityRegion]

    /// The structure of `source`, as Swift's parser reads it.
    public init(parsing source: String) {
        self.init(ParsedSource(parsing: source))
    }

    public init(_ parsed: ParsedSource) {
        tokens = parsed.tokens
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
        blocks = parsed.blocks
        guards = parsed.guards
        availability = parsed.availability
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

    /// The type whose declaration holds `position` before its body: in its header, such as a
    /// conformance (`final class Live: NSObject, SFSpeechRecognizerDelegate {`).
    public func typeDeclared(atHeader position: Int) -> String? {
        for block in blocks where block.open > position {
            guard case .type(let name) = block.kind else { continue }
            if statementStart(of: block.open) <= position { return name }
        }
        return nil
    }

    /// Whether the declaration whose body is `block` has one of `modifiers` before it
    /// (`private`, `public`…).
    public func declaration(of block: Block, has modifiers: Set<String>) -> Bool {
        (statementStart(of: block.open)..<block.open).contains { modifiers.contains(tokens[$0].text) }
    }

    /// The name of the innermost type or extension containing `position`.
    public func enclosingTypeName(of position: Int) -> String? {
        for block in enclosingBlocks(of: position).reversed() {
            if case .type(let name) = block.kind { return name }
        }
        return nil
    }

    /// Whether `position` runs only where an availability condition fails: the `else` of
    /// `if #available`, under `if #unavailable`, the `else` of `guard #available`, or after
    /// `if #available(…) { …; return }`.
    public func isAvailabilityFallback(_ position: Int) -> Bool {
        availability.contains { !$0.holds && $0.range.contains(position) }
    }

    /// The availability regions that hold at `position` (the versions known to be present there).
    public func availableVersions(at position: Int) -> [AvailabilityRegion] {
        availability.filter { $0.holds && $0.range.contains(position) }
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
