// Real-time pacing of the recorded scenarios.
// Written against Apple's public API only, so this file builds against the harness's `Speech` on
// Linux and Apple's on macOS 26.
import AVFoundation
import Foundation
import Speech

/// The clock of real-time pacing: it starts at the first buffer given, holds each buffer until its
/// audio would have been spoken, and times results against the audio.
final class InputClock: @unchecked Sendable {
    /// How buffers are given: as fast as the program can, or each when a microphone would have
    /// delivered it.
    enum Pacing: String {
        case fast, realtime
    }

    let pacing: Pacing
    private let lock = NSLock()
    private var origin: ContinuousClock.Instant?
    private var given = 0.0

    init(pacing: Pacing) { self.pacing = pacing }

    /// Waits until `seconds` of audio would have been spoken since the clock started (at once in
    /// fast pacing).
    func wait(until seconds: Double) async {
        guard pacing == .realtime else { return }
        let start = lock.withLock {
            if origin == nil { origin = ContinuousClock.now }
            return origin!
        }
        let due = start.advanced(by: .nanoseconds(Int64(seconds * 1_000_000_000)))
        if due > ContinuousClock.now { try? await Task.sleep(until: due, clock: .continuous) }
    }

    /// Counts `seconds` more audio as given.
    func gave(_ seconds: Double) {
        lock.withLock { given += seconds }
    }

    /// Where the audio was when a result came (seconds since the clock started, to the
    /// millisecond) and how much of it had been given by then; nil in fast pacing or before any audio.
    func reading() -> (arrival: Double?, inputSeconds: Double?) {
        guard pacing == .realtime, let (start, given) = lock.withLock({ origin.map { ($0, given) } }) else {
            return (nil, nil)
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return ((seconds * 1_000).rounded() / 1_000, TraceLine.seconds(given))
    }
}
