/// Where a token starts: 1-based line, and 1-based column counted in UTF-8 bytes as swiftc does.
@frozen public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
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

/// One token of Swift source as the rules read it, made from a token of Swift's own parser.
/// Comments produce no tokens; a string literal produces one `.string` token per run of literal
/// text, and the code inside its interpolations comes through as code.
@frozen public struct SwiftToken: Hashable, Sendable {
    @frozen public enum Kind: Hashable, Sendable {
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

/// A place the parser could not read cleanly: what follows is still read, but may be misread.
@frozen public struct LexicalProblem: Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public var description: String { "\(location): \(message)" }
}

/// A `{ … }` block and the statement that opened it.
@frozen public struct SourceBlock: Sendable {
    @frozen public enum Kind: Sendable, Equatable {
        /// The body of `func`, `init`, `deinit`, an accessor or a subscript.
        case function(name: String)
        /// The body of `if`/`while`; `header` spans the condition tokens. (A `guard`'s `else` is `other`.)
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

    public init(open: Int, close: Int, kind: Kind, header: Range<Int>) {
        self.open = open
        self.close = close
        self.kind = kind
        self.header = header
    }
}
