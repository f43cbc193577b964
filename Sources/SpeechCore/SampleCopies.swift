/// Counts the copies audio samples go through on their way from a file to an engine, by place, so
/// a test can hold the sample path to its budget. Only debug builds count, and only inside
/// `SampleCopies.$meter.withValue(meter) { … }`; everywhere else counting is free. A measurement,
/// not configuration, so it is not part of `HarnessContext`.
public enum SampleCopies {
    @TaskLocal public static var meter: SampleCopyMeter?

    /// Counts `samples` samples written to new memory at `place`.
    @inline(__always)
    public static func count(_ samples: Int, at place: StaticString) {
        #if DEBUG
            meter?.add(samples, at: "\(place)")
        #endif
    }

    /// Formerly counted a copy; "record" names a run's measured result (`UtteranceRecord`).
    @available(*, deprecated, renamed: "count(_:at:)")
    public static func record(_ samples: Int, at place: StaticString) { count(samples, at: place) }
}

/// The samples copied at each place while a meter was set.
public final class SampleCopyMeter: Sendable {
    private let counts = Locked<[String: Int]>([:])

    public init() {}

    func add(_ samples: Int, at place: String) { counts.withLock { $0[place, default: 0] += samples } }

    /// Samples copied, by place.
    public var byPlace: [String: Int] { counts.withLock { $0 } }

    /// Copies per sample of `samples` delivered: the total copied divided by what arrived.
    public func copiesPerSample(of samples: Int) -> Double {
        Double(byPlace.values.reduce(0, +)) / Double(max(samples, 1))
    }
}
