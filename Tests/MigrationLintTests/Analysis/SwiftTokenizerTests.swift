import MigrationLint
import Testing

/// The lexer keeps comments and string text out of the token stream and code inside
/// interpolations in it.
@Suite("Swift tokenizer")
struct SwiftTokenizerTests {
    static func names(_ source: String) -> [String] {
        SwiftTokenizer.tokenize(source).tokens.filter { $0.kind == .identifier }.map(\.text)
    }

    @Test func commentsProduceNoTokens() {
        let source = """
            let a = 1 // allocate(locale:) here is prose
            /* outer /* nested allocate */ still comment */ let b = 2
            /// doc: SFSpeechRecognizer
            """
        #expect(Self.names(source) == ["let", "a", "let", "b"])
        #expect(SwiftTokenizer.tokenize(source).problems.isEmpty)
    }

    @Test func stringsAreOneTokenAndInterpolationsAreCode() {
        let tokens = SwiftTokenizer.tokenize(#"print("x: \(result.transcription) and \("inner \(deep)") done")"#).tokens
        #expect(tokens.filter { $0.kind == .identifier }.map(\.text) == ["print", "result", "transcription", "deep"])
        #expect(tokens.filter { $0.kind == .string }.map(\.text) == ["x: ", " and ", "inner ", "", " done"])
    }

    @Test func rawAndMultilineStrings() {
        let source = ##"""
            let raw = #"a "quoted" \(notCode) \#(code) "#
            let twice = ##"ends with "# still inside"##
            let block = """
                SFSpeechRecognizer "quoted" \(interpolated)
                """
            let after = 1
            """##
        let result = SwiftTokenizer.tokenize(source)
        #expect(result.problems.isEmpty)
        #expect(
            result.tokens.filter { $0.kind == .identifier }.map(\.text) == [
                "let", "raw", "code", "let", "twice", "let", "block", "interpolated", "let", "after",
            ])
    }

    @Test func locationsAreLineAndUTF8Column() {
        let tokens = SwiftTokenizer.tokenize("let é = 1\n  foo.bar").tokens
        #expect(tokens.first { $0.text == "=" }?.location == SourceLocation(line: 1, column: 8))
        #expect(tokens.first { $0.text == "bar" }?.location == SourceLocation(line: 2, column: 7))
    }

    @Test func postfixOptionalChainingIsPunctuation() {
        let tokens = SwiftTokenizer.tokenize("input?.finish(); a ?? b; c! .x; d != e").tokens
        #expect(
            tokens.map(\.text) == [
                "input", "?", ".", "finish", "(", ")", ";", "a", "??", "b", ";", "c", "!", ".", "x", ";", "d", "!=",
                "e",
            ])
        #expect(tokens[1].kind == .punctuation && tokens[8].kind == .operator)
    }

    @Test func backticksPoundsAttributesAndRegex() {
        let tokens = SwiftTokenizer.tokenize(
            ##"@MainActor func `default`() { if #available(iOS 26, *) { _ = #/a"b/# } }"##
        ).tokens
        #expect(tokens.first?.kind == .attribute)
        #expect(tokens.contains { $0.kind == .identifier && $0.text == "default" })
        #expect(tokens.contains { $0.kind == .poundKeyword && $0.text == "#available" })
        #expect(tokens.contains { $0.kind == .regex && $0.text == ##"#/a"b/#"## })
    }

    /// A bare `/…/` is a regex literal where an expression starts, and division after an operand;
    /// one opening with a space, or not closed on its line, is an operator.
    @Test func bareRegexLiteralsWhereAnExpressionStarts() {
        let regex = { (source: String) in
            SwiftTokenizer.tokenize(source).tokens.filter { $0.kind == .regex }.map(\.text)
        }
        #expect(regex("let p = /^[A-Z][a-z'-]+$/") == ["/^[A-Z][a-z'-]+$/"])
        #expect(SwiftTokenizer.tokenize("let p = /^[A-Z][a-z'-]+$/").problems.isEmpty)
        #expect(regex("f(/a[/]b/, x)") == ["/a[/]b/"])
        #expect(regex("return /\\d+/") == ["/\\d+/"])
        #expect(regex("let half = total / parts / scale").isEmpty)
        #expect(regex("let r = a[0] / 2 / b").isEmpty)
        #expect(regex("x = y ?? / a /").isEmpty)
        #expect(regex("let q = /unclosed").isEmpty)
    }

    @Test func unterminatedConstructsAreReported() {
        #expect(
            SwiftTokenizer.tokenize("let s = \"open\nlet t = 1").problems.map(\.message) == [
                "unterminated string literal"
            ])
        #expect(SwiftTokenizer.tokenize("/* never closed").problems.map(\.message) == ["unterminated block comment"])
        let problems = SwiftTokenizer.tokenize("let s = \"\\(open").problems.map(\.message)
        #expect(problems.contains("unterminated string interpolation"))
    }
}
