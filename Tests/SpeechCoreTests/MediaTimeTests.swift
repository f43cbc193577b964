import Foundation
import Testing

@testable import SpeechCore

@Suite("MediaTime")
struct MediaTimeTests {
    @Test func equalityIsExactAcrossTimescales() {
        #expect(MediaTime(value: 1, timescale: 2) == MediaTime(value: 8000, timescale: 16000))
        #expect(MediaTime(value: 1, timescale: 3) != MediaTime(value: 3333, timescale: 10000))
        #expect(MediaTime(value: 1, timescale: 3) > MediaTime(value: 3333, timescale: 10000))
        // Hashes agree for equal times written differently.
        #expect(Set([MediaTime(value: 1, timescale: 2), MediaTime(value: 22050, timescale: 44100)]).count == 1)
    }

    @Test func comparisonDoesNotOverflowWithLargeValues() {
        let a = MediaTime(value: Int64.max / 2, timescale: Int32.max)
        let b = MediaTime(value: Int64.max / 2 + 1, timescale: Int32.max)
        #expect(a < b)
        let c = MediaTime(value: Int64.max, timescale: 1)
        let d = MediaTime(value: Int64.max, timescale: 2)
        #expect(d < c)
    }

    @Test func specialValuesOrderLikeCMTimeCompare() {
        let ordered: [MediaTime] = [
            .negativeInfinity, MediaTime(value: -5, timescale: 1), .zero,
            MediaTime(value: 7, timescale: 3), .indefinite, .positiveInfinity, .invalid,
        ]
        for i in ordered.indices {
            for j in ordered.indices {
                #expect((ordered[i] < ordered[j]) == (i < j), "\(ordered[i]) vs \(ordered[j])")
            }
        }
        #expect(MediaTime.invalid == MediaTime(value: 3, timescale: 0))
        #expect(MediaTime.indefinite.isValid && !MediaTime.indefinite.isNumeric)
        #expect(!MediaTime.invalid.isValid)
    }

    @Test func additionAcrossTimescalesIsExact() {
        let sum = MediaTime(value: 1, timescale: 3) + MediaTime(value: 1, timescale: 16000)
        #expect(sum == MediaTime(value: 16003, timescale: 48000))
        #expect(!sum.flags.contains(.hasBeenRounded))
        let difference = MediaTime(value: 16000, timescale: 16000) - MediaTime(value: 1, timescale: 8000)
        #expect(difference == MediaTime(value: 7999, timescale: 8000))
    }

    @Test func additionWithCoprimeHugeTimescalesRounds() {
        let a = MediaTime(value: 1, timescale: 2_147_483_647)
        let b = MediaTime(value: 1, timescale: 2_147_483_646)
        let sum = a + b
        #expect(sum.isNumeric)
        #expect(sum.flags.contains(.hasBeenRounded))
        #expect(abs(sum.seconds - (a.seconds + b.seconds)) < 1e-9)
    }

    @Test func infinityAndInvalidArithmetic() {
        #expect((MediaTime.positiveInfinity + .negativeInfinity).isValid == false)
        #expect((MediaTime.positiveInfinity + MediaTime(value: 5, timescale: 1)).isPositiveInfinity)
        #expect((MediaTime.zero - .positiveInfinity).isNegativeInfinity)
        #expect((MediaTime.indefinite + .zero).isIndefinite)
        #expect((MediaTime.invalid + .zero).isValid == false)
        #expect((MediaTime.positiveInfinity * 0).isValid == false)
        #expect((MediaTime.positiveInfinity * -2).isNegativeInfinity)
    }

    @Test func overflowSaturatesToInfinity() {
        let big = MediaTime(value: Int64.max - 1, timescale: 1)
        #expect((big + MediaTime(value: 10, timescale: 1)).isPositiveInfinity)
        #expect((-big - MediaTime(value: 10, timescale: 1)).isNegativeInfinity)
        #expect((big * 3).isPositiveInfinity)
    }

    @Test func secondsConversions() {
        #expect(MediaTime(seconds: 1.5, preferredTimescale: 1000) == MediaTime(value: 1500, timescale: 1000))
        let third = MediaTime(seconds: 1.0 / 3.0, preferredTimescale: 600)
        #expect(third.value == 200)
        #expect(MediaTime(seconds: 0.0001, preferredTimescale: 1000).flags.contains(.hasBeenRounded))
        #expect(MediaTime(seconds: .nan, preferredTimescale: 1000).isValid == false)
        #expect(MediaTime(seconds: .infinity, preferredTimescale: 1000).isPositiveInfinity)
        #expect(MediaTime(seconds: -2.5, preferredTimescale: 2).value == -5)
        #expect(MediaTime.invalid.seconds.isNaN)
        #expect(MediaTime.positiveInfinity.seconds == .infinity)
    }

    @Test(arguments: [
        MediaTime.Rounding.halfAwayFromZero, .towardZero, .awayFromZero,
        .towardPositiveInfinity, .towardNegativeInfinity,
    ])
    func convertScaleRoundsAsAsked(rounding: MediaTime.Rounding) {
        // 25/100 s = 2.5 units at timescale 10; -25/100 = -2.5.
        let positive = MediaTime(value: 25, timescale: 100).convertScale(10, rounding: rounding)
        let negative = MediaTime(value: -25, timescale: 100).convertScale(10, rounding: rounding)
        let expected: (Int64, Int64)
        switch rounding {
        case .halfAwayFromZero: expected = (3, -3)
        case .towardZero: expected = (2, -2)
        case .awayFromZero: expected = (3, -3)
        case .towardPositiveInfinity: expected = (3, -2)
        case .towardNegativeInfinity: expected = (2, -3)
        }
        #expect(positive.value == expected.0)
        #expect(negative.value == expected.1)
        #expect(positive.flags.contains(.hasBeenRounded))
    }

    @Test func sampleIndexRoundTrips() {
        let t = MediaTime(sampleIndex: 12_345, sampleRate: 16_000)
        #expect(t == MediaTime(value: 12_345, timescale: 16_000))
        #expect(t.sampleIndex(sampleRate: 16_000) == 12_345)
        #expect(t.sampleIndex(sampleRate: 8_000, rounding: .towardZero) == 6_172)
        #expect(MediaTime(seconds: 1, preferredTimescale: 1).sampleIndex(sampleRate: 44_100) == 44_100)
        #expect(MediaTime.indefinite.sampleIndex(sampleRate: 16_000) == nil)
        // Non-integral rates still convert.
        let odd = MediaTime(sampleIndex: 11_025, sampleRate: 22_050.5)
        #expect(abs(odd.seconds - 11_025 / 22_050.5) < 1e-9)
    }

    @Test func invalidTimescaleMakesInvalidTime() {
        #expect(!MediaTime(value: 10, timescale: 0).isValid)
        #expect(!MediaTime(value: 10, timescale: -5).isValid)
    }

    @Test func codableRoundTripKeepsSpecials() throws {
        let times: [MediaTime] = [
            .zero, MediaTime(value: 7, timescale: 16000), .invalid, .indefinite, .positiveInfinity,
        ]
        let data = try JSONEncoder().encode(times)
        let back = try JSONDecoder().decode([MediaTime].self, from: data)
        #expect(back == times)
        #expect(back[3].isIndefinite && back[4].isPositiveInfinity)
    }
}
