import Foundation

/// How the re-decoding policies tell words heard again from new ones: a decode of audio that starts
/// where an earlier decode's did should start with the same words, so the words after them are new
/// whatever their times (re-decoded word times move, and a digit may be said twice in a second).
enum HeardAgain {
    /// The same word heard twice: equal once case and punctuation are set aside and digits are
    /// spelled out ("Eight," and "eight", "Zero." and "0"; Whisper writes a digit either way from
    /// one decode to the next).
    static func sameWord(_ a: String, _ b: String) -> Bool { key(a) == key(b) }

    /// How many words of `decode` are `earlier` heard again, or nil when `decode` does not start
    /// with all of them. Word boundaries do not count, since one decode may write as one token what
    /// another writes as several ("4739" or "4-7-3-9" against "four seven three nine").
    static func prefix(_ earlier: [String], of decode: [String]) -> Int? {
        let wanted = earlier.map(key).joined()
        guard !wanted.isEmpty else { return 0 }
        var heard = ""
        for (index, word) in decode.enumerated() {
            heard += key(word)
            if heard == wanted { return index + 1 }
            guard wanted.hasPrefix(heard) else { return nil }
        }
        return nil
    }

    /// Like ``prefix(_:of:)``, but the earlier words may end inside a token of `decode`: when one
    /// decode writes "8, 6, 6" and the next "866-6-0-1", the first 0 tokens are heard again whole
    /// and the token's rest, "6-0-1", is new. Nil when `decode` does not start with the earlier
    /// words, or they end inside a spelled-out word.
    static func split(_ earlier: [String], of decode: [String]) -> (whole: Int, rest: String?)? {
        let wanted = earlier.map(key).joined()
        guard !wanted.isEmpty else { return (0, nil) }
        var heard = ""
        for (index, word) in decode.enumerated() {
            let before = heard
            heard += key(word)
            if heard == wanted { return (index + 1, nil) }
            if wanted.hasPrefix(heard) { continue }
            guard heard.hasPrefix(wanted) else { return nil }
            // The earlier words end inside this token: find where, character by character.
            var partial = before
            let characters = Array(word)
            for (offset, character) in characters.enumerated() {
                partial += key(String(character))
                guard partial.count <= wanted.count else { return nil }
                guard partial == wanted else { continue }
                // Between two letters is inside a word, not between two of them.
                if character.isLetter, offset + 1 < characters.count, characters[offset + 1].isLetter { return nil }
                let rest = characters[(offset + 1)...].drop { !$0.isLetter && !$0.isNumber }
                return rest.isEmpty ? (index + 1, nil) : (index, String(rest))
            }
            return nil
        }
        return nil
    }

    private static let digitNames = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

    private static func key(_ word: String) -> String {
        word.lowercased().unicodeScalars.filter(CharacterSet.alphanumerics.contains).map { scalar in
            scalar.properties.numericType == .decimal
                ? scalar.properties.numericValue.map { digitNames[Int($0)] } ?? String(scalar) : String(scalar)
        }.joined()
    }
}
