import Foundation
import SpeechCore

/// The thread that runs the simulated device's output: one render cycle at a time, on the same
/// pacing as the microphone. In real time a cycle is due when its audio would have played; in
/// fast pacing cycles follow each other at once while something plays, and the output's clock
/// waits (does not advance) while nothing does, until ``wake()``.
public final class PlaybackLoop: @unchecked Sendable {
    /// One cycle of the output: where it starts on the output's timeline and its length.
    public struct Cycle: Sendable {
        public var sampleTime: Int64
        public var hostTime: UInt64
        public var frames: Int
    }

    private struct State {
        var running = false
        var nextSample: Int64 = 0
        var finished: DispatchSemaphore?
        var hostOrigin: UInt64?
    }

    public let sampleRate: Double
    public let cycleFrames: Int
    public let pacing: MicrophoneSettings.Pacing
    /// Renders a cycle; returns false when nothing played in it.
    private let render: @Sendable (Cycle) -> Bool
    private let state = Locked(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    public init(
        sampleRate: Double, pacing: MicrophoneSettings.Pacing, render: @escaping @Sendable (Cycle) -> Bool
    ) {
        self.sampleRate = sampleRate
        // 10 ms cycles, as a device's output runs in small fixed blocks.
        self.cycleFrames = max(1, Int((sampleRate / 100).rounded()))
        self.pacing = pacing
        self.render = render
    }

    public var isRunning: Bool { state.withLock { $0.running } }

    /// Where the next cycle starts on the output's timeline.
    public var nextSampleTime: Int64 { state.withLock { $0.nextSample } }

    public func start() {
        let finished = DispatchSemaphore(value: 0)
        let started = state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
            state.finished = finished
            return true
        }
        guard started else { return }
        DeviceThread.start("SpeechHarness virtual speaker", owner: self, finished: finished) { [self] in run() }
    }

    /// Stops the output; returns once no cycle runs (at once when called from a cycle).
    public func stop() {
        let finished = state.withLock { state -> DispatchSemaphore? in
            guard state.running else { return nil }
            state.running = false
            return state.finished
        }
        guard let finished else { return }
        wakeUp.signal()
        guard !DeviceThread.isCurrent(of: self) else { return }
        finished.wait()
    }

    /// Something was scheduled or started: in fast pacing an idle output renders again.
    public func wake() { wakeUp.signal() }

    private func run() {
        let realtime = pacing == .realtime
        let resumeWall = CaptureLoop.monotonicNanoseconds()
        let resumeSample = nextSampleTime
        let origin = state.withLock { state -> UInt64 in
            if let origin = state.hostOrigin { return origin }
            let value = realtime ? resumeWall &- UInt64(Double(resumeSample) / sampleRate * 1e9) : 0
            state.hostOrigin = value
            return value
        }
        while let sample = state.withLock({ $0.running ? $0.nextSample : nil }) {
            if realtime {
                let due = resumeWall + UInt64(Double(sample - resumeSample) / sampleRate * 1e9)
                let now = CaptureLoop.monotonicNanoseconds()
                if due > now { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
            }
            let cycle = Cycle(
                sampleTime: sample, hostTime: origin &+ UInt64(Double(sample) / sampleRate * 1e9), frames: cycleFrames)
            let played = render(cycle)
            if played || realtime {
                state.withLock { $0.nextSample += Int64(cycleFrames) }
            } else {
                wakeUp.wait()
            }
        }
    }
}
