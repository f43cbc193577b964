/// The tokens of one source file and the problems met while reading it, as the hand-written
/// tokenizer gave them.
@available(*, deprecated, message: "use ParsedSource(parsing:), which Swift's own parser reads")
public struct TokenizedSource: Sendable {
    public var tokens: [SwiftToken]
    public var problems: [LexicalProblem]
}

/// The hand-written tokenizer the lint had before it read files with Swift's own parser; its one
/// entry point now answers from the parser.
@available(*, deprecated, message: "use ParsedSource(parsing:), which Swift's own parser reads")
public enum SwiftTokenizer {
    @available(*, deprecated, message: "use ParsedSource(parsing:)")
    public static func tokenize(_ source: String) -> TokenizedSource {
        let parsed = ParsedSource(parsing: source)
        return TokenizedSource(tokens: parsed.tokens, problems: parsed.problems)
    }
}
