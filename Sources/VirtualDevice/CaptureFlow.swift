import Foundation
import SpeechCore

/// The back-pressure between a fast-paced microphone and the program behind its tap. Every
/// delivered buffer carries a ``CaptureLease`` for its audio; copies and conversions of the buffer
/// carry the same lease. The lease is settled when a recogniser has consumed the audio
/// (``CaptureLease/consumed()``), or when nothing holds it any more. The microphone waits, as
/// ``FastPacing`` decides, for leases to settle before it delivers more.
public final class CaptureFlow: @unchecked Sendable {
    /// The rule this microphone is paced by.
    public let pacing: FastPacing
    /// Guards everything below; waiters sleep on it.
    private let condition = NSCondition()
    private var state: FastPacing.State
    private var stopped = false
    private var peak: Double = 0
    private var pacedPeak: Double = 0
    /// Whether the last decision to deliver was made while a recogniser set the pace.
    private var deliveringPaced = false

    public init(pacing: FastPacing) {
        self.pacing = pacing
        state = FastPacing.State(start: 0, at: Self.now())
    }

    /// A lease for the audio `[start, end)` (seconds from sample 0), about to be delivered.
    public func deliver(start: Double, end: Double) -> CaptureLease {
        condition.lock()
        state.pending += end - start
        peak = max(peak, state.pending)
        if deliveringPaced { pacedPeak = max(pacedPeak, state.pending) }
        condition.unlock()
        return CaptureLease(flow: self, seconds: end - start, end: end)
    }

    /// Blocks until the buffer `[start, end)` may be delivered; false when the microphone was
    /// stopped meanwhile.
    public func waitToDeliver(start: Double, end: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            switch pacing.decide(start: start, end: end, state: state, now: Self.now()) {
            case .deliver:
                deliveringPaced = state.attached && !state.recognitionStopped
                return true
            case .awaitRecognition: condition.wait()
            case .sleep(let seconds): _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
            }
        }
        return false
    }

    /// Wakes a waiting microphone to stop.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The microphone (re)starts at `start` seconds: the wall clock counts from now.
    public func resume(at start: Double) {
        condition.lock()
        stopped = false
        state.recognisedEnd = max(state.recognisedEnd, start)
        state.recognisedAt = Self.now()
        condition.unlock()
    }

    /// The most audio the program held unconsumed at once (seconds), for tests and reports.
    public var peakPending: Double {
        condition.lock()
        defer { condition.unlock() }
        return peak
    }

    /// The most audio the program held unconsumed just after a delivery made while a recogniser
    /// set the pace (seconds): at most the recognition lead, or one buffer when a buffer is longer.
    /// Unlike ``peakPending``, it does not depend on how soon the recogniser first took audio.
    public var peakPendingWhilePaced: Double {
        condition.lock()
        defer { condition.unlock() }
        return pacedPeak
    }

    /// Seconds of delivered audio held and not yet consumed.
    public var pending: Double {
        condition.lock()
        defer { condition.unlock() }
        return state.pending
    }

    fileprivate func settle(seconds: Double, end: Double, consumed: Bool) {
        condition.lock()
        state.pending = max(0, state.pending - seconds)
        if consumed {
            state.attached = true
            state.recognitionStopped = false
            state.recognisedEnd = max(state.recognisedEnd, end)
            state.recognisedAt = Self.now()
        }
        condition.broadcast()
        condition.unlock()
    }

    /// The recogniser that consumed this microphone's audio has finished (an analyzer's session
    /// ended, by an error too): it will consume nothing more, so the microphone stops waiting for
    /// it, as a device's microphone would, and keeps only the clock lead until a recogniser
    /// consumes again.
    public func recognitionStopped() {
        condition.lock()
        state.recognitionStopped = true
        condition.broadcast()
        condition.unlock()
    }

    fileprivate func attach() {
        condition.lock()
        if !state.attached {
            state.attached = true
            condition.broadcast()
        }
        condition.unlock()
    }

    private static func now() -> Double { Double(CaptureLoop.monotonicNanoseconds()) / 1e9 }
}

/// One delivered buffer's audio, pending until a recogniser consumes it or nothing holds it.
public final class CaptureLease: @unchecked Sendable {
    private let flow: CaptureFlow
    private let seconds: Double
    private let end: Double
    private let settled = Locked(false)

    fileprivate init(flow: CaptureFlow, seconds: Double, end: Double) {
        self.flow = flow
        self.seconds = seconds
        self.end = end
    }

    /// The audio is on its way to a recogniser: from now on the microphone waits for recognition.
    public func handedToRecognition() { flow.attach() }

    /// A recogniser has consumed this audio (its engine returned for it). Once; later calls do nothing.
    public func consumed() { settle(consumed: true) }

    /// The recogniser that consumed this audio has finished; see ``CaptureFlow/recognitionStopped()``.
    public func recognitionStopped() { flow.recognitionStopped() }

    deinit { settle(consumed: false) }

    private func settle(consumed: Bool) {
        let first = settled.withLock { settled -> Bool in
            defer { settled = true }
            return !settled
        }
        if first { flow.settle(seconds: seconds, end: end, consumed: consumed) }
    }
}
