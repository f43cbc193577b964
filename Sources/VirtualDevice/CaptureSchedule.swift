/// When each tap buffer of the virtual microphone starts and how long it is: pure arithmetic on
/// sample positions, so timing is exact and testable without a clock.
public struct CaptureSchedule: Sendable, Hashable {
    /// Apple documents the tap's supported buffer size as 100 to 400 ms; a request outside that
    /// range gets its nearest end (an iPhone asked for 1,024 frames at 48 kHz delivers 4,800).
    public static let bufferDurationRange: ClosedRange<Double> = 0.1...0.4

    public let sampleRate: Double
    public let framesPerBuffer: Int
    /// The first sample of the next buffer.
    public private(set) var nextSampleTime: Int64

    public init(sampleRate: Double, requestedFrames: UInt32, startSampleTime: Int64 = 0) {
        self.sampleRate = sampleRate
        self.framesPerBuffer = Self.framesPerBuffer(requested: requestedFrames, sampleRate: sampleRate)
        self.nextSampleTime = startSampleTime
    }

    /// The buffer size delivered for a requested size, at a rate.
    public static func framesPerBuffer(requested: UInt32, sampleRate: Double) -> Int {
        let shortest = Int((sampleRate * bufferDurationRange.lowerBound).rounded())
        let longest = Int((sampleRate * bufferDurationRange.upperBound).rounded())
        return min(max(Int(requested), shortest), longest)
    }

    /// The samples of the next buffer, without moving past them.
    public var upcoming: Range<Int64> { nextSampleTime..<(nextSampleTime + Int64(framesPerBuffer)) }

    /// The samples of the next buffer; moves past them.
    public mutating func next() -> Range<Int64> {
        let range = upcoming
        nextSampleTime = range.upperBound
        return range
    }

    /// Moves the next buffer's start to `sampleTime` (audio lost while the microphone was taken).
    public mutating func skip(to sampleTime: Int64) { nextSampleTime = max(nextSampleTime, sampleTime) }

    /// When a buffer can be delivered: once its last sample has been recorded (seconds from sample 0).
    public func readySeconds(of range: Range<Int64>) -> Double { seconds(at: range.upperBound) }

    /// Seconds from sample 0 to `sampleTime`.
    public func seconds(at sampleTime: Int64) -> Double { Double(sampleTime) / sampleRate }
}
