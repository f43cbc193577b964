import Foundation
import SpeechCore

/// One tap buffer as the microphone captured it: samples per hardware channel, the position of
/// its first sample, the host time (nanoseconds) at that sample, and in fast pacing the lease
/// that holds the microphone back until the audio is consumed (see ``CaptureFlow``).
public struct CapturedBuffer: Sendable {
    public var channels: [[Float]]
    public var sampleTime: Int64
    public var hostTime: UInt64
    public var lease: CaptureLease?
}

/// The thread that plays the virtual microphone: it cuts the recording into tap buffers by the
/// schedule, paces them (real time, or as fast as the program behind the tap consumes them:
/// ``FastPacing``), and hands each one to `deliver` on its own thread, never on the cooperative pool.
public final class CaptureLoop: @unchecked Sendable {
    /// Why the loop ended on its own.
    public enum Ending: Sendable, Equatable {
        case sourceEnded
        /// A call took the microphone (`MicrophoneInterruption.call(at:until:)`); the
        /// audio until it ends is skipped.
        case interrupted
        /// The input route went away (`MicrophoneInterruption.routeChange(at:)`).
        case routeChanged
    }

    private struct State {
        var schedule: CaptureSchedule
        var running = false
        var finished: DispatchSemaphore?
        /// The interruption has happened (it happens once).
        var interrupted = false
    }

    private let recording: MicrophoneRecording
    private let settings: MicrophoneSettings
    private let muted: Bool
    private let deliver: @Sendable (CapturedBuffer) -> Void
    private let ended: @Sendable (Ending) -> Void
    private let state: Locked<State>
    /// Host time of sample 0: the monotonic clock at the first start (real time), or 0 (fast).
    private let hostOrigin: Locked<UInt64?> = Locked(nil)
    /// Fast pacing's back-pressure; nil in real time.
    public let flow: CaptureFlow?

    /// `muted`: deliver silence whatever the source (microphone access denied).
    public init(
        recording: MicrophoneRecording, settings: MicrophoneSettings, schedule: CaptureSchedule, muted: Bool,
        deliver: @escaping @Sendable (CapturedBuffer) -> Void, ended: @escaping @Sendable (Ending) -> Void
    ) {
        self.recording = recording
        self.settings = settings
        self.muted = muted
        self.deliver = deliver
        self.ended = ended
        self.state = Locked(State(schedule: schedule))
        flow = settings.pacing == .fast ? CaptureFlow(pacing: settings.fastPacing) : nil
    }

    public var isRunning: Bool { state.withLock { $0.running } }
    /// The first sample of the next buffer.
    public var nextSampleTime: Int64 { state.withLock { $0.schedule.nextSampleTime } }

    /// Starts (or resumes) delivery.
    public func start() {
        let finished = DispatchSemaphore(value: 0)
        let started = state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
            state.finished = finished
            return true
        }
        guard started else { return }
        flow?.resume(at: state.withLock { $0.schedule.seconds(at: $0.schedule.nextSampleTime) })
        DeviceThread.start("SpeechHarness virtual microphone", owner: self, finished: finished) { [self] in run() }
    }

    /// Stops delivery. Called from elsewhere it returns once the tap block will not be called
    /// again; called from the tap block itself it returns at once and no further buffer follows.
    public func stop() {
        let finished = state.withLock { state -> DispatchSemaphore? in
            guard state.running else { return nil }
            state.running = false
            return state.finished
        }
        guard let finished else { return }
        flow?.stop()
        guard !DeviceThread.isCurrent(of: self) else { return }
        finished.wait()
    }

    /// The monotonic clock, which real-time pacing and fast pacing's wall-clock lead both count on.
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Stops the loop when the settings' interruption comes before the buffer at `range`, and
    /// says why; a call also skips the audio it takes.
    private func interrupt(before range: Range<Int64>, rate: Double) -> Ending? {
        guard let interruption = settings.interruption else { return nil }
        let at: Double
        switch interruption {
        case .call(let start, _), .routeChange(let start): at = start
        }
        return state.withLock { state -> Ending? in
            guard !state.interrupted, Double(range.upperBound) > at * rate else { return nil }
            state.interrupted = true
            state.running = false
            if case .call(_, let until) = interruption {
                state.schedule.skip(to: Int64((until * rate).rounded()))
                return .interrupted
            }
            return .routeChanged
        }
    }

    private func run() {
        let rate = settings.sampleRate
        let realtime = settings.pacing == .realtime
        let endFrame: Int64? = {
            guard case .stopEngine(let silence) = settings.end else { return nil }
            return Int64(recording.frameCount) + Int64((silence * rate).rounded())
        }()
        // Wall time (ns) that sample `resumeSample` corresponds to, for pacing after a pause.
        let resumeWall = Self.monotonicNanoseconds()
        let resumeSample = nextSampleTime
        let origin = hostOrigin.withLock { origin -> UInt64 in
            if let origin { return origin }
            let value = realtime ? resumeWall &- UInt64(Double(resumeSample) / rate * 1e9) : 0
            origin = value
            return value
        }
        while true {
            // The next buffer is taken from the schedule only once it is due, so that a stop while
            // waiting for it loses no audio: a restart delivers it.
            guard let (range, schedule) = state.withLock({ $0.running ? ($0.schedule.upcoming, $0.schedule) : nil })
            else { return }
            if let endFrame, range.lowerBound >= endFrame {
                state.withLock { $0.running = false }
                ended(.sourceEnded)
                return
            }
            if let ending = interrupt(before: range, rate: rate) {
                flow?.stop()
                ended(ending)
                return
            }
            let start = schedule.seconds(at: range.lowerBound), end = schedule.readySeconds(of: range)
            if let flow, !flow.waitToDeliver(start: start, end: end) { return }
            if realtime {
                let due = resumeWall + UInt64((end - schedule.seconds(at: resumeSample)) * 1e9)
                let now = Self.monotonicNanoseconds()
                if due > now { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
            }
            let taken = state.withLock { state -> Bool in
                guard state.running else { return false }
                _ = state.schedule.next()
                return true
            }
            guard taken else { return }
            let lease = flow?.deliver(start: start, end: end)
            let frames = Int(range.lowerBound)..<Int(range.upperBound)
            let channels =
                muted
                ? Array(repeating: [Float](repeating: 0, count: frames.count), count: recording.channels.count)
                : recording.frames(frames)
            deliver(
                CapturedBuffer(
                    channels: channels, sampleTime: range.lowerBound,
                    hostTime: origin &+ UInt64(Double(range.lowerBound) / rate * 1e9), lease: lease))
        }
    }
}
