import Foundation

/// A moment on an audio timeline: a sample time at a rate, a host time, or both.
///
/// Host time on Linux counts nanoseconds of the monotonic clock (Apple's counts
/// `mach_absolute_time` ticks; convert with ``hostTime(forSeconds:)`` and
/// ``seconds(forHostTime:)`` either way). Under the virtual microphone's `fast` pacing it counts
/// virtual nanoseconds from the first sample.
public final class AVAudioTime: NSObject, @unchecked Sendable {
    public let sampleTime: AVAudioFramePosition
    public let sampleRate: Double
    public let isSampleTimeValid: Bool
    public let hostTime: UInt64
    public let isHostTimeValid: Bool

    public init(sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        self.sampleTime = sampleTime
        self.sampleRate = sampleRate
        self.isSampleTimeValid = true
        self.hostTime = 0
        self.isHostTimeValid = false
    }

    public init(hostTime: UInt64) {
        self.sampleTime = 0
        self.sampleRate = 0
        self.isSampleTimeValid = false
        self.hostTime = hostTime
        self.isHostTimeValid = true
    }

    public init(hostTime: UInt64, sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        self.sampleTime = sampleTime
        self.sampleRate = sampleRate
        self.isSampleTimeValid = true
        self.hostTime = hostTime
        self.isHostTimeValid = true
    }

    /// Host ticks in `seconds`.
    public class func hostTime(forSeconds seconds: TimeInterval) -> UInt64 { UInt64(max(0, seconds * 1e9).rounded()) }

    /// Seconds in `hostTime` ticks.
    public class func seconds(forHostTime hostTime: UInt64) -> TimeInterval { Double(hostTime) / 1e9 }

    /// Fills in whichever of sample time and host time this moment lacks from `anchor`, which has
    /// both; nil when neither side can be derived.
    public func extrapolateTime(fromAnchor anchorTime: AVAudioTime) -> AVAudioTime? {
        guard anchorTime.isSampleTimeValid, anchorTime.isHostTimeValid, anchorTime.sampleRate > 0 else { return nil }
        if isSampleTimeValid && isHostTimeValid { return self }
        if isSampleTimeValid {
            let rate = sampleRate > 0 ? sampleRate : anchorTime.sampleRate
            let seconds = Double(sampleTime) / rate - Double(anchorTime.sampleTime) / anchorTime.sampleRate
            let host = Int64(anchorTime.hostTime) + Int64((seconds * 1e9).rounded())
            return AVAudioTime(hostTime: UInt64(max(0, host)), sampleTime: sampleTime, atRate: rate)
        }
        if isHostTimeValid {
            let seconds = (Double(hostTime) - Double(anchorTime.hostTime)) / 1e9
            let sample = anchorTime.sampleTime + AVAudioFramePosition((seconds * anchorTime.sampleRate).rounded())
            return AVAudioTime(hostTime: hostTime, sampleTime: sample, atRate: anchorTime.sampleRate)
        }
        return nil
    }

    public override var description: String {
        "<AVAudioTime: host \(isHostTimeValid ? String(hostTime) : "-"), sample \(isSampleTimeValid ? String(sampleTime) : "-") @ \(sampleRate) Hz>"
    }
}
