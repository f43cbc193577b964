import LintSyntax
import Testing

/// Swift's parser, read as the rules' tokens: comments and string text out of the code, code
/// inside interpolations in it, and parse errors reported once per file.
@Suite("Parsed source")
struct ParsedSourceTests {
    static func tokens(_ source: String) -> [SwiftToken] { ParsedSource(parsing: source).tokens }

    static func names(_ source: String) -> [String] {
        tokens(source).filter { $0.kind == .identifier }.map(\.text)
    }

    @Test func commentsProduceNoTokens() {
        let source = """
            let a = 1 // allocate(locale:) here is prose
            /* outer /* nested allocate */ still comment */ let b = 2
            /// doc: SFSpeechRecognizer
            """
        #expect(Self.names(source) == ["let", "a", "let", "b"])
        #expect(ParsedSource(parsing: source).problems.isEmpty)
    }

    @Test func stringsAreTextAndInterpolationsAreCode() {
        let tokens = Self.tokens(#"print("x: \(result.transcription) and \("inner \(deep)") done", "")"#)
        #expect(tokens.filter { $0.kind == .identifier }.map(\.text) == ["print", "result", "transcription", "deep"])
        #expect(tokens.filter { $0.kind == .string }.map(\.text) == ["x: ", " and ", "inner ", "", " done", ""])
    }

    @Test func rawAndMultilineStrings() {
        let source = ##"""
            let raw = #"a "quoted" \(notCode) \#(code) "#
            let twice = ##"ends with "# still inside"##
            let block = """
                SFSpeechRecognizer "quoted" \(interpolated)
                second line
                """
            let after = 1
            """##
        let parsed = ParsedSource(parsing: source)
        #expect(parsed.problems.isEmpty)
        #expect(
            parsed.tokens.filter { $0.kind == .identifier }.map(\.text) == [
                "let", "raw", "code", "let", "twice", "let", "block", "interpolated", "let", "after",
            ])
        // The lines of a multi-line literal before an interpolation are one text token.
        #expect(parsed.tokens.contains { $0.kind == .string && $0.text.hasPrefix("SFSpeechRecognizer \"quoted\" ") })
    }

    @Test func locationsAreLineAndUTF8Column() {
        let tokens = Self.tokens("let é = 1\n  foo.bar")
        #expect(tokens.first { $0.text == "=" }?.location == SourceLocation(line: 1, column: 8))
        #expect(tokens.first { $0.text == "bar" }?.location == SourceLocation(line: 2, column: 7))
    }

    @Test func postfixOptionalChainingIsPunctuation() {
        let tokens = Self.tokens("input?.finish(); a ?? b; c! .x; d != e")
        #expect(
            tokens.map(\.text) == [
                "input", "?", ".", "finish", "(", ")", ";", "a", "??", "b", ";", "c", "!", ".", "x", ";", "d", "!=",
                "e",
            ])
        #expect(tokens[1].kind == .punctuation && tokens[8].kind == .operator)
    }

    @Test func backticksPoundsAttributesAndRegex() {
        let tokens = Self.tokens(
            ##"@MainActor func `default`() { if #available(iOS 26, *) { _ = #/a"b/# }; _ = #selector(go) }"##)
        #expect(tokens.first?.kind == .attribute && tokens.first?.text == "@MainActor")
        #expect(tokens.contains { $0.kind == .identifier && $0.text == "default" })
        #expect(tokens.contains { $0.kind == .poundKeyword && $0.text == "#available" })
        #expect(tokens.contains { $0.kind == .poundKeyword && $0.text == "#selector" })
        #expect(tokens.contains { $0.kind == .regex && $0.text == ##"#/a"b/#"## })
    }

    /// A bare `/…/` is a regex literal where the parser reads one, and division elsewhere.
    @Test func bareRegexLiteralsWhereAnExpressionStarts() {
        let regex = { (source: String) in Self.tokens(source).filter { $0.kind == .regex }.map(\.text) }
        #expect(regex("let p = /^[A-Z][a-z'-]+$/") == ["/^[A-Z][a-z'-]+$/"])
        #expect(ParsedSource(parsing: "let p = /^[A-Z][a-z'-]+$/").problems.isEmpty)
        #expect(regex(#"f(/a\/b/, x)"#) == [#"/a\/b/"#])
        #expect(regex("return /\\d+/") == ["/\\d+/"])
        #expect(regex("let half = total / parts / scale").isEmpty)
        #expect(regex("let r = a[0] / 2 / b").isEmpty)
    }

    /// One problem a file: the parser's first error, with how many followed it.
    @Test func syntaxErrorsAreReportedOnce() {
        let string = ParsedSource(parsing: "let s = \"open\nlet t = 1").problems
        #expect(string.count == 1)
        #expect(string.first?.location.line == 1)
        #expect(string.first?.message.contains("to end string literal") == true)
        let comment = ParsedSource(parsing: "let a = 1\n/* never closed").problems
        #expect(comment.map(\.location.line) == [2])
        #expect(comment.first?.message.contains("unterminated") == true)
        let braces = ParsedSource(parsing: "func f() {\n  let x = 1\n").problems
        #expect(braces.map(\.message) == ["expected '}' to end function"])
        let interpolation = ParsedSource(parsing: "let s = \"\\(open").problems
        #expect(interpolation.map(\.message) == ["expected ')' in string literal (and 1 more syntax errors after it)"])
    }

    /// Blocks say what opened them, with the condition of an `if`, `while` or `guard`.
    @Test func blocksKnowWhatOpenedThem() {
        let parsed = ParsedSource(
            parsing: """
                struct S {
                    var body: some View { if #available(iOS 26, *), ok { a() } else { b() } }
                    func f() { guard let x else { return }; for i in xs { c(i) } }
                }
                """)
        let kinds = parsed.blocks.map(\.kind)
        #expect(
            kinds == [
                .type(name: "S"), .function(name: "body"), .conditional, .elseBranch, .function(name: "f"), .other,
                .loop,
            ])
        let condition = parsed.blocks[2].header.map { parsed.tokens[$0].text }
        #expect(condition == ["#available", "(", "iOS", "26", ",", "*", ")", ",", "ok"])
        #expect(parsed.blocks[3].header == parsed.blocks[2].header)
        #expect(parsed.guards.count == 1)
        #expect(parsed.guards.first.map { parsed.tokens[$0.condition].map(\.text) } == ["let", "x"])
        // The guard holds to the end of f's statements, before its closing brace.
        #expect(parsed.guards.first.map { parsed.tokens[$0.scopeEnd].text } == "}")
    }
}
