internal import SwiftDiagnostics
internal import SwiftParser
internal import SwiftParserDiagnostics
internal import SwiftSyntax

/// One file as Swift's own parser reads it, turned into the plain values the rules work on: the
/// tokens, the brace blocks with what opened them, the `guard` scopes, and what the parser could not
/// read cleanly. The syntax tree itself stays in this module, the only one that imports SwiftSyntax.
public struct ParsedSource: Sendable {
    public var tokens: [SwiftToken]
    public var blocks: [SourceBlock]
    /// Each `guard`'s condition and the token index where the statements it guards end.
    public var guards: [(condition: Range<Int>, scopeEnd: Int)]
    /// The code that runs only where an availability condition holds, or only where it fails.
    public var availability: [AvailabilityRegion]
    public var problems: [LexicalProblem]

    public init(parsing text: String) {
        let tree = Parser.parse(source: text)
        let converter = SourceLocationConverter(fileName: "", tree: tree)
        // One walk over the tree's tokens; the braces and the availability marks are read after it,
        // once every token has its index.
        var tokens = TokenList(converter)
        var braces: [TokenSyntax] = []
        var marks: [TokenSyntax] = []
        for token in tree.tokens(viewMode: .sourceAccurate) {
            tokens.add(token)
            switch token.tokenKind {
            case .leftBrace: braces.append(token)
            case .poundAvailable, .poundUnavailable, .atSign: marks.append(token)
            default: break
            }
        }
        self.tokens = tokens.tokens
        var reader = BlockReader(tokens)
        for brace in braces { reader.read(brace: brace) }
        blocks = reader.blocks
        guards = reader.guards
        var regions = AvailabilityReader(index: tokens.index(atOrAfter:))
        for mark in marks { regions.read(mark) }
        availability = regions.regions
        problems = Self.problems(tree, converter)
    }

    /// The parser's first error, with how many followed it: one syntax error often sets off more,
    /// and each would say the same thing. An editor placeholder (`<#name#>`, left in sample code for
    /// the reader to fill) is read as the expression it stands for, not as a problem.
    private static func problems(_ tree: SourceFileSyntax, _ converter: SourceLocationConverter) -> [LexicalProblem] {
        guard tree.hasError else { return [] }
        let errors = ParseDiagnosticsGenerator.diagnostics(for: tree).filter {
            $0.diagMessage.severity == .error && $0.diagMessage.message != "editor placeholder in source file"
        }
        guard let first = errors.first else { return [] }
        let location = first.location(converter: converter)
        let more = errors.count > 1 ? " (and \(errors.count - 1) more syntax errors after it)" : ""
        return [
            LexicalProblem(
                location: SourceLocation(line: location.line, column: location.column),
                message: first.message + more)
        ]
    }
}

/// The parser's tokens as the rules' tokens: keywords read as names, an attribute or a `#` name as
/// one token, a regex literal as one token, string delimiters left out and adjacent text joined.
private struct TokenList {
    let converter: SourceLocationConverter
    var tokens: [SwiftToken] = []
    /// The UTF-8 offset each token starts at, ascending, to find a syntax node's tokens.
    var offsets: [Int] = []
    /// What the previous parser token was, for the tokens made of two.
    private var previous: TokenKind?
    /// The end of a regex literal already emitted whole.
    private var regexEnd = -1

    init(_ converter: SourceLocationConverter) { self.converter = converter }

    mutating func add(_ token: TokenSyntax) {
        let start = token.positionAfterSkippingLeadingTrivia
        let kind = token.tokenKind
        defer { previous = kind }
        if start.utf8Offset < regexEnd { return }
        let text = token.text
        switch kind {
        case .keyword, .identifier, .dollarIdentifier, .wildcard:
            let name = BlockReader.name(token)
            if previous == .atSign, let last = tokens.last, last.text == "@" {
                tokens[tokens.count - 1] = SwiftToken(kind: .attribute, text: "@" + name, location: last.location)
            } else if previous == .pound, let last = tokens.last, last.text == "#" {
                tokens[tokens.count - 1] = SwiftToken(kind: .poundKeyword, text: "#" + name, location: last.location)
            } else {
                emit(.identifier, name, at: start)
            }
        case .integerLiteral, .floatLiteral: emit(.number, text, at: start)
        case .stringSegment:
            if previous.map(Self.isStringText) == true, let last = tokens.last, last.kind == .string {
                tokens[tokens.count - 1].text += text
            } else {
                emit(.string, text, at: start)
            }
        case .stringQuote, .multilineStringQuote, .singleQuote:
            // An empty literal still has its text token, as `""` holds an empty string.
            if previous == kind, token.parent?.is(StringLiteralExprSyntax.self) == true { emit(.string, "", at: start) }
        case .rawStringPoundDelimiter, .shebang, .endOfFile, .unknown: break
        case .regexSlash, .regexPoundDelimiter, .regexLiteralPattern:
            guard let literal = token.parent?.as(RegexLiteralExprSyntax.self) else { return }
            emit(.regex, literal.trimmedDescription, at: literal.positionAfterSkippingLeadingTrivia)
            regexEnd = literal.endPositionBeforeTrailingTrivia.utf8Offset
        case .atSign: emit(.attribute, "@", at: start)
        case .pound: emit(.poundKeyword, "#", at: start)
        case .poundIf, .poundElse, .poundElseif, .poundEndif, .poundAvailable, .poundUnavailable,
            .poundSourceLocation:
            emit(.poundKeyword, text, at: start)
        case .leftParen, .rightParen, .leftSquare, .rightSquare, .leftBrace, .rightBrace, .comma, .semicolon, .colon,
            .colonColon, .period, .backslash, .postfixQuestionMark, .exclamationMark, .backtick:
            emit(.punctuation, text, at: start)
        case .equal, .arrow, .ellipsis, .prefixAmpersand, .infixQuestionMark, .leftAngle, .rightAngle,
            .binaryOperator, .prefixOperator, .postfixOperator:
            emit(.operator, text, at: start)
        @unknown default:
            emit(.operator, text, at: start)
        }
    }

    private static func isStringText(_ kind: TokenKind) -> Bool {
        if case .stringSegment = kind { return true }
        return false
    }

    private mutating func emit(_ kind: SwiftToken.Kind, _ text: String, at position: AbsolutePosition) {
        let location = converter.location(for: position)
        tokens.append(
            SwiftToken(kind: kind, text: text, location: SourceLocation(line: location.line, column: location.column)))
        offsets.append(position.utf8Offset)
    }

    /// The index of the first token at or after `offset`.
    func index(atOrAfter offset: Int) -> Int {
        var low = 0
        var high = offsets.count
        while low < high {
            let middle = (low + high) / 2
            if offsets[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The tokens of `node`, as a range of indices.
    func range(of node: some SyntaxProtocol) -> Range<Int> {
        index(
            atOrAfter: node.positionAfterSkippingLeadingTrivia.utf8Offset)..<index(
                atOrAfter: node.endPositionBeforeTrailingTrivia.utf8Offset)
    }
}

/// Reads what opened each `{`: a function or accessor, a type, a condition, an `else`, a loop, a
/// `catch`, a `guard`'s `else`, or a closure and the rest.
private struct BlockReader {
    let list: TokenList
    var blocks: [SourceBlock] = []
    var guards: [(condition: Range<Int>, scopeEnd: Int)] = []

    init(_ list: TokenList) { self.list = list }

    mutating func read(brace: TokenSyntax) {
        let open = list.index(atOrAfter: brace.positionAfterSkippingLeadingTrivia.utf8Offset)
        guard let parent = brace.parent else { return }
        var close = list.tokens.count
        if let last = parent.lastToken(viewMode: .sourceAccurate), last.tokenKind == .rightBrace,
            last.presence == .present
        {
            close = list.index(atOrAfter: last.positionAfterSkippingLeadingTrivia.utf8Offset)
        }
        var kind = SourceBlock.Kind.other
        var header = open..<open
        if let body = parent.as(CodeBlockSyntax.self) {
            (kind, header) = codeBlock(body, open: open)
        } else if let accessors = parent.as(AccessorBlockSyntax.self) {
            if let binding = accessors.parent?.as(PatternBindingSyntax.self),
                let name = binding.pattern.as(IdentifierPatternSyntax.self)
            {
                kind = .function(name: Self.name(name.identifier))
            } else if accessors.parent?.is(SubscriptDeclSyntax.self) == true {
                kind = .function(name: "subscript")
            }
        } else if let members = parent.as(MemberBlockSyntax.self), let owner = members.parent {
            if let name = Self.typeName(owner) { kind = .type(name: name) }
        }
        blocks.append(SourceBlock(open: open, close: close, kind: kind, header: header))
    }

    private mutating func codeBlock(_ body: CodeBlockSyntax, open: Int) -> (SourceBlock.Kind, Range<Int>) {
        guard let owner = body.parent else { return (.other, open..<open) }
        if let function = owner.as(FunctionDeclSyntax.self) {
            return (.function(name: Self.name(function.name)), open..<open)
        }
        if owner.is(InitializerDeclSyntax.self) { return (.function(name: "init"), open..<open) }
        if owner.is(DeinitializerDeclSyntax.self) { return (.function(name: "deinit"), open..<open) }
        if let accessor = owner.as(AccessorDeclSyntax.self) {
            return (.function(name: accessor.accessorSpecifier.text), open..<open)
        }
        if let branch = owner.as(IfExprSyntax.self) {
            let condition = list.range(of: branch.conditions)
            return (branch.body.id == body.id ? .conditional : .elseBranch, condition)
        }
        if let loop = owner.as(WhileStmtSyntax.self) { return (.conditional, list.range(of: loop.conditions)) }
        if let loop = owner.as(ForStmtSyntax.self) {
            return (.loop, (list.range(of: loop.forKeyword).upperBound)..<open)
        }
        if let check = owner.as(GuardStmtSyntax.self) {
            guards.append((list.range(of: check.conditions), scopeEnd(of: check)))
            return (.other, open..<open)
        }
        if let clause = owner.as(CatchClauseSyntax.self),
            let tried = clause.parent?.parent?.as(DoStmtSyntax.self)?.body
        {
            let inside = list.range(of: tried)
            return (
                .catchClause(tried: (inside.lowerBound + 1)..<max(inside.lowerBound + 1, inside.upperBound - 1)),
                open..<open
            )
        }
        return (.other, open..<open)
    }

    /// Where a `guard`'s condition stops holding: the end of the statements it stands among.
    private func scopeEnd(of check: GuardStmtSyntax) -> Int {
        guard let statements = check.parent?.parent?.as(CodeBlockItemListSyntax.self) else { return list.tokens.count }
        return list.range(of: statements).upperBound
    }

    /// `A` for `struct A`, `A.B` for `extension A.B` (generic arguments left out).
    private static func typeName(_ owner: Syntax) -> String? {
        if let declaration = owner.as(ClassDeclSyntax.self) { return name(declaration.name) }
        if let declaration = owner.as(StructDeclSyntax.self) { return name(declaration.name) }
        if let declaration = owner.as(EnumDeclSyntax.self) { return name(declaration.name) }
        if let declaration = owner.as(ActorDeclSyntax.self) { return name(declaration.name) }
        if let declaration = owner.as(ProtocolDeclSyntax.self) { return name(declaration.name) }
        if let declaration = owner.as(ExtensionDeclSyntax.self) { return typeName(declaration.extendedType) }
        return nil
    }

    static func typeName(_ type: TypeSyntax) -> String {
        if let simple = type.as(IdentifierTypeSyntax.self) { return name(simple.name) }
        if let member = type.as(MemberTypeSyntax.self) { return typeName(member.baseType) + "." + name(member.name) }
        return type.trimmedDescription
    }

    /// A name without its backticks.
    static func name(_ token: TokenSyntax) -> String {
        let text = token.text
        return text.count > 1 && text.hasPrefix("`") && text.hasSuffix("`") ? String(text.dropFirst().dropLast()) : text
    }
}
