/// How far a fast-paced microphone may run ahead. Its clock is the samples' clock, but it may not
/// outrun the recognisers its audio goes to: once some of its audio has been handed to one, the
/// program may hold at most `recognitionLead` seconds of delivered audio that no recogniser has
/// consumed yet. Audio that no
/// recogniser takes (a tap that only writes a file) may run at most `clockLead` seconds ahead of
/// wall time, counted from the last audio a recogniser consumed. Pure arithmetic: `CaptureFlow`
/// keeps the counts and does the waiting.
public struct FastPacing: Sendable, Hashable {
    /// Seconds of delivered audio the program may hold before a recogniser has consumed it.
    public var recognitionLead: Double
    /// Seconds of audio no recogniser consumed that may be delivered ahead of wall time.
    public var clockLead: Double

    public init(recognitionLead: Double = 1, clockLead: Double = 10) {
        self.recognitionLead = recognitionLead
        self.clockLead = clockLead
    }

    /// Formerly the microphone's state; "progress" names Foundation's `Progress` only.
    @available(*, deprecated, renamed: "State")
    public typealias Progress = State

    /// What the microphone knows when it is about to deliver a buffer.
    public struct State: Sendable, Hashable {
        /// Seconds of delivered audio the program still holds and no recogniser has consumed.
        public var pending: Double = 0
        /// Some of this microphone's audio has been handed to a recogniser (an analyzer input, a
        /// legacy buffer request).
        public var attached = false
        /// The recogniser that consumed this microphone's audio has finished, and none has
        /// consumed any since: audio handed to it will never be consumed, so it holds nothing back.
        public var recognitionStopped = false
        /// Where the audio recognisers last consumed ends (seconds from sample 0); the start until then.
        public var recognisedEnd: Double
        /// When (wall seconds) that was, or when the microphone (re)started.
        public var recognisedAt: Double

        public init(start: Double, at now: Double) {
            recognisedEnd = start
            recognisedAt = now
        }
    }

    public enum Decision: Sendable, Hashable {
        case deliver
        /// Wait until a recogniser consumes (or the program lets go of) some audio.
        case awaitRecognition
        /// Wait this many wall seconds (or until a recogniser consumes audio).
        case sleep(Double)
    }

    /// Formerly ``decide(start:end:state:now:)``.
    @available(*, deprecated, renamed: "decide(start:end:state:now:)")
    public func decide(start: Double, end: Double, progress: State, now: Double) -> Decision {
        decide(start: start, end: end, state: progress, now: now)
    }

    /// Whether the buffer `[start, end)` (seconds from sample 0) may be delivered at wall time `now`.
    public func decide(start: Double, end: Double, state progress: State, now: Double) -> Decision {
        // A buffer longer than the lead still goes once nothing is pending, or nothing would.
        if progress.attached, !progress.recognitionStopped, progress.pending > 0,
            progress.pending + (end - start) > recognitionLead + 1e-9
        {
            return .awaitRecognition
        }
        let early = (end - progress.recognisedEnd) - clockLead - (now - progress.recognisedAt)
        return early > 0 ? .sleep(early) : .deliver
    }
}
