import Testing

@testable import SpeechCore

@Suite("TimeRange")
struct TimeRangeTests {
    func t(_ v: Int64, _ s: Int32 = 10) -> MediaTime { MediaTime(value: v, timescale: s) }

    @Test func endAndContainmentAreHalfOpen() {
        let r = TimeRange(start: t(10), duration: t(5))
        #expect(r.end == t(15))
        #expect(r.contains(t(10)))
        #expect(r.contains(t(149, 100)))
        #expect(!r.contains(t(15)))
        #expect(!r.contains(MediaTime.invalid))
        #expect(r.contains(TimeRange(start: t(11), end: t(15))))
        #expect(!r.contains(TimeRange(start: t(9), end: t(12))))
    }

    @Test func intersectionAndUnion() {
        let a = TimeRange(start: t(0), end: t(10))
        let b = TimeRange(start: t(1, 2), end: t(2, 1))  // 0.5 s .. 2 s at another timescale
        #expect(a.intersection(b) == TimeRange(start: t(5), end: t(10)))
        #expect(a.union(b) == TimeRange(start: t(0), end: t(20)))
        let disjoint = TimeRange(start: t(30), end: t(40))
        #expect(a.intersection(disjoint).isEmpty)
        #expect(!a.overlaps(disjoint))
        #expect(a.overlaps(b))
        // Touching ranges do not overlap.
        #expect(!a.overlaps(TimeRange(start: t(10), end: t(12))))
    }

    @Test func invalidRanges() {
        #expect(!TimeRange.invalid.isValid)
        #expect(!TimeRange(start: t(5), duration: t(-1)).isValid)
        #expect(!TimeRange(start: t(0), end: t(1)).union(.invalid).isValid)
        #expect(TimeRange.zero.isEmpty)
    }
}
