/// A span of media time: `start` and `duration`, half-open (`start ≤ t < end`), like `CMTimeRange`.
public struct TimeRange: Sendable, Hashable, Codable, CustomStringConvertible {
    public var start: MediaTime
    public var duration: MediaTime

    public init(start: MediaTime, duration: MediaTime) {
        self.start = start
        self.duration = duration
    }

    public init(start: MediaTime, end: MediaTime) {
        self.init(start: start, duration: end - start)
    }

    public static let zero = TimeRange(start: .zero, duration: .zero)
    public static let invalid = TimeRange(start: .invalid, duration: .invalid)

    public var end: MediaTime { start + duration }

    /// Valid start and a valid, non-negative duration.
    public var isValid: Bool {
        start.isValid && duration.isValid && !(duration < .zero) && !duration.isNegativeInfinity
    }

    public var isEmpty: Bool { isValid && duration == .zero }

    public func contains(_ time: MediaTime) -> Bool {
        isValid && time.isValid && start <= time && time < end
    }

    /// True when `other` lies wholly inside this range (an empty range at the end counts as inside).
    public func contains(_ other: TimeRange) -> Bool {
        isValid && other.isValid && start <= other.start && other.end <= end
    }

    /// The overlap of two ranges; an empty range at the later start when they do not overlap.
    public func intersection(_ other: TimeRange) -> TimeRange {
        guard isValid, other.isValid else { return .invalid }
        let lower = MediaTime.maximum(start, other.start)
        let upper = MediaTime.minimum(end, other.end)
        return upper > lower ? TimeRange(start: lower, end: upper) : TimeRange(start: lower, duration: .zero)
    }

    /// The smallest range covering both.
    public func union(_ other: TimeRange) -> TimeRange {
        guard isValid, other.isValid else { return .invalid }
        return TimeRange(start: MediaTime.minimum(start, other.start), end: MediaTime.maximum(end, other.end))
    }

    public func overlaps(_ other: TimeRange) -> Bool {
        let common = intersection(other)
        return common.isValid && !common.isEmpty
    }

    public var description: String { "[\(start), \(end))" }
}
