import Glibc
import LintSyntax
import Synchronization

extension ProjectIndex {
    /// One file of the run: its text at once, its parse when first asked for. Telling whether the
    /// text contains a word is cheap, so questions about a name skip the files that never write it.
    final class Unit: Sendable {
        typealias Read = (structure: SourceStructure, problems: [LexicalProblem], lines: [Substring])

        let file: String
        let text: String
        private let read = Mutex<Read?>(nil)

        init(_ source: LintSource) {
            file = source.file
            text = source.text
        }

        /// The file's tokens and blocks, parsed on first use.
        var structure: SourceStructure { parse().structure }

        /// What the parser could not read cleanly.
        var problems: [LexicalProblem] { parse().problems }

        /// The file's lines, for the findings in it (split with the parse: a file no rule reads needs none).
        var lines: [Substring] { parse().lines }

        @discardableResult
        func parse() -> Read {
            read.withLock { cached in
                if let cached { return cached }
                let source = ParsedSource(parsing: text)
                let result = (
                    SourceStructure(source), source.problems,
                    text.split(separator: "\n", omittingEmptySubsequences: false)
                )
                cached = result
                return result
            }
        }

        /// Whether the text contains `word` anywhere (code, comments or strings alike): a file
        /// that does not can hold no token of that name.
        func mentions(_ word: String) -> Bool {
            var text = text
            var word = word
            return text.withUTF8 { haystack in
                word.withUTF8 { needle in Self.find(needle, in: haystack) }
            }
        }

        func mentions(any words: [String]) -> Bool { words.contains(where: mentions) }

        /// Whether the file is test code (in a `…Tests` folder, or importing XCTest or Testing);
        /// parsed only when its text names one of those modules.
        var isTestCode: Bool {
            LintedFile.isTestCode(file: file) { mentions(any: ["XCTest", "Testing"]) ? structure.tokens : [] }
        }

        /// Whether `needle` occurs in `haystack`: each occurrence of its first byte (memchr), then
        /// the rest compared (memcmp).
        private static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool
        {
            guard let first = needle.first, let start = haystack.baseAddress, let word = needle.baseAddress else {
                return needle.isEmpty
            }
            var offset = 0
            let last = haystack.count - needle.count
            while offset <= last {
                guard let found = memchr(start + offset, Int32(first), last - offset + 1) else { return false }
                let position = start.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if memcmp(start + position, word, needle.count) == 0 { return true }
                offset = position + 1
            }
            return false
        }
    }
}
