import Adapters
import Testing

@Suite("LocalAgreement-2")
struct LocalAgreementTests {
    typealias W = LocalAgreement.Word

    static func words(_ text: String, from start: Double = 0, step: Double = 0.5) -> [W] {
        text.split(separator: " ").enumerated().map { W(String($1), start: start + Double($0) * step, end: start + Double($0) * step + 0.4) }
    }

    @Test func commitsThePrefixTwoConsecutiveDecodesAgreeOn() {
        var policy = LocalAgreement()
        #expect(policy.ingest(Self.words("the cat")).isEmpty)                       // one decode: nothing agreed
        #expect(policy.ingest(Self.words("the cat sat")).map(\.text) == ["the", "cat"])
        #expect(policy.unconfirmed.map(\.text) == ["sat"])
        #expect(policy.ingest(Self.words("the cat sad on")).isEmpty)                // "sat" vs "sad": no agreement
        #expect(policy.ingest(Self.words("the cat sad on the mat")).map(\.text) == ["sad", "on"])
        #expect(policy.committed.map(\.text) == ["the", "cat", "sad", "on"])
        #expect(policy.flush().map(\.text) == ["the", "mat"])
        #expect(policy.committed.map(\.text) == ["the", "cat", "sad", "on", "the", "mat"])
    }

    @Test func committedWordsNeverChangeWhenLaterDecodesRevise() {
        var policy = LocalAgreement()
        _ = policy.ingest(Self.words("call home now"))
        _ = policy.ingest(Self.words("call home now"))
        #expect(policy.committed.map(\.text) == ["call", "home", "now"])
        // A later decode of the same audio rewrites it: the commits stay, nothing is re-committed.
        #expect(policy.ingest(Self.words("fall home now please")).isEmpty)
        #expect(policy.ingest(Self.words("fall home now please")).map(\.text) == ["please"])
        #expect(policy.committed.map(\.text) == ["call", "home", "now", "please"])
    }

    @Test func aTrimmedBufferDoesNotRepeatTheCommittedTail() {
        var policy = LocalAgreement()
        _ = policy.ingest(Self.words("one two three"))
        _ = policy.ingest(Self.words("one two three four"))
        #expect(policy.committedEnd == 1.4)
        // After trimming at the committed end, a decode that starts a little early repeats "three".
        let later = [W("three", start: 1.0, end: 1.45)] + Self.words("four five", from: 1.5)
        #expect(policy.ingest(later).map(\.text) == ["four"])
        #expect(policy.committed.map(\.text) == ["one", "two", "three", "four"])
    }

    @Test func agreementIgnoresCaseAndPunctuation() {
        var policy = LocalAgreement()
        _ = policy.ingest([W("Nine,", start: 0, end: 0.3), W("eight", start: 0.4, end: 0.7)])
        #expect(policy.ingest([W("nine", start: 0, end: 0.3), W("Eight.", start: 0.4, end: 0.7), W("seven", start: 0.8, end: 1)])
                    .map(\.text) == ["nine", "Eight."])
    }

    @Test func agreementOfThreeNeedsThreeDecodes() {
        var policy = LocalAgreement(agreement: 3)
        #expect(policy.ingest(Self.words("a b")).isEmpty)
        #expect(policy.ingest(Self.words("a b c")).isEmpty)
        #expect(policy.ingest(Self.words("a x c")).map(\.text) == ["a"])
    }
}
