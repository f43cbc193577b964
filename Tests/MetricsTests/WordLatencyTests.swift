import SpeechCore
import Testing

@testable import Metrics

@Suite("Per-word latency")
struct WordLatencyTests {
    static let reference = [
        TimedWord(word: "one", start: 0.2, end: 0.6), TimedWord(word: "two", start: 0.7, end: 1.1),
        TimedWord(word: "three", start: 1.2, end: 1.6),
    ]

    static func event(_ time: Double, _ words: [String], final: Bool = false) -> StreamingTimeline.Event {
        .init(time: time, isFinal: final, words: words, rangeStart: 0, rangeEnd: time)
    }

    @Test func eachWordIsTimedWhenFirstShownRightAndWhenFinal() {
        let timeline = StreamingTimeline(
            events: [
                Self.event(0.8, ["uh", "one"]), Self.event(1.3, ["one", "too"]), Self.event(1.5, ["one", "two"]),
                Self.event(2.0, ["one", "two", "three"], final: true),
            ], referenceWords: Self.reference, audioEnd: 1.8)
        let latencies = WordLatencies.measure(timeline)
        // "one" is placed by the alignment though an insertion comes first; "too" is not "two".
        #expect(latencies.hypothesis.map { ($0 * 100).rounded() / 100 } == [0.2, 0.4, 0.4])
        #expect(latencies.confirmed.map { ($0 * 100).rounded() / 100 } == [1.4, 0.9, 0.4])
    }

    @Test func wordsFinalisedInPiecesAreConfirmedByTheResultThatHoldsThem() {
        let timeline = StreamingTimeline(
            events: [
                Self.event(1.0, ["one"], final: true), Self.event(1.9, ["two", "three"], final: true),
            ], referenceWords: Self.reference, audioEnd: 1.8)
        let latencies = WordLatencies.measure(timeline)
        #expect(latencies.confirmed.map { ($0 * 100).rounded() / 100 } == [0.4, 0.8, 0.3])
        #expect(latencies.hypothesis == latencies.confirmed)
        // A word never shown has no latency; without reference times there is nothing to measure.
        let missed = StreamingTimeline(
            events: [Self.event(2.0, ["one", "three"], final: true)], referenceWords: Self.reference, audioEnd: 1.8)
        #expect(WordLatencies.measure(missed).confirmed.count == 2)
        #expect(
            WordLatencies.measure(StreamingTimeline(events: missed.events, referenceWords: [], audioEnd: 1.8))
                == WordLatencies())
    }

    @Test func percentilesPoolUtterancesAndResampleThemWhole() throws {
        let single = try #require(LatencyPercentiles.make([[0.1, 0.2, 0.3, 0.4]]))
        #expect(single.words == 4 && single.p50CI95 == [single.p50, single.p50])
        let many = (0..<30).map { u in (0..<5).map { Double(u % 7) * 0.1 + Double($0) * 0.01 } }
        let summary = try #require(LatencyPercentiles.make(many))
        #expect(summary.p50 <= summary.p90 && summary.p90 <= summary.p99)
        for (estimate, interval) in [(summary.p50, summary.p50CI95), (summary.p90, summary.p90CI95)] {
            #expect(interval[0] <= estimate && estimate <= interval[1])
        }
        #expect(LatencyPercentiles.make(many) == summary)
        #expect(LatencyPercentiles.make([[], []]) == nil)
    }

    /// OpenBench's count: a shown word replaced, withdrawn or with a word put in before it counts;
    /// words appended after what was shown do not.
    @Test func correctionsCountChangesToShownTextOnly() {
        let timeline = StreamingTimeline(
            events: [
                Self.event(0.5, ["one"]), Self.event(0.8, ["one", "too"]), Self.event(1.0, ["one", "two"]),
                Self.event(1.2, ["one", "two", "tree"]), Self.event(1.4, ["one", "two"]),
                Self.event(1.6, ["one", "three"]),
                Self.event(2.0, ["one", "two", "three"], final: true),
            ], referenceWords: Self.reference, audioEnd: 1.8)
        let counted = Corrections.count(timeline)
        // too → two; "tree" withdrawn; two → three; "two" put back before "three".
        #expect(counted == Corrections(substitutions: 2, deletions: 1, insertions: 1))
        #expect(counted.total == 4)
        let growing = StreamingTimeline(
            events: [
                Self.event(0.5, ["one"]), Self.event(1.0, ["one", "two"]),
                Self.event(2.0, ["one", "two"], final: true),
            ],
            referenceWords: [], audioEnd: 1.8)
        #expect(Corrections.count(growing).total == 0)
    }

    /// The drain runs from the call that ends the input to the last final result.
    @Test func theDrainRunsFromTheEndOfInputToTheLastFinal() {
        let events = [Self.event(1.0, ["one"]), Self.event(2.3, ["one", "two", "three"], final: true)]
        let ended = StreamingTimeline(events: events, referenceWords: Self.reference, audioEnd: 1.8, inputEndedAt: 2.0)
        #expect(abs((StreamingMeasures.measure(ended).drain ?? -1) - 0.3) < 1e-9)
        // A final result already there when the input ends drains at once; no end recorded, no drain.
        let early = StreamingTimeline(events: events, referenceWords: Self.reference, audioEnd: 1.8, inputEndedAt: 2.5)
        #expect(StreamingMeasures.measure(early).drain == 0)
        #expect(
            StreamingMeasures.measure(StreamingTimeline(events: events, referenceWords: [], audioEnd: 1.8)).drain == nil
        )
    }
}

@Suite("Lost tail")
struct TailLossTests {
    /// Four words in 3 s; the tail is what ends after 1 s. The finals hold "one" and "three": of
    /// the three tail words, "two" and "four" are lost.
    @Test func tailWordsNoFinalHoldsAreLost() {
        let reference = [
            TimedWord(word: "one", start: 0.2, end: 0.8), TimedWord(word: "two", start: 1.0, end: 1.4),
            TimedWord(word: "three", start: 1.6, end: 2.0), TimedWord(word: "four", start: 2.2, end: 2.7),
        ]
        #expect(
            TailLoss.measure(reference: reference, finalWords: ["one", "three"], audioEnd: 3)
                == TailLoss(words: 3, lost: 2))
        #expect(TailLoss.measure(reference: reference, finalWords: [], audioEnd: 3, window: 0.5).lost == 1)
        #expect(TailLoss(words: 3, lost: 2) + TailLoss(words: 1, lost: 0) == TailLoss(words: 4, lost: 2))
    }
}
