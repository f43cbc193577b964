/// Where a token starts: 1-based line, and 1-based column counted in UTF-8 bytes as swiftc does.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// One lexical token of Swift source. Comments produce no tokens; a string literal produces one
/// `.string` token per literal segment, and the code inside its interpolations is tokenized as code.
public struct SwiftToken: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Names and keywords alike (`let`, `for`, `Task`); backticks are removed.
        case identifier
        /// `#if`, `#available`, `#selector`…
        case poundKeyword
        /// `@MainActor`, `@Observable`…
        case attribute
        case number
        /// The text of a string literal segment, escapes left as written.
        case string
        /// `( ) [ ] { } , ; : .`, the key-path `\`, and `?` / `!` written directly after an operand.
        case punctuation
        /// Operators (`=`, `??`, `&&`, `...`, `->`).
        case `operator`
        /// Regular expression literals: `#/…/#`, and bare `/…/` where an expression starts.
        case regex
    }

    public var kind: Kind
    public var text: String
    public var location: SourceLocation

    public init(kind: Kind, text: String, location: SourceLocation) {
        self.kind = kind
        self.text = text
        self.location = location
    }

    /// True for an identifier or punctuation with exactly this text.
    @inlinable public func `is`(_ text: String) -> Bool {
        (kind == .identifier || kind == .punctuation || kind == .operator) && self.text == text
    }
}

/// A lexical problem: the tokens after it are still produced, but may be wrong.
public struct LexicalProblem: Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public var description: String { "\(location): \(message)" }
}

/// The tokens of one source file and the problems met while reading it.
public struct TokenizedSource: Sendable {
    public var tokens: [SwiftToken]
    public var problems: [LexicalProblem]
}

/// A Swift lexer that knows what a linter must not misread: line and nested block comments, string
/// literals (single-line, multi-line, raw with any number of `#`), interpolations (tokenized as
/// code, nesting strings of their own), backticked names and extended regex literals.
public struct SwiftTokenizer {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var tokens: [SwiftToken] = []
    private var problems: [LexicalProblem] = []

    public static func tokenize(_ source: String) -> TokenizedSource {
        var lexer = SwiftTokenizer(bytes: Array(source.utf8))
        lexer.lexCode(insideInterpolation: false)
        return TokenizedSource(tokens: lexer.tokens, problems: lexer.problems)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var location: SourceLocation { SourceLocation(line: line, column: index - lineStart + 1) }

    private func peek(_ offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    private mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func emit(_ kind: SwiftToken.Kind, from start: Int, at location: SourceLocation) {
        tokens.append(SwiftToken(kind: kind, text: text(start, index), location: location))
    }

    /// Lexes code until the end of input or, inside an interpolation, the `)` that closes it.
    private mutating func lexCode(insideInterpolation: Bool) {
        var parenDepth = 0
        while let byte = peek() {
            let start = index
            let here = location
            if byte == UInt8(ascii: "/"), let end = bareRegexEnd() {
                while index < end { advance() }
                emit(.regex, from: start, at: here)
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                advance()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                while let next = peek(), next != UInt8(ascii: "\n") { advance() }
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                skipBlockComment()
            case UInt8(ascii: "\""):
                lexString(hashes: 0)
            case UInt8(ascii: "#"):
                var hashes = 0
                while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
                if peek(hashes) == UInt8(ascii: "\"") {
                    for _ in 0..<hashes { advance() }
                    lexString(hashes: hashes)
                } else if peek(hashes) == UInt8(ascii: "/") {
                    lexRegex(hashes: hashes)
                } else {
                    advance()
                    while let next = peek(), Self.isIdentifierByte(next) { advance() }
                    emit(.poundKeyword, from: start, at: here)
                }
            case UInt8(ascii: "@"):
                advance()
                while let next = peek(), Self.isIdentifierByte(next) { advance() }
                emit(.attribute, from: start, at: here)
            case UInt8(ascii: "`"):
                advance()
                let nameStart = index
                while let next = peek(), next != UInt8(ascii: "`"), next != UInt8(ascii: "\n") { advance() }
                tokens.append(SwiftToken(kind: .identifier, text: text(nameStart, index), location: here))
                if peek() == UInt8(ascii: "`") {
                    advance()
                } else {
                    problems.append(LexicalProblem(location: here, message: "unterminated backticked name"))
                }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                advance()
                while let next = peek() {
                    if Self.isIdentifierByte(next) {
                        advance()
                        continue
                    }
                    if next == UInt8(ascii: "."), let after = peek(1),
                        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(after)
                    {
                        advance()
                        continue
                    }
                    break
                }
                emit(.number, from: start, at: here)
            case _ where Self.isIdentifierHead(byte):
                while let next = peek(), Self.isIdentifierByte(next) { advance() }
                emit(.identifier, from: start, at: here)
            case UInt8(ascii: "("):
                parenDepth += 1
                advance()
                emit(.punctuation, from: start, at: here)
            case UInt8(ascii: ")"):
                if insideInterpolation && parenDepth == 0 {
                    advance()
                    return
                }
                parenDepth -= 1
                advance()
                emit(.punctuation, from: start, at: here)
            case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ","),
                UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\\"):
                advance()
                emit(.punctuation, from: start, at: here)
            case UInt8(ascii: "."):
                if peek(1) == UInt8(ascii: ".") {
                    while peek() == UInt8(ascii: ".") { advance() }
                    if peek() == UInt8(ascii: "<") { advance() }
                    emit(.operator, from: start, at: here)
                } else {
                    advance()
                    emit(.punctuation, from: start, at: here)
                }
            case UInt8(ascii: "?") where followsOperand(start), UInt8(ascii: "!") where followsOperand(start):
                advance()
                emit(.punctuation, from: start, at: here)
            case _ where Self.isOperatorByte(byte):
                while let next = peek(), Self.isOperatorByte(next) {
                    // A comment starting right after an operator ends the operator.
                    if next == UInt8(ascii: "/"), let after = peek(1),
                        after == UInt8(ascii: "/") || after == UInt8(ascii: "*")
                    {
                        break
                    }
                    advance()
                }
                emit(.operator, from: start, at: here)
            default:
                advance()
                problems.append(LexicalProblem(location: here, message: "unexpected character"))
            }
        }
        if insideInterpolation {
            problems.append(LexicalProblem(location: location, message: "unterminated string interpolation"))
        }
    }

    /// True when the byte before `position` ends an operand (a postfix `?` or `!` follows directly).
    private func followsOperand(_ position: Int) -> Bool {
        guard position > 0 else { return false }
        let before = bytes[position - 1]
        return Self.isIdentifierByte(before) || before == UInt8(ascii: ")") || before == UInt8(ascii: "]")
            || before == UInt8(ascii: "}") || before == UInt8(ascii: "\"") || before == UInt8(ascii: "`")
            || before == UInt8(ascii: "?") || before == UInt8(ascii: "!") || before == UInt8(ascii: ">")
    }

    private mutating func skipBlockComment() {
        let here = location
        var depth = 0
        while let byte = peek() {
            if byte == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                depth += 1
                advance()
                advance()
            } else if byte == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                depth -= 1
                advance()
                advance()
                if depth == 0 { return }
            } else {
                advance()
            }
        }
        problems.append(LexicalProblem(location: here, message: "unterminated block comment"))
    }

    /// Lexes a string literal whose opening `#`s (if any) are consumed; `index` is at the first quote.
    private mutating func lexString(hashes: Int) {
        let here = SourceLocation(line: line, column: index - lineStart + 1 - hashes)
        let multiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
        let quotes = multiline ? 3 : 1
        for _ in 0..<quotes { advance() }
        var segmentStart = index
        var segmentLocation = here
        func closes(_ lexer: SwiftTokenizer) -> Bool {
            for offset in 0..<quotes where lexer.peek(offset) != UInt8(ascii: "\"") { return false }
            for offset in 0..<hashes where lexer.peek(quotes + offset) != UInt8(ascii: "#") { return false }
            return true
        }
        while let byte = peek() {
            if byte == UInt8(ascii: "\n") && !multiline { break }
            if byte == UInt8(ascii: "\"") && closes(self) {
                tokens.append(SwiftToken(kind: .string, text: text(segmentStart, index), location: segmentLocation))
                for _ in 0..<(quotes + hashes) { advance() }
                return
            }
            if byte == UInt8(ascii: "\\") {
                var escapeHashes = 0
                while escapeHashes < hashes && peek(1 + escapeHashes) == UInt8(ascii: "#") { escapeHashes += 1 }
                if escapeHashes == hashes {
                    let afterEscape = 1 + hashes
                    if peek(afterEscape) == UInt8(ascii: "(") {
                        tokens.append(
                            SwiftToken(kind: .string, text: text(segmentStart, index), location: segmentLocation))
                        for _ in 0...afterEscape { advance() }
                        lexCode(insideInterpolation: true)
                        segmentStart = index
                        segmentLocation = location
                        continue
                    }
                    // Any other escape: skip the backslash, its #s and the escaped character.
                    for _ in 0..<afterEscape { advance() }
                    if peek() != nil && peek() != UInt8(ascii: "\n") { advance() }
                    continue
                }
            }
            advance()
        }
        tokens.append(SwiftToken(kind: .string, text: text(segmentStart, index), location: segmentLocation))
        problems.append(LexicalProblem(location: here, message: "unterminated string literal"))
    }

    /// Where a bare regex literal starting at the `/` at `index` ends (just past its closing `/`),
    /// or nil when the `/` is an operator. As Swift reads them: only where an expression starts
    /// (not after an operand, so `a / b / c` stays division), not opening with a space, closing on
    /// the same line at a `/` outside a character class, and not closing after a space.
    private func bareRegexEnd() -> Int? {
        if let last = tokens.last {
            switch last.kind {
            case .identifier:
                let keywords: Set<String> = [
                    "return", "case", "in", "where", "if", "guard", "while", "throw", "try", "await", "else", "let",
                    "var", "repeat", "switch", "yield",
                ]
                if !keywords.contains(last.text) { return nil }
            case .number, .string, .regex: return nil
            case .punctuation where [")", "]", "}", "?", "!", "."].contains(last.text): return nil
            default: break
            }
        }
        guard let first = peek(1),
            ![
                UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "/"),
                UInt8(ascii: "*"),
            ].contains(first)
        else { return nil }
        var offset = 1
        var classDepth = 0
        while let byte = peek(offset), byte != UInt8(ascii: "\n") {
            switch byte {
            case UInt8(ascii: "\\"): offset += 1
            case UInt8(ascii: "["): classDepth += 1
            case UInt8(ascii: "]"): classDepth = max(0, classDepth - 1)
            case UInt8(ascii: "/") where classDepth == 0:
                let before = peek(offset - 1)
                return before == UInt8(ascii: " ") || before == UInt8(ascii: "\t") ? nil : index + offset + 1
            default: break
            }
            offset += 1
        }
        return nil
    }

    /// Lexes `#/…/#` (any number of `#`s); `index` is at the first `#`.
    private mutating func lexRegex(hashes: Int) {
        let start = index
        let here = location
        for _ in 0...hashes { advance() }
        while let byte = peek() {
            if byte == UInt8(ascii: "\\") {
                advance()
                if peek() != nil { advance() }
                continue
            }
            if byte == UInt8(ascii: "/") {
                var closing = 0
                while closing < hashes && peek(1 + closing) == UInt8(ascii: "#") { closing += 1 }
                if closing == hashes {
                    for _ in 0...hashes { advance() }
                    emit(.regex, from: start, at: here)
                    return
                }
            }
            if byte == UInt8(ascii: "\n") && hashes == 0 { break }
            advance()
        }
        emit(.regex, from: start, at: here)
        problems.append(LexicalProblem(location: here, message: "unterminated regex literal"))
    }

    private static func isIdentifierHead(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierHead(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isOperatorByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "!"),
            UInt8(ascii: "*"),
            UInt8(ascii: "%"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "|"),
            UInt8(ascii: "^"),
            UInt8(ascii: "~"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }
}
