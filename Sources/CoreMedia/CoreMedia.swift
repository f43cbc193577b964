// Linux stand-in for the parts of Apple's CoreMedia that speech code uses: CMTime and CMTimeRange
// with their usual functions. CMTime is SpeechCore's MediaTime, so times pass between the harness
// and Apple-style code without conversion.
@_exported import SpeechCore

public typealias CMTime = MediaTime
public typealias CMTimeRange = TimeRange
public typealias CMTimeValue = Int64
public typealias CMTimeScale = Int32
public typealias CMTimeEpoch = Int64
public typealias CMTimeFlags = MediaTime.Flags
/// A track's number in its asset.
public typealias CMPersistentTrackID = Int32

public let kCMTimeZero = CMTime.zero
public let kCMTimeInvalid = CMTime.invalid
public let kCMTimeIndefinite = CMTime.indefinite
public let kCMTimePositiveInfinity = CMTime.positiveInfinity
public let kCMTimeNegativeInfinity = CMTime.negativeInfinity
public let kCMTimeRangeZero = CMTimeRange.zero
public let kCMTimeRangeInvalid = CMTimeRange.invalid

/// CMTime's rounding methods, by their CoreMedia names.
public enum CMTimeRoundingMethod: Sendable {
    case roundHalfAwayFromZero, roundTowardZero, roundAwayFromZero, `default`
    case roundTowardPositiveInfinity, roundTowardNegativeInfinity

    var rounding: MediaTime.Rounding {
        switch self {
        case .roundHalfAwayFromZero, .default: return .halfAwayFromZero
        case .roundTowardZero: return .towardZero
        case .roundAwayFromZero: return .awayFromZero
        case .roundTowardPositiveInfinity: return .towardPositiveInfinity
        case .roundTowardNegativeInfinity: return .towardNegativeInfinity
        }
    }
}

extension MediaTime {
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        convertScale(newTimescale, rounding: method.rounding)
    }
}

extension TimeRange {
    public func containsTime(_ time: CMTime) -> Bool { contains(time) }
    public func containsTimeRange(_ range: CMTimeRange) -> Bool { contains(range) }
}

public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }
public func CMTimeMakeWithSeconds(_ seconds: Double, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}
public func CMTimeGetSeconds(_ time: CMTime) -> Double { time.seconds }
public func CMTimeAdd(_ a: CMTime, _ b: CMTime) -> CMTime { a + b }
public func CMTimeSubtract(_ a: CMTime, _ b: CMTime) -> CMTime { a - b }
public func CMTimeCompare(_ a: CMTime, _ b: CMTime) -> Int32 { Int32(MediaTime.compare(a, b)) }
public func CMTimeMinimum(_ a: CMTime, _ b: CMTime) -> CMTime { MediaTime.minimum(a, b) }
public func CMTimeMaximum(_ a: CMTime, _ b: CMTime) -> CMTime { MediaTime.maximum(a, b) }
public func CMTimeConvertScale(_ time: CMTime, timescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    time.convertScale(timescale, method: method)
}
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, duration: duration)
}
public func CMTimeRangeFromTimeToTime(start: CMTime, end: CMTime) -> CMTimeRange { CMTimeRange(start: start, end: end) }
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime { range.end }
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool { range.contains(time) }
public func CMTimeRangeGetIntersection(_ a: CMTimeRange, otherRange b: CMTimeRange) -> CMTimeRange { a.intersection(b) }
public func CMTimeRangeGetUnion(_ a: CMTimeRange, otherRange b: CMTimeRange) -> CMTimeRange { a.union(b) }
