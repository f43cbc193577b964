import Testing

@testable import StreamingPolicies

/// LocalAgreement as whisper_streaming defines it, on decoder outputs written out with their times;
/// each expected commit sequence is worked out from the rules in the comments.
@Suite("LocalAgreement-2")
struct LocalAgreementTests {
    typealias W = LocalAgreement.Word

    /// Words 0.5 s apart, each 0.4 s long, from `start`.
    static func words(_ text: String, from start: Double = 0, step: Double = 0.5) -> [W] {
        text.split(separator: " ").enumerated().map {
            W(String($1), start: start + Double($0) * step, end: start + Double($0) * step + 0.4)
        }
    }

    static func w(_ text: String, _ start: Double, _ end: Double) -> W { W(text, start: start, end: end) }

    @Test func commitsThePrefixTwoConsecutiveDecodesAgreeOn() {
        var policy = LocalAgreement()
        #expect(policy.ingest(Self.words("the cat")).isEmpty)  // one decode: nothing agreed
        #expect(policy.ingest(Self.words("the cat sat")).map(\.text) == ["the", "cat"])
        #expect(policy.lastCommittedTime == 0.9)
        #expect(policy.unconfirmed.map(\.text) == ["sat"])
        // Only words starting after 0.9 − 0.1 are new: "sad on"; "sad" ≠ "sat", nothing commits.
        #expect(policy.ingest(Self.words("the cat sad on")).isEmpty)
        #expect(policy.ingest(Self.words("the cat sad on the mat")).map(\.text) == ["sad", "on"])
        #expect(policy.committed.map(\.text) == ["the", "cat", "sad", "on"])
        #expect(policy.flush().map(\.text) == ["the", "mat"])
        #expect(policy.committed.map(\.text) == ["the", "cat", "sad", "on", "the", "mat"])
    }

    /// Rows: the committed words, the next two decodes, what they commit (and what stays open).
    @Test(arguments: [
        // A word said again 1.1 s after the last commit is a new word, not a re-decode: kept.
        (
            "repeat a second later", [w("eight", 0, 0.4)],
            [w("eight", 0, 0.4), w("eight", 1.5, 1.9), w("nine", 2.0, 2.4)], ["eight", "nine"]
        ),
        // Starting 0.5 s after the commit, the same word is taken for the committed one heard
        // again and dropped: whisper_streaming loses such a quick repeat too.
        (
            "repeat within a second", [w("eight", 0, 0.4)],
            [w("eight", 0, 0.4), w("eight", 0.9, 1.3), w("nine", 1.4, 1.8)], ["nine"]
        ),
        // Jitter: "two" now starts at 0.85 (after 0.9 − 0.1), but repeats the committed tail.
        (
            "timestamp jitter", [w("one", 0, 0.4), w("two", 0.5, 0.9)],
            [w("one", 0, 0.45), w("two", 0.85, 1.2), w("three", 1.3, 1.7)], ["three"]
        ),
        // Every time 1 s late: "seven nine" survive the time filter, and the two-word repeat goes.
        (
            "times shifted by a second", [w("eight", 0, 0.3), w("seven", 0.4, 0.7), w("nine", 0.8, 1.1)],
            [w("eight", 1.0, 1.3), w("seven", 1.4, 1.7), w("nine", 1.8, 2.1), w("five", 2.2, 2.5)], ["five"]
        ),
    ])
    func newWordsAfterCommittedOnes(name: String, committed: [W], decode: [W], expected: [String]) {
        var policy = LocalAgreement()
        _ = policy.ingest(committed)
        #expect(policy.ingest(committed).map(\.text) == committed.map(\.text), "\(name): setting up")
        #expect(policy.ingest(decode).isEmpty, "\(name): one decode commits nothing")
        #expect(policy.ingest(decode).map(\.text) == expected, "\(name)")
    }

    /// The harness's repair: the same rows and more, with a decode that starts with the committed
    /// words continuing after them, and whisper_streaming's time rules only when it does not.
    @Test(arguments: [
        (
            "repeat within a second", [w("eight", 0, 0.4)],
            [w("eight", 0, 0.4), w("eight", 0.9, 1.3), w("nine", 1.4, 1.8)], ["eight", "nine"]
        ),  // kept: the decode heard one "eight" again, so the second is new
        (
            "repeat whose time overlaps the commit", [w("three", 0, 0.4)],
            [w("three", 0, 0.3), w("three", 0.35, 0.7), w("four", 0.8, 1.2)], ["three", "four"]
        ),  // counted, not timed: kept
        (
            "timestamp jitter", [w("one", 0, 0.4), w("two", 0.5, 0.9)],
            [w("one", 0, 0.45), w("two", 0.85, 1.2), w("three", 1.3, 1.7)], ["three"]
        ),  // "one two" heard again
        (
            "times shifted by a second", [w("eight", 0, 0.3), w("seven", 0.4, 0.7), w("nine", 0.8, 1.1)],
            [w("eight", 1.0, 1.3), w("seven", 1.4, 1.7), w("nine", 1.8, 2.1), w("five", 2.2, 2.5)], ["five"]
        ),  // caught whatever the times
        (
            "case and punctuation set aside", [w("Eight,", 0, 0.4)],
            [w("eight", 0, 0.4), w("eight.", 0.9, 1.3)], ["eight."]
        ),
        (
            "a digit written as a word, then as a numeral", [w("Zero.", 0, 0.4), w("1", 0.5, 0.8), w("9", 0.9, 1.2)],
            [w("0", 0, 0.4), w("1", 0.5, 0.8), w("9", 0.9, 1.2), w("9", 1.3, 1.6), w("6", 1.7, 2.0)], ["9", "6"]
        ),  // real-digits-en-014: "nine nine" lost without the spelling

        (
            "decode rewrote a committed word: whisper_streaming's rules", [w("one", 0, 0.4), w("two", 0.5, 0.9)],
            [w("won", 0, 0.45), w("two", 0.95, 1.2), w("three", 1.3, 1.7)], ["three"]
        ),  // "won" ≠ "one": "two" passes the time filter, starts within 1 s and repeats the tail
        (
            "decode shorter than the committed words", [w("one", 0, 0.4), w("two", 0.5, 0.9)],
            [w("one", 0, 0.45)], []
        ),  // nothing after 0.8: nothing new
    ])
    func alignedDecodesContinueAfterTheCommittedWords(
        name: String, committed: [W], decode: [W], expected: [String]
    ) {
        var policy = LocalAgreement(repeatRule: .aligned)
        _ = policy.ingest(committed)
        _ = policy.ingest(committed)
        _ = policy.ingest(decode)
        #expect(policy.ingest(decode).map(\.text) == expected, "\(name)")
    }

    @Test func alignedDecodesAfterATrimLineUpWithWhatIsLeftInTheBuffer() {
        var policy = LocalAgreement(repeatRule: .aligned)
        let first = [Self.w("one", 0, 0.4), Self.w("two", 0.5, 0.9), Self.w("two", 1.0, 1.4)]
        _ = policy.ingest(first)
        _ = policy.ingest(first)
        policy.trimmed(through: 0.95)  // "one two" left the buffer; the second "two" is in it
        let later = [Self.w("two", 1.0, 1.4), Self.w("two", 1.5, 1.9), Self.w("five", 2.0, 2.4)]
        #expect(policy.ingest(later).isEmpty)
        #expect(policy.ingest(later).map(\.text) == ["two", "five"])
        #expect(policy.committed.map(\.text) == ["one", "two", "two", "two", "five"])
    }

    @Test func aDecodeThatStartsBeforeTheTrimPoint() {
        var policy = LocalAgreement()
        let first = [Self.w("one", 0, 0.4), Self.w("two", 0.5, 0.9), Self.w("three", 1.0, 1.4)]
        _ = policy.ingest(first)
        _ = policy.ingest(first)
        // The buffer is cut at 0.95: "one" and "two" leave it, "three" is still in it.
        policy.trimmed(through: 0.95)
        #expect(policy.committedInBuffer.map(\.text) == ["three"])
        // The next decode starts at the cut and hears "three" again, a little late (1.35 > 1.3):
        // the time filter keeps it, the one-word repeat removes it.
        let later = [Self.w("three", 1.35, 1.45), Self.w("four", 1.5, 1.9)]
        #expect(policy.ingest(later).isEmpty)
        #expect(policy.ingest(later).map(\.text) == ["four"])
        #expect(policy.committed.map(\.text) == ["one", "two", "three", "four"])
    }

    @Test func anEmptyDecodeBreaksTheAgreement() {
        var policy = LocalAgreement()
        _ = policy.ingest(Self.words("a b"))
        #expect(policy.ingest([]).isEmpty)  // "a b" against nothing
        #expect(policy.ingest(Self.words("a b")).isEmpty)  // nothing against "a b"
        #expect(policy.ingest(Self.words("a b c")).map(\.text) == ["a", "b"])
    }

    @Test func committedWordsNeverChangeWhenLaterDecodesRevise() {
        var policy = LocalAgreement()
        _ = policy.ingest(Self.words("call home now"))
        _ = policy.ingest(Self.words("call home now"))
        #expect(policy.committed.map(\.text) == ["call", "home", "now"])
        // A later decode rewrites the same audio: its words start before the commit, nothing changes.
        #expect(policy.ingest(Self.words("fall home now please")).isEmpty)
        #expect(policy.ingest(Self.words("fall home now please")).map(\.text) == ["please"])
        #expect(policy.committed.map(\.text) == ["call", "home", "now", "please"])
    }

    @Test func wordsAgreeOnlyAsWritten() {
        var policy = LocalAgreement()
        _ = policy.ingest([Self.w("Nine,", 0, 0.3), Self.w("eight", 0.4, 0.7)])
        #expect(policy.ingest([Self.w("nine", 0, 0.3), Self.w("eight", 0.4, 0.7), Self.w("seven", 0.8, 1)]).isEmpty)
    }

    @Test func agreementOfThreeNeedsThreeDecodes() {
        var policy = LocalAgreement(agreement: 3)
        #expect(policy.ingest(Self.words("a b")).isEmpty)
        #expect(policy.ingest(Self.words("a b c")).isEmpty)
        #expect(policy.ingest(Self.words("a x c")).map(\.text) == ["a"])
    }

    @Test func thePromptIsCommittedTextThatLeftTheBuffer() {
        var policy = LocalAgreement()
        let spoken = Self.words("alpha bravo charlie delta")  // ends 0.4, 0.9, 1.4, 1.9
        _ = policy.ingest(spoken)
        _ = policy.ingest(spoken + Self.words("echo", from: 2.0))
        #expect(policy.prompt(bufferStart: 1.0) == "alpha bravo")  // charlie ends after 1.0
        #expect(policy.prompt(bufferStart: 5.0) == "alpha bravo charlie")  // the last commit never
        #expect(policy.prompt(bufferStart: 5.0, characters: 8) == "charlie")  // 8 characters with its space
        #expect(policy.prompt(bufferStart: 5.0, characters: 9) == "bravo charlie")
        #expect(policy.prompt(bufferStart: 0) == "")
    }

    @Test(
        arguments: [
            ([2.0, 4.0, 6.0], 5.0, 4.0),  // the last segment but one ends within the commits
            ([2.0, 4.0, 6.0], 3.0, 2.0),  // it does not: one segment further back
            ([2.0, 4.0, 6.0], 1.0, nil),  // not even the first: no cut
            ([6.0], 7.0, nil),  // one segment: nothing to cut at
        ] as [([Double], Double, Double?)])
    func bufferTrimsAtACompletedSegment(ends: [Double], lastCommitted: Double, cut: Double?) {
        #expect(WhisperStyleSession.trimPoint(segmentEnds: ends, lastCommitted: lastCommitted) == cut)
        #expect(WhisperStyleSession.trimPoint(segmentEnds: ends, lastCommitted: nil) == nil)
    }
}
