import SpeechCore
import Testing

@testable import Metrics

@Suite("Long-stream measures")
struct LongStreamMeasuresTests {
    /// Three recordings over two minutes: a timed digit string in each minute, and an untimed
    /// prompt ending in the second.
    static let pieces = [
        LongStreamPiece(id: "a", start: 10, end: 12, words: ["one", "two"], wordEnds: [10.8, 11.6]),
        LongStreamPiece(id: "b", start: 58, end: 63, words: ["please", "wait"]),
        LongStreamPiece(id: "c", start: 90, end: 92, words: ["three", "four"], wordEnds: [90.9, 91.7]),
    ]

    static func event(
        _ time: Double, _ words: [String], _ range: ClosedRange<Double>, final: Bool = false
    )
        -> StreamingTimeline.Event
    {
        .init(time: time, isFinal: final, words: words, rangeStart: range.lowerBound, rangeEnd: range.upperBound)
    }

    @Test func minutesHoldTheirWordsLatenciesComputeAndMemory() throws {
        let events = [
            Self.event(11.0, ["one"], 10...11),
            Self.event(12.0, ["one", "too"], 10...12),
            Self.event(12.5, ["one", "two"], 10...12, final: true),
            Self.event(63.5, ["please", "wait"], 58...63, final: true),
            Self.event(91.0, ["three"], 90...91),
            Self.event(92.4, ["three", "for"], 90...92, final: true),
            // A word shown after its final result changes nothing already measured.
            Self.event(95.0, ["three", "four"], 90...95),
        ]
        let samples = LongStreamSamples(readings: [
            .init(audio: 30, compute: 3, toolResident: 100, workerResident: 400),
            .init(audio: 59.9, compute: 6, toolResident: 120),
            .init(audio: 100, compute: 16, toolResident: 110, workerResident: 500),
            .init(audio: 120, compute: 20),
            // After the input ended: counted in the last minute.
            .init(audio: 120, compute: 22, workerResident: 450),
        ])
        let figures = LongStreamMeasures.measure(
            events: events, pieces: Self.pieces, finalWords: events.filter(\.isFinal).flatMap(\.words),
            samples: samples, audioSeconds: 120)
        let first = figures.minutes[0], second = figures.minutes[1]
        // Minute 1: "one two" right; minute 2: "please wait" (ends at 63 s) right, "four" heard as "for".
        #expect(first.words == ErrorCounts(hits: 2))
        #expect(second.words == ErrorCounts(hits: 3, substitutions: 1))
        // "one" shown at 11.0 (0.2 s after its end), final at 12.5 (1.7); "two" shown and final at 12.5 (0.9).
        #expect(round(first.hypothesisP50) == 0.55 && round(first.hypothesisP90) == 0.83)
        #expect(round(first.confirmedP50) == 1.3 && first.hypothesisWords == 2 && first.confirmedWords == 2)
        // "three" shown at 91.0 (0.1), final at 92.4 (1.5); "four" shown at 95.0 (3.3), never final.
        #expect(second.hypothesisWords == 2 && second.confirmedWords == 1)
        #expect(round(second.hypothesisP50) == 1.7 && round(second.confirmedP90) == 1.5)
        // CPU: 6 s in the first minute, 16 in the second (22 − 6); memory the highest reading.
        #expect(first.cpuPerAudioSecond == 0.1 && round(second.cpuPerAudioSecond) == 0.27)
        #expect(first.toolResidentPeak == 120 && first.workerResidentPeak == 400)
        #expect(second.toolResidentPeak == 110 && second.workerResidentPeak == 500)
        // Per recording, for whole-stream percentiles resampled by recording.
        #expect(figures.hypothesisByPiece.map(\.count) == [2, 0, 2])
        #expect(figures.confirmedByPiece.map(\.count) == [2, 0, 1])
    }

    @Test func aResultIsAlignedOnlyWithTheRecordingsItsRangeOverlaps() {
        // "one two" is said again in the second minute; a result there must not time the first.
        let pieces = [
            LongStreamPiece(id: "a", start: 0, end: 2, words: ["one", "two"], wordEnds: [0.8, 1.6]),
            LongStreamPiece(id: "b", start: 70, end: 72, words: ["one", "two"], wordEnds: [70.8, 71.6]),
        ]
        let events = [Self.event(72.0, ["one", "two"], 70...72, final: true)]
        let figures = LongStreamMeasures.measure(
            events: events, pieces: pieces, finalWords: ["one", "two"], samples: LongStreamSamples(),
            audioSeconds: 80)
        #expect(figures.minutes[0].hypothesisWords == 0 && figures.minutes[1].confirmedWords == 2)
        #expect(figures.minutes[0].words == ErrorCounts(deletions: 2))
        #expect(figures.minutes[0].cpuPerAudioSecond == nil)
    }

    @Test func insertionsCountInTheMinuteOfTheWordBeforeThem() {
        let figures = LongStreamMeasures.measure(
            events: [], pieces: Self.pieces, finalWords: ["one", "two", "uh", "please", "wait", "three", "four", "so"],
            samples: LongStreamSamples(), audioSeconds: 120)
        #expect(figures.minutes[0].words == ErrorCounts(hits: 2, insertions: 1))
        #expect(figures.minutes[1].words == ErrorCounts(hits: 4, insertions: 1))
        // Nothing to say: every word is a deletion, nothing crashes without reference words.
        let silent = LongStreamMeasures.measure(
            events: [], pieces: [], finalWords: ["hello"], samples: LongStreamSamples(), audioSeconds: 30)
        #expect(silent.minutes.count == 1 && silent.minutes[0].words == ErrorCounts(insertions: 1))
    }

    private func round(_ value: Double?) -> Double? { value.map { ($0 * 100).rounded() / 100 } }
}
