import Testing

@testable import Metrics

@Suite("Digit scoring")
struct DigitTranscriptTests {
    @Test(arguments: [
        ("537", "five three seven"),
        ("5-3-7", "five three seven"),
        ("five three seven", "five three seven"),
        ("five hundred thirty seven", "five three seven"),
        ("Five, three. Seven!", "five three seven"),
        ("oh one", "zero one"),
        ("double five triple oh", "five five zero zero zero"),
        ("0016-7888", "zero zero one six seven eight eight eight"),
        ("So 5, 5, 5.", "five five five"),
        ("one", "one"),
        ("ten", "one zero"),
        ("cinco dos", "five two"),
        ("zéro un", "zero one"),
        ("ноль один", "zero one"),
        ("uno due tre", "one two three"),
        ("no digits here", ""),
        ("", ""),
    ])
    func everyDigitCountsOnceHoweverWritten(text: String, digits: String) {
        #expect(DigitTranscript.words(text).joined(separator: " ") == digits)
    }

    @Test func whispersWaysOfWritingADigitStringScoreAsDigits() {
        // Whisper's "537 -796." against the spoken "five three seven seven nine six": four errors
        // under the english normaliser, none under digits.
        let reference = "five three seven seven nine six", hypothesis = "537 -796."
        let english = ScoringPolicy(normalizer: .english, equivalences: .ohIsZero)
        #expect(
            WordAligner.alignWords(reference: english.prepare(reference), hypothesis: english.prepare(hypothesis))
                .counts.errors > 0)
        let digits = ScoringPolicy.digits
        #expect(
            WordAligner.alignWords(reference: digits.prepare(reference), hypothesis: digits.prepare(hypothesis)).counts
                .errors == 0)
        #expect(digits.name == "digits")
    }

    @Test func policiesAreNamedWithTheReferenceVersion() {
        #expect(
            ScoringPolicy(normalizer: .whisperEnglish).name == "whisper-en@\(WhisperTextNormalizer.referenceVersion)")
        #expect(TextNormalizer(name: "whisper-en@0.1.15") == .whisperEnglish)
        #expect(TextNormalizer(name: "whisper-basic") == .whisperBasic)
        #expect(TextNormalizer(name: "klingon") == nil)
    }
}
