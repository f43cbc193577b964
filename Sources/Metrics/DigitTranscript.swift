/// Digit strings as the digits said, one word per digit, however they were written: "537",
/// "5-3-7", "five three seven" and "five hundred thirty seven" are all `five three seven`; "oh" is
/// zero, "double five" is `five five`, and "0016-7888" keeps its zeros. Words that are not
/// digits are left out on both sides, so a digit error rate counts digits only: a recogniser that
/// writes "So 5, 5, 5." for "five five five" makes no error.
///
/// Numerals are read digit by digit; runs of English number words are read as Whisper's number
/// normaliser reads them; the digit words of the corpus's other languages (Spanish, French,
/// Italian, Russian) count as their digits.
public enum DigitTranscript {
    static let englishDigits = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

    /// Other languages' digit words, as Whisper's basic normaliser leaves them, to English ones.
    static let otherLanguages: [String: String] = {
        var table: [String: String] = [:]
        for (language, words) in SpokenForm.digitWords where language != "en" {
            for (digit, word) in words.enumerated() {
                table[WhisperTextNormalizer.basic(word).trimmingCharacters(in: .whitespaces)] = englishDigits[digit]
            }
        }
        return table
    }()

    /// The digits of `text`, as English digit words.
    public static func words(_ text: String) -> [String] {
        var tokens: [String] = []
        for token in PythonText.split(CodePoints(scalars: WhisperTextNormalizer.basic(text))) {
            if token.contains(where: PythonText.isDecimal) {
                // Numerals digit by digit, as words, so that the number reader keeps every zero.
                tokens += token.compactMap { $0.properties.numericType == .decimal ? $0.properties.numericValue : nil }
                    .map { englishDigits[Int($0)] }
            } else {
                let word = token.string
                tokens.append(otherLanguages[word] ?? word)
            }
        }
        var reader = NumberState()
        return reader.process(tokens).flatMap { number in
            number.unicodeScalars.filter(PythonText.isASCIIDigit).map { englishDigits[Int($0.value - 48)] }
        }
    }
}
